import type { Db } from '../db/client'
import type { OrderRow } from '../orders/orders.repo'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { extractTransfers, needsReceipts } from './extract-transfers'
import { creditedElsewhere, paysOrder, recordTransfer } from './ledger'
import type { PaymentRules } from './payment-rules'
import { settleOrder } from './settle-order'
import type { TronClient } from './tron-client'

// The buyer's "Already paid? Enter your transaction hash": the server finds the transaction's
// solidified block and reads it exactly as the chain follower would, records what it holds for our
// addresses through the same ledger, and settles through the same path. When the follower reaches
// that block later it finds the transfers already recorded.

export type ConfirmRefusal =
  | 'notFound'
  | 'notConfirmed'
  | 'failed'
  | 'notForOrder'
  | 'alreadyUsed'
  | 'explorerDown'

export type ConfirmResult =
  | { kind: 'refused'; reason: ConfirmRefusal }
  | {
      kind: 'recorded'
      /** A transfer of this transaction is credited to the order (now or before). */
      creditedHere: boolean
      /** A transfer reached the order's address but does not count for it (after it ended, …). */
      reachedOrder: boolean
      paid: string[]
    }

export async function confirmTransfersOfTransaction(
  db: Db,
  client: TronClient,
  hash: string,
  order: OrderRow,
  rules: PaymentRules,
): Promise<ConfirmResult> {
  // A transaction that paid another order and nothing of this one's: no need to ask the chain.
  const usedElsewhere = await creditedElsewhere(db, hash, order.id)
  if (usedElsewhere && !(await paysOrder(db, hash, order.id)))
    return { kind: 'refused', reason: 'alreadyUsed' }
  const info = await client.getTransactionInfo(hash, { solidified: true })
  if (info.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
  if (!info.found || info.blockNumber === null) {
    const head = await client.getTransactionInfo(hash, { solidified: false })
    if (head.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
    return { kind: 'refused', reason: head.found ? 'notConfirmed' : 'notFound' }
  }
  const blocks = await client.getSolidBlocks(info.blockNumber, info.blockNumber + 1, { urgent: true })
  if (blocks.status === 'error') return { kind: 'refused', reason: 'explorerDown' }
  const block = blocks.blocks[0]
  const tx = block?.transactions.find((t) => t.txId === hash)
  if (!block || !tx) return { kind: 'refused', reason: 'notConfirmed' }
  let infos = null
  if (needsReceipts(block)) {
    const res = await client.getSolidTransactionInfos(block.number, { urgent: true })
    if (res.status === 'error' || !res.infos.some((i) => i.txId === hash)) {
      return { kind: 'refused', reason: 'explorerDown' }
    }
    infos = res.infos
  }
  const ours = new Set(await allPoolAddresses(db))
  const transfers = extractTransfers(block, infos, ours, client.usdtContract, hash)
  const toOrder = transfers.filter((t) => t.to === order.walletAddress)
  if (toOrder.length === 0) {
    const reverted = tx.contractRet !== null && tx.contractRet !== 'SUCCESS'
    const receipt = infos?.find((i) => i.txId === hash)
    return { kind: 'refused', reason: reverted || receipt?.success === false ? 'failed' : 'notForOrder' }
  }
  return db.transaction(async (trx) => {
    let creditedHere = false
    const touched = new Set<string>()
    for (const t of transfers) {
      const outcome = await recordTransfer(trx, t)
      const orderId = outcome.orderId
      const credited = outcome.kind === 'credited' || (outcome.kind === 'known' && outcome.credited)
      if (credited && orderId === order.id) creditedHere = true
      if (outcome.kind === 'credited') touched.add(outcome.orderId)
    }
    const paid: string[] = []
    for (const orderId of touched) {
      const settled = await settleOrder(trx, orderId, rules)
      if (settled.kind === 'paid') paid.push(orderId)
    }
    return { kind: 'recorded', creditedHere, reachedOrder: true, paid }
  })
}
