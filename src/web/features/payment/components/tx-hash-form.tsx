import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { type ChainId, familyOfChain, firstChain } from '../../../../shared/chains'
import { txIdForms } from '../../../../shared/networks'
import { confirmTransactionInputSchema } from '../../../../shared/order-status'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { useConfirmTransaction } from '../api/payment-mutations'

/** The hash rule of the confirm call itself. */
const txHashFormSchema = confirmTransactionInputSchema.pick({ p_transaction_hash: true })

/**
 * The fallback: the buyer names their transaction and the server checks it on chain itself. With
 * `nudge` (several minutes with nothing seen) it opens and says why: a payment routed through a
 * contract can take the shop minutes to find (decision 054), the hash records it at once. The
 * order's chain says what its family calls a transaction's id (a hash; Solana's: a signature).
 */
export function TxHashForm({
  orderId,
  chain = firstChain,
  onConfirmed,
  nudge = false,
}: {
  orderId: string
  /** The order's chain (the first chain when the order names none). */
  chain?: ChainId
  onConfirmed: () => void
  nudge?: boolean
}) {
  const t = useT()
  const { word, maxLength } = txIdForms[familyOfChain[chain]]
  const confirm = useConfirmTransaction(orderId)
  const busy = confirm.isPending
  // The server's answer about a well-formed hash (not confirmed yet, not to this order, ...).
  const [refusal, setRefusal] = useState<string | null>(null)
  const form = useSchemaForm({
    schema: txHashFormSchema,
    initial: { p_transaction_hash: '' },
    errors: { '*': t('txHash.invalid', { word }) },
    onValid: ({ p_transaction_hash }) => {
      setRefusal(null)
      confirm.mutate(p_transaction_hash, {
        onSuccess: (answer) => (answer.success ? onConfirmed() : setRefusal(answer.error)),
        onError: (err) => setRefusal(err.message || t('txHash.failed')),
      })
    },
  })
  const error = form.errors.p_transaction_hash ?? refusal

  return (
    <details
      open={nudge || undefined}
      className={`group rounded-xl border px-4 py-3 ${nudge ? 'border-primary/40 bg-primary/[0.04]' : 'border-line bg-white/[0.02]'}`}
    >
      <summary className="cursor-pointer text-sm font-medium text-fg marker:text-muted">
        {t('txHash.summary', { word })}
      </summary>
      {nudge && (
        <p data-testid="tx-hash-nudge" className="mt-2 text-sm text-muted">
          {t('txHash.nudge', { word })}
        </p>
      )}
      <form {...form.formProps} className="mt-3 space-y-2">
        <label htmlFor="tx-hash" className="sr-only">
          {t('txHash.label', { word })}
        </label>
        <div className="flex gap-2">
          <input
            id="tx-hash"
            {...form.field('p_transaction_hash')}
            placeholder={t('txHash.placeholder', { word })}
            maxLength={maxLength}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={form.control('p_transaction_hash')['aria-invalid']}
            aria-describedby={error ? form.errorId('p_transaction_hash') : undefined}
            className="min-w-0 flex-1 rounded-xl border border-line bg-background px-3 py-2 font-mono text-sm text-fg placeholder:font-sans placeholder:text-muted/60 focus:border-primary focus:outline-none"
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? (
              <Loader2 className="size-4 animate-spin" aria-label={t('txHash.checking')} />
            ) : (
              t('txHash.verify')
            )}
          </Button>
        </div>
        {error && (
          <p id={form.errorId('p_transaction_hash')} role="alert" className="text-sm text-red-400">
            {error}
          </p>
        )}
      </form>
    </details>
  )
}
