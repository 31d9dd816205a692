import { Loader2, Tag } from 'lucide-react'
import { useState } from 'react'
import * as z from 'zod'
import { discountCodeSchema } from '../../../../shared/checkout'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import type { CartItem } from '../../../lib/cart-store'
import { useSchemaForm } from '../../../lib/form'
import { useDiscountCheck } from '../api/check-discount'

/** The discount field checks the code's shape with the server's rule; the server checks the rest. */
const discountFormSchema = z.object({ code: discountCodeSchema })

/** A discount code: the one applied, the server's answer for this cart, and its form. */
export function useDiscountCode(lines: readonly CartItem[]) {
  const t = useT()
  // The code the buyer applied; the server says what it takes off this cart (or why it does not).
  const [applied, setApplied] = useState<string | null>(null)
  const check = useDiscountCheck(applied, lines)
  const accepted = check.data?.success ? check.data : null
  const refusal = check.data && !check.data.success ? check.data.error : check.error?.message
  const codeForm = useSchemaForm({
    schema: discountFormSchema,
    initial: { code: '' },
    labels: { code: t('discount.label') },
    onValid: ({ code }) => setApplied(code),
  })
  /** Takes the code off: the cart's own total again. */
  const remove = () => {
    setApplied(null)
    codeForm.reset({ code: '' })
  }
  return { applied, check, accepted, refusal, codeForm, remove }
}

export type DiscountCode = ReturnType<typeof useDiscountCode>

export function DiscountCodeForm({ discount }: { discount: DiscountCode }) {
  const t = useT()
  const { codeForm, check, refusal, applied } = discount
  return (
    <form {...codeForm.formProps} className="mt-5 border-t border-line pt-4">
      <label htmlFor="discount-code" className="block text-sm font-medium text-fg">
        {t('discount.label')}
      </label>
      <div className="mt-2 flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Tag
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <input
            id="discount-code"
            name="discount-code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            {...codeForm.field('code')}
            {...(!codeForm.errors.code && refusal
              ? { 'aria-invalid': true, 'aria-describedby': 'discount-refusal' }
              : {})}
            className="w-full rounded-xl border border-line bg-background py-2.5 pr-3 pl-9 font-mono text-sm uppercase text-fg placeholder:font-sans placeholder:normal-case placeholder:text-muted/60 focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
            placeholder={t('discount.placeholder')}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={check.isFetching} aria-busy={check.isFetching}>
          {check.isFetching ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
          {t('discount.apply')}
        </Button>
      </div>
      {codeForm.errors.code ? (
        <p id={codeForm.errorId('code')} role="alert" className="mt-2 text-sm text-red-400">
          {codeForm.errors.code}
        </p>
      ) : refusal && applied ? (
        <p id="discount-refusal" role="alert" className="mt-2 text-sm text-red-400">
          {refusal}
        </p>
      ) : null}
    </form>
  )
}
