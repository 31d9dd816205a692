import type { ChainResult } from '../chain'
import type { ProviderPool } from './tron-pool'

// The safety net's read on TRON (decision 045): what the provider's account index says an address
// received — USDT Transfer events of the configured contract (whoever made USDT emit them), plain
// TRX transfers, and TRX moved by contract code — as transaction ids. Three list requests an address
// (more only past 200 items of one kind); the transfers themselves are then read from their blocks.

type Lists = Pick<ProviderPool, 'listTrc20Incoming' | 'listTrxIncoming' | 'listInternalIncoming'>

export async function listTronReceived(
  pool: Lists,
  address: string,
  range: { fromMs: number; toMs: number },
): Promise<ChainResult<{ txIds: string[] }>> {
  const opts = { minTimestamp: range.fromMs, maxTimestamp: range.toMs }
  const ids = new Set<string>()
  for (const list of [
    () => pool.listTrc20Incoming(address, opts),
    () => pool.listTrxIncoming(address, opts),
    () => pool.listInternalIncoming(address, opts),
  ]) {
    const res = await list()
    if (res.status === 'error') return res
    if (!res.complete) {
      return {
        status: 'error',
        kind: 'malformed',
        message: `more history for ${address} than one look pages through`,
      }
    }
    for (const t of res.transfers) if (t.to === address) ids.add(t.transactionId)
  }
  return { status: 'success', txIds: [...ids] }
}
