import type { Db } from '../db/client'
import type { WorkerLogger } from '../lib/logger'
import { createPollLoop, type PollLoop } from '../lib/poll-loop'
import type { RefundChains } from './refund-proof'
import { watchRefundsOnce } from './refund-verify'

// The background look for refunds' payments: every pollMs, each ready refund's address is asked for
// a final transfer of its token (refund-verify.ts). Several processes may run it: a refund is marked
// sent once (its state is checked in the transaction) and a transaction proves one refund (unique).

export function createRefundWatcher(opts: {
  db: Db
  chains: RefundChains
  pollMs: number
  /** Refunds were marked sent (their e-mails are in the outbox). */
  onSent: () => void
  logger: WorkerLogger
}): PollLoop {
  return createPollLoop({
    pollMs: opts.pollMs,
    name: 'refund watch',
    logger: opts.logger,
    pass: async () => {
      const sent = await watchRefundsOnce(opts.db, opts.chains)
      if (sent.length > 0) {
        opts.logger.info({ refunds: sent.map((r) => r.id) }, 'refunds proven on the chain')
        opts.onSent()
      }
    },
  })
}
