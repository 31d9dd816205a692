import type { ReceivedTransfer, TokenSymbol } from '../chain'
import type { ProviderPool } from './tron-pool'

// What one TRON address received since a time, final only: the explorer's account lists (TRC20 by
// the configured USDT contract, TRX transfers), read through the provider pool and its budget.

export type ReceivedClient = Pick<ProviderPool, 'usdtContract' | 'listTrc20Incoming' | 'listTrxIncoming'>

export async function tronTransfersTo(
  client: ReceivedClient,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  const opts = { minTimestamp: sinceMs, onlyConfirmed: true }
  const oldestFirst = (a: ReceivedTransfer, b: ReceivedTransfer) => a.blockTimestamp - b.blockTimestamp
  if (token === 'USDT') {
    const res = await client.listTrc20Incoming(address, opts)
    if (res.status === 'error' || !res.complete) return null
    return res.transfers
      .filter((t) => t.type === 'Transfer' && t.contract === client.usdtContract && t.to === address)
      .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
      .sort(oldestFirst)
  }
  if (token !== 'TRX') return []
  const res = await client.listTrxIncoming(address, opts)
  if (res.status === 'error' || !res.complete) return null
  return res.transfers
    .filter((t) => t.to === address)
    .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
    .sort(oldestFirst)
}
