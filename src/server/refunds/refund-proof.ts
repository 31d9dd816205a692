import { tronAddressFromAbiWord } from '../../shared/tron-address'
import { extractTransfers, needsReceipts } from '../payments/tron/extract-transfers'
import type { TronClient } from '../payments/tron/tron-client'

// Every chain read the refunds module makes, in one place: (a) what one transaction moved, with its
// success and finality, and (b) what one address received since a time. Both go through the TRON
// client (the provider pool in the app), so they share its providers and its request budget.

export type ProofToken = 'USDT' | 'TRX'

export interface MovedTransfer {
  token: ProofToken
  from: string
  to: string
  value: bigint
}

export type TransactionProof =
  | { kind: 'error' }
  | { kind: 'not_found' }
  /** Known at the head, not in a solidified block yet. */
  | { kind: 'not_final' }
  | {
      kind: 'final'
      /** False when the transaction failed on chain (reverted, out of energy): it moved nothing. */
      success: boolean
      /** The chain's result when it failed (REVERT, OUT_OF_ENERGY, …). */
      result: string | null
      blockTimestamp: number
      /** USDT (the configured contract) and TRX it moved, to anyone. */
      transfers: MovedTransfer[]
      /** It emitted a Transfer of another token contract (a counterfeit, or another token). */
      otherTokens: boolean
    }

/** Answers `has` true for any address: the refund check wants every transfer of the transaction. */
const everyone: ReadonlySet<string> = new (class extends Set<string> {
  override has(): boolean {
    return true
  }
})()

const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** (a) What one transaction moved, once it is in a solidified block. */
export async function readTransaction(
  client: TronClient,
  hash: string,
  signal?: AbortSignal,
): Promise<TransactionProof> {
  const info = await client.getTransactionInfo(hash, { solidified: true, signal })
  if (info.status === 'error') return { kind: 'error' }
  if (!info.found || info.blockNumber === null) {
    const head = await client.getTransactionInfo(hash, { solidified: false, signal })
    if (head.status === 'error') return { kind: 'error' }
    return head.found ? { kind: 'not_final' } : { kind: 'not_found' }
  }
  const blocks = await client.getSolidBlocks(info.blockNumber, info.blockNumber + 1, { urgent: true, signal })
  if (blocks.status === 'error') return { kind: 'error' }
  const block = blocks.blocks[0]
  const tx = block?.transactions.find((t) => t.txId === hash)
  if (!block || !tx) return { kind: 'not_final' }
  let infos = null
  if (needsReceipts(block)) {
    const res = await client.getSolidTransactionInfos(block.number, { urgent: true, signal })
    if (res.status === 'error' || res.infos.length !== block.transactions.length) return { kind: 'error' }
    infos = res.infos
  }
  const receipt = infos?.find((i) => i.txId === hash)
  const reverted = tx.contractRet !== null && tx.contractRet !== 'SUCCESS'
  const success = !reverted && receipt?.success !== false
  const moved = extractTransfers(block, infos, everyone, client.usdtContract, hash)
  const otherTokens = (receipt?.logs ?? []).some(
    (log) =>
      log.address !== client.usdtContract &&
      log.topics.length === 3 &&
      log.topics[0] === TRANSFER_TOPIC &&
      tronAddressFromAbiWord(log.topics[2] ?? '') !== null,
  )
  return {
    kind: 'final',
    success,
    result: success ? null : (receipt?.result ?? tx.contractRet ?? 'FAILED'),
    blockTimestamp: block.timestamp,
    transfers: moved.flatMap((t) =>
      t.token === 'USDC' ? [] : [{ token: t.token, from: t.from, to: t.to, value: t.value }],
    ),
    otherTokens,
  }
}

export interface ReceivedTransfer {
  txId: string
  from: string
  value: bigint
  blockTimestamp: number
}

/**
 * (b) The final (solidified) transfers of a token to an address made at or after `sinceMs`, oldest
 * first; null when the chain cannot be read or the list is incomplete.
 */
export async function transfersTo(
  client: TronClient,
  address: string,
  token: ProofToken,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  const opts = { minTimestamp: sinceMs, onlyConfirmed: true }
  if (token === 'USDT') {
    const res = await client.listTrc20Incoming(address, opts)
    if (res.status === 'error' || !res.complete) return null
    return res.transfers
      .filter((t) => t.type === 'Transfer' && t.contract === client.usdtContract && t.to === address)
      .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
      .sort((a, b) => a.blockTimestamp - b.blockTimestamp)
  }
  const res = await client.listTrxIncoming(address, opts)
  if (res.status === 'error' || !res.complete) return null
  return res.transfers
    .filter((t) => t.to === address)
    .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
    .sort((a, b) => a.blockTimestamp - b.blockTimestamp)
}
