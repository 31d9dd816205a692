import { Pencil, Plus, X } from 'lucide-react'
import { saveDiscountInputSchema } from '../../../../shared/discounts'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { type SchemaForm, useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Field, Panel, TextInput } from '../components/fields'
import { useAdminProducts } from '../products/api/products'
import { useSaveDiscount } from './api/discounts'
import { blank, type DiscountForm, fieldNames, toInput } from './discount-values'

/** The add/edit form's state; a saved code clears it and calls `onSaved`. */
export function useDiscountForm(onSaved: () => void) {
  const t = useT()
  const save = useSaveDiscount()
  const form = useSchemaForm({
    schema: saveDiscountInputSchema,
    initial: blank,
    toInput,
    fieldOf: (path) => fieldNames[String(path[0])] ?? String(path[0]),
    errors: { '*': { invalid_type: t('admin.discounts.enterNumber') } },
    labels: {
      code: t('admin.discounts.code'),
      percent: t('admin.discounts.percentOff'),
      amount: t('admin.discounts.amountOff'),
      minTotal: t('admin.discounts.minTotal'),
      maxDiscount: t('admin.discounts.maxDiscount'),
      startsAt: t('admin.discounts.start'),
      endsAt: t('admin.discounts.end'),
      maxUses: t('admin.discounts.totalUses'),
      maxUsesPerEmail: t('admin.discounts.usesPerEmail'),
    },
    onValid: (input) => {
      if (save.isPending) return
      save.mutate(input, {
        onSuccess: () => {
          toast.success(
            input.p_id
              ? t('admin.discounts.saved', { code: input.p_code })
              : t('admin.discounts.added', { code: input.p_code }),
            { duration: 2000 },
          )
          form.reset(blank)
          onSaved()
        },
      })
    },
  })
  return { form, saving: save.isPending }
}

/** Adding a code, or editing the one named by `editing`. */
export function DiscountFormPanel({
  form,
  saving,
  editing,
  onCancel,
}: {
  form: SchemaForm<DiscountForm>
  saving: boolean
  editing: string | null
  onCancel: () => void
}) {
  const t = useT()
  return (
    <Panel
      title={editing ? t('admin.discounts.edit', { code: editing }) : t('admin.discounts.addTitle')}
      actions={
        editing && (
          <Button variant="ghost" onClick={onCancel}>
            <X className="size-4" aria-hidden /> {t('admin.discounts.cancelEditing')}
          </Button>
        )
      }
    >
      <form {...form.formProps} className="grid max-w-3xl gap-4 sm:grid-cols-2">
        <Field
          label={t('admin.discounts.code')}
          hint={t('admin.discounts.codeHint')}
          error={form.errors.code}
        >
          <TextInput
            maxLength={40}
            autoComplete="off"
            className="font-mono uppercase"
            {...form.field('code')}
          />
        </Field>
        <AmountFields form={form} />
        <LimitFields form={form} />
        <AppliesTo form={form} />
        <label className="flex items-center gap-2 text-sm text-fg sm:col-span-2">
          <input type="checkbox" {...form.checkbox('disabled')} />
          {t('admin.discounts.disabledBox')}
        </label>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving}>
            {editing ? <Pencil className="size-4" aria-hidden /> : <Plus className="size-4" aria-hidden />}
            {editing ? t('admin.discounts.save') : t('admin.discounts.add')}
          </Button>
        </div>
      </form>
    </Panel>
  )
}

/** Percentage or fixed amount, and the value of the one chosen. */
function AmountFields({ form }: { form: SchemaForm<DiscountForm> }) {
  const t = useT()
  const { values, errors } = form
  return (
    <>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 text-sm font-medium text-fg">{t('admin.discounts.type')}</legend>
        <div className="flex gap-4 pt-2">
          {(['percent', 'fixed'] as const).map((kind) => (
            <label key={kind} className="flex items-center gap-2 text-sm text-fg">
              <input
                type="radio"
                name="discount-kind"
                checked={values.kind === kind}
                onChange={() => form.set('kind', kind)}
              />
              {kind === 'percent' ? t('admin.discounts.percentage') : t('admin.discounts.fixed')}
            </label>
          ))}
        </div>
      </fieldset>
      {values.kind === 'percent' ? (
        <Field
          label={t('admin.discounts.percentOff')}
          hint={t('admin.discounts.percentHint')}
          error={errors.percent}
        >
          <TextInput inputMode="decimal" {...form.field('percent')} />
        </Field>
      ) : (
        <Field
          label={t('admin.discounts.amountOffUsd')}
          hint={t('admin.discounts.amountHint')}
          error={errors.amount}
        >
          <TextInput inputMode="decimal" {...form.field('amount')} />
        </Field>
      )}
    </>
  )
}

/** The cap, the minimum order, the uses and the period. */
function LimitFields({ form }: { form: SchemaForm<DiscountForm> }) {
  const t = useT()
  const { errors } = form
  return (
    <>
      <Field
        label={t('admin.discounts.maxDiscountUsd')}
        hint={t('admin.discounts.capHint')}
        error={errors.maxDiscount}
      >
        <TextInput inputMode="decimal" {...form.field('maxDiscount')} />
      </Field>
      <Field
        label={t('admin.discounts.minTotalUsd')}
        hint={t('admin.discounts.optional')}
        error={errors.minTotal}
      >
        <TextInput inputMode="decimal" {...form.field('minTotal')} />
      </Field>
      <Field
        label={t('admin.discounts.totalUses')}
        hint={t('admin.discounts.unlimitedHint')}
        error={errors.maxUses}
      >
        <TextInput inputMode="numeric" {...form.field('maxUses')} />
      </Field>
      <Field
        label={t('admin.discounts.usesPerEmail')}
        hint={t('admin.discounts.optional')}
        error={errors.maxUsesPerEmail}
      >
        <TextInput inputMode="numeric" {...form.field('maxUsesPerEmail')} />
      </Field>
      <Field label={t('admin.discounts.start')} hint={t('admin.discounts.startHint')} error={errors.startsAt}>
        <TextInput type="datetime-local" {...form.field('startsAt')} />
      </Field>
      <Field label={t('admin.discounts.end')} hint={t('admin.discounts.optional')} error={errors.endsAt}>
        <TextInput type="datetime-local" {...form.field('endsAt')} />
      </Field>
    </>
  )
}

/** The paid products a code is limited to (none ticked: every product). */
function AppliesTo({ form }: { form: SchemaForm<DiscountForm> }) {
  const t = useT()
  const products = useAdminProducts()
  const paidProducts = (products.data?.products ?? []).filter((p) => !p.is_free && p.price > 0)
  const { productIds } = form.values
  return (
    <fieldset className="sm:col-span-2">
      <legend className="mb-1.5 text-sm font-medium text-fg">{t('admin.discounts.appliesTo')}</legend>
      <p className="mb-2 text-xs text-muted">{t('admin.discounts.appliesToHint')}</p>
      <div className="grid max-h-48 gap-2 overflow-y-auto rounded-xl border border-line p-3 sm:grid-cols-2">
        {paidProducts.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm text-fg">
            <input
              type="checkbox"
              checked={productIds.includes(p.id)}
              onChange={(e) =>
                form.set(
                  'productIds',
                  e.target.checked ? [...productIds, p.id] : productIds.filter((id) => id !== p.id),
                )
              }
            />
            <span className="truncate">{p.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
