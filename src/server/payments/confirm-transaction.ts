import type { Db } from '../db/client'
import type { OrderRow } from '../orders/orders.repo'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { readFollowerStatus } from './chain-follower'
import { extractTransfers, needsReceipts } from './extract-transfers'
import { creditedElsewhere, heldInTransaction, paysOrder } from './ledger'
import type { PaymentRules } from './payment-rules'
import { recordAndSettle } from './settle-order'
import type { TronClient } from './tron-client'

// The buyer's "Already paid? Enter your transaction hash": the server finds the transaction's
// solidified block and reads it exactly as the chain follower would: every transfer the block holds
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
  client: TronClient,
  hash: string,
  order: OrderRow,
  rules: PaymentRules,
  /** The buyer is waiting: explorer requests give up when it aborts (answered as explorerDown). */
  signal?: AbortSignal,
): Promise<ConfirmResult> {
  // A transaction that paid another order and nothing of this one's: no need to ask the chain.
  const usedElsewhere = await creditedElsewhere(db, hash, order.id)
  if (usedElsewhere && !(await paysOrder(db, hash, order.id)))
    return { kind: 'refused', reason: 'alreadyUsed' }
  const info = await client.getTransactionInfo(hash, { solidified: true, signal })
  if (info.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
  if (!info.found || info.blockNumber === null) {
    const head = await client.getTransactionInfo(hash, { solidified: false, signal })
    if (head.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
    return { kind: 'refused', reason: head.found ? 'notConfirmed' : 'notFound' }
  }
  const blocks = await client.getSolidBlocks(info.blockNumber, info.blockNumber + 1, {
    urgent: true,
    signal,
  })
  if (blocks.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
  const block = blocks.blocks[0]
  const tx = block?.transactions.find((t) => t.txId === hash)
  if (!block || !tx) return { kind: 'refused', reason: 'notConfirmed' }
  let infos = null
  if (needsReceipts(block)) {
    const res = await client.getSolidTransactionInfos(block.number, { urgent: true, signal })
    // The follower's check: a lagging node's receipts must not be half a block.
    const ids = block.transactions.map((t) => t.txId)
    if (
      res.status === 'error' ||
      res.infos.length !== ids.length ||
      !res.infos.every((i, n) => i.txId === ids[n])
    ) {
      return { kind: 'refused', reason: 'explorerDown' }
    }
    infos = res.infos
  }
  const ours = new Set(await allPoolAddresses(db))
  const transfers = extractTransfers(block, infos, ours, client.usdtContract)
  const ofHash = transfers.filter((t) => t.txId === hash)
  if (!ofHash.some((t) => t.to === order.walletAddress)) {
    const reverted = tx.contractRet !== null && tx.contractRet !== 'SUCCESS'
    const receipt = infos?.find((i) => i.txId === hash)
    return { kind: 'refused', reason: reverted || receipt?.success === false ? 'failed' : 'notForOrder' }
  }
  return db.transaction(async (trx): Promise<ConfirmResult> => {
    // Blocks up to the checkpoint are committed with everything they hold; a checkpoint that moves
    // meanwhile only means some of these transfers come back as already recorded.
    const { checkpointBlock } = await readFollowerStatus(trx)
    if (checkpointBlock === null || checkpointBlock < block.number - 1) {
      return { kind: 'refused', reason: 'confirming' }
    }
    const { outcomes, paid } = await recordAndSettle(trx, transfers, rules)
    const creditedHere = outcomes.some((outcome, n) => {
      const credited = outcome.kind === 'credited' || (outcome.kind === 'known' && outcome.credited)
      return credited && outcome.orderId === order.id && transfers[n]?.txId === hash
    })
    const held = await heldInTransaction(trx, hash, order.id)
    return { kind: 'recorded', creditedHere, reachedOrder: true, held, paid }
  })
}
