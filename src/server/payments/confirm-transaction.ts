import type { ChainAdapter } from '../chains/chain'
import { readFollowerStatus } from '../chains/chain-follower'
import type { Db } from '../db/client'
import type { OrderRow } from '../orders/orders.repo'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { creditedElsewhere, heldInTransaction, paysOrder } from './ledger'
import type { PaymentRules } from './payment-rules'
import { recordAndSettle } from './settle-order'

// The buyer's "Already paid? Enter your transaction hash", on the chain the buyer paid on: the
// server finds the transaction's final block (through the chain's family) and reads it exactly as
// the chain follower would: every transfer the block holds
// for our addresses, in block order, through the same ledger, then settles through the same path.
// It does so only when the follower has read every earlier block, so the ledger it leaves is the
// one the follower alone would have written: a transfer to the order in an earlier block, or earlier
// in the same block, is never left out of the payment because the buyer clicked first. Otherwise it
// answers that the payment is being confirmed, and the follower settles. When the follower reaches
// the block later it finds the transfers already recorded.

export type ConfirmRefusal =
  | 'notFound'
  | 'notConfirmed'
  | 'failed'
  | 'notForOrder'
  | 'alreadyUsed'
  | 'explorerDown'
  | 'confirming'

export type ConfirmResult =
  | { kind: 'refused'; reason: ConfirmRefusal }
  | {
      kind: 'recorded'
      /** A transfer of this transaction is credited to the order (now or before). */
      creditedHere: boolean
      /** A transfer reached the order's address but does not count for it (after it ended, …). */
      reachedOrder: boolean
      /** A transfer of it to the order waits for the operator's review. */
      held: boolean
      paid: string[]
    }

export async function confirmTransfersOfTransaction(
  db: Db,
  chain: Pick<ChainAdapter, 'chain' | 'family' | 'lookupTransaction'>,
  hash: string,
  order: OrderRow,
  rules: PaymentRules,
  /** The buyer is waiting: explorer requests give up when it aborts (answered as explorerDown). */
  signal?: AbortSignal,
): Promise<ConfirmResult> {
  // A transaction that paid another order and nothing of this one's: no need to ask the chain.
  const usedElsewhere = await creditedElsewhere(db, hash, order.id, chain.chain)
  if (usedElsewhere && !(await paysOrder(db, hash, order.id, chain.chain)))
    return { kind: 'refused', reason: 'alreadyUsed' }
  const watch = new Set(await allPoolAddresses(db, chain.family))
  const view = await chain.lookupTransaction(hash, { watch, signal })
  if (view.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
  if (view.state === 'unknown') return { kind: 'refused', reason: 'notFound' }
  if (view.state === 'pending' || view.blockNumber === null)
    return { kind: 'refused', reason: 'notConfirmed' }
  const transfers = view.blockTransfers
  if (!transfers.some((t) => t.txId === hash && t.to === order.walletAddress)) {
    return { kind: 'refused', reason: view.success === false ? 'failed' : 'notForOrder' }
  }
  const blockNumber = view.blockNumber
  return db.transaction(async (trx): Promise<ConfirmResult> => {
    // Blocks up to the checkpoint are committed with everything they hold; a checkpoint that moves
    // meanwhile only means some of these transfers come back as already recorded.
    const { checkpointBlock } = await readFollowerStatus(trx, chain.chain)
    if (checkpointBlock === null || checkpointBlock < blockNumber - 1) {
      return { kind: 'refused', reason: 'confirming' }
    }
    const { outcomes, paid } = await recordAndSettle(trx, transfers, rules)
    const creditedHere = outcomes.some((outcome, n) => {
      const credited = outcome.kind === 'credited' || (outcome.kind === 'known' && outcome.credited)
      return credited && outcome.orderId === order.id && transfers[n]?.txId === hash
    })
    const held = await heldInTransaction(trx, hash, order.id, chain.chain)
    return { kind: 'recorded', creditedHere, reachedOrder: true, held, paid }
  })
}
