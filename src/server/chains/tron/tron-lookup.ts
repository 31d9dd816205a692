import type { ChainError, ChainResult, TransactionLookupOptions, TransactionView } from '../chain'
import { extractTransfers, needsReceipts } from './extract-transfers'
import type { ChainTxInfo } from './tron-client'
import type { ProviderPool } from './tron-pool'

// One TRON transaction as the chain has it (the buyer's hash, refunds): found in a solidified
// block, in the head only, or not at all; whether it succeeded; what it moved; and every transfer
// to our addresses in its block, read exactly as the follower reads the block.

export type LookupClient = Pick<
  ProviderPool,
  'usdtContract' | 'getTransactionInfo' | 'getSolidBlocks' | 'getSolidTransactionInfos'
>

const anyone = { has: () => true }
const unusable = (message: string): ChainError => ({ status: 'error', kind: 'malformed', message })

export async function lookupTronTransaction(
  client: LookupClient,
  hash: string,
  opts: TransactionLookupOptions,
): Promise<ChainResult<TransactionView>> {
  const { signal } = opts
  const none = { blockNumber: null, blockTimestamp: null, success: null, failure: null }
  const info = await client.getTransactionInfo(hash, { solidified: true, signal })
  if (info.status === 'error') return info
  if (!info.found || info.blockNumber === null) {
    const head = await client.getTransactionInfo(hash, { solidified: false, signal })
    if (head.status === 'error') return head
    const state = head.found ? 'pending' : 'unknown'
    return { status: 'success', state, ...none, transfers: [], blockTransfers: [] }
  }
  const blocks = await client.getSolidBlocks(info.blockNumber, info.blockNumber + 1, { urgent: true, signal })
  if (blocks.status === 'error') return blocks
  const block = blocks.blocks[0]
  const tx = block?.transactions.find((t) => t.txId === hash)
  if (!block || !tx) {
    return { status: 'success', state: 'pending', ...none, transfers: [], blockTransfers: [] }
  }
  let infos: ChainTxInfo[] | null = null
  if (needsReceipts(block)) {
    const res = await client.getSolidTransactionInfos(block.number, { urgent: true, signal })
    if (res.status === 'error') return res
    // The follower's check: a lagging node's receipts must not be half a block.
    const ids = block.transactions.map((t) => t.txId)
    if (res.infos.length !== ids.length || !res.infos.every((i, n) => i.txId === ids[n])) {
      return unusable(`receipts of block ${block.number} do not match its transactions`)
    }
    infos = res.infos
  }
  const reverted = tx.contractRet !== null && tx.contractRet !== 'SUCCESS'
  const receipt = infos?.find((i) => i.txId === hash)
  const success = !reverted && receipt?.success !== false
  return {
    status: 'success',
    state: 'final',
    blockNumber: block.number,
    blockTimestamp: block.timestamp,
    success,
    failure: success ? null : reverted ? tx.contractRet : (receipt?.result ?? 'FAILED'),
    transfers: extractTransfers(block, infos, anyone, client.usdtContract, hash),
    blockTransfers: extractTransfers(block, infos, opts.watch, client.usdtContract),
  }
}
