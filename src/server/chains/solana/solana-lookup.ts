import type { ChainResult, TransactionLookupOptions, TransactionView } from '../chain'
import { normalizeSolanaSignature } from './solana-address'
import { blockTimeMs, type Counter, getTransaction, raiseFinal, type SolanaContext } from './solana-context'
import { readTransfers } from './solana-transfers'

// One transaction for the buyer's "I paid — signature" and for refunds: asked at `finalized`, then
// at `confirmed` (pending); a failed one (meta.err) is answered with the chain's error in words,
// which the buyer's page explains. Once final, its accepted-token transfers to our addresses are
// what the follower records of it (blockTransfers: Solana's follower reads transactions, not
// blocks, so the slot's other transactions are the follower's to record).

const UNKNOWN: TransactionView = {
  state: 'unknown',
  blockNumber: null,
  blockTimestamp: null,
  success: null,
  failure: null,
  transfers: [],
  blockTransfers: [],
}

export async function solanaLookupTransaction(
  ctx: SolanaContext,
  signature: string,
  opts: TransactionLookupOptions,
): Promise<ChainResult<TransactionView>> {
  // Not a signature (a hash of another chain, a mistyped or lower-cased one): no such transaction.
  if (normalizeSolanaSignature(signature) !== signature) return { status: 'success', ...UNKNOWN }
  const n: Counter = { requests: 0 }
  const lane = { signal: opts.signal }
  // A cached copy may have been read at `confirmed`: finality is asked of the node each time.
  ctx.txCache.delete(signature)
  const final = await getTransaction(ctx, signature, 'finalized', n, lane)
  if (final.status === 'error') return final
  let tx = final.tx
  const isFinal = tx !== null
  if (!tx) {
    const confirmed = await getTransaction(ctx, signature, 'confirmed', n, lane)
    if (confirmed.status === 'error') return confirmed
    tx = confirmed.tx
    ctx.txCache.delete(signature)
  }
  if (!tx) return { status: 'success', ...UNKNOWN }
  const { transfers, failure } = readTransfers(tx, ctx.tokens, 'solana')
  const time = blockTimeMs(tx.blockTime)
  if (isFinal) raiseFinal(ctx, tx.slot, time)
  const common = { blockNumber: tx.slot, blockTimestamp: time, success: failure === null, failure }
  if (!isFinal) return { status: 'success', state: 'pending', ...common, transfers: [], blockTransfers: [] }
  const moved = failure === null ? transfers : []
  return {
    status: 'success',
    state: 'final',
    ...common,
    transfers: moved,
    blockTransfers: moved.filter((t) => opts.watch.has(t.to)),
  }
}
