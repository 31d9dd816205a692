import { Loader2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '../../../components/ui/button'
import { useConfirmTransaction } from '../api/payment-mutations'

const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/

/** The fallback: the buyer names their transaction and the server checks it on chain itself. */
export function TxHashForm({ orderId, onConfirmed }: { orderId: string; onConfirmed: () => void }) {
  const [hash, setHash] = useState('')
  const confirm = useConfirmTransaction(orderId)
  const busy = confirm.isPending
  const [error, setError] = useState<string | null>(null)

  function submit(event: FormEvent) {
    event.preventDefault()
    const value = hash.trim()
    if (!TX_HASH.test(value)) {
      setError('A transaction hash is 64 hexadecimal characters.')
      return
    }
    setError(null)
    confirm.mutate(value, {
      onSuccess: (answer) => (answer.success ? onConfirmed() : setError(answer.error)),
      onError: (err) => setError(err.message || 'Could not check the transaction. Please try again.'),
    })
  }

  return (
    <details className="group rounded-xl border border-line bg-white/[0.02] px-4 py-3">
      <summary className="cursor-pointer text-sm font-medium text-fg marker:text-muted">
        Already paid? Enter your transaction hash
      </summary>
      <form onSubmit={submit} noValidate className="mt-3 space-y-2">
        <label htmlFor="tx-hash" className="sr-only">
          Transaction hash
        </label>
        <div className="flex gap-2">
          <input
            id="tx-hash"
            value={hash}
            onChange={(e) => setHash(e.target.value)}
            placeholder="Transaction hash (64 characters)"
            maxLength={66}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            className="min-w-0 flex-1 rounded-xl border border-line bg-background px-3 py-2 font-mono text-sm text-fg placeholder:font-sans placeholder:text-muted/60 focus:border-primary focus:outline-none"
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-label="Checking" /> : 'Verify'}
          </Button>
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-400">
            {error}
          </p>
        )}
      </form>
    </details>
  )
}
