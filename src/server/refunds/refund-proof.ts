import { and, eq, isNull } from 'drizzle-orm'
import type { ChainAdapter, ChainId, ReceivedTransfer, TokenSymbol } from '../chains/chain'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import { refunds } from '../db/schema'
import type { RefundRow } from './refunds.repo'

// Every chain read the refunds module makes, in one place, through the chain interface (decision
// 037) of the refund's chain: (a) what one transaction moved, with its success and finality
// (lookupTransaction), (b) what one address received since a time (transfersTo) and (c) the chain's
// own time when a refund became ready (headTime, decision 060). All go through that chain's
// provider pool and share its request budget.

export type { ReceivedTransfer }

/** The enabled chains, looked up by the chain stored on the refund. */
export type RefundChains = Pick<ChainRegistry, 'get'>

export interface MovedTransfer {
  token: TokenSymbol
  from: string
  to: string
  value: bigint
}

export type TransactionProof =
  | { kind: 'error' }
  | { kind: 'not_found' }
  /** Known at the head, not in a final block yet. */
  | { kind: 'not_final' }
  | {
      kind: 'final'
      /** False when the transaction failed on chain (reverted, out of energy): it moved nothing. */
      success: boolean
      /** The chain's result when it failed (REVERT, OUT_OF_ENERGY, …). */
      result: string | null
      blockTimestamp: number
      /** The chain's accepted tokens it moved, to anyone. */
      transfers: MovedTransfer[]
    }

/** The adapter of an enabled chain; null when the shop no longer follows it (nothing can be proven). */
export function chainOf(chains: RefundChains, chain: ChainId): ChainAdapter | null {
  return chains.get(chain) ?? null
}

const nobody: ReadonlySet<string> = new Set()

/** (a) What one transaction moved, once it is in a final block. */
export async function readTransaction(
  adapter: ChainAdapter,
  hash: string,
  signal?: AbortSignal,
): Promise<TransactionProof> {
  const res = await adapter.lookupTransaction(hash, { watch: nobody, signal })
  if (res.status === 'error') return { kind: 'error' }
  if (res.state === 'unknown') return { kind: 'not_found' }
  if (res.state === 'pending' || res.blockTimestamp === null) return { kind: 'not_final' }
  const success = res.success === true
  return {
    kind: 'final',
    success,
    result: success ? null : (res.failure ?? 'FAILED'),
    blockTimestamp: res.blockTimestamp,
    transfers: res.transfers.map((t) => ({ token: t.token, from: t.from, to: t.to, value: t.value })),
  }
}

/**
 * (c) The chain's own time at a refund's ready: its head block's time, read once and kept on the
 * refund (the first read wins when two processes read it). Read right when the refund becomes ready;
 * when no provider answered then, at the watch's next look (the first block after ready: a transfer
 * made in between is proven by its hash only after that look has set the time). Null when the chain
 * cannot be read now.
 */
export async function readyChainTime(
  db: Db,
  chains: RefundChains,
  refund: Pick<RefundRow, 'id' | 'chain' | 'status' | 'readyChainAt'>,
): Promise<number | null> {
  if (refund.readyChainAt) return refund.readyChainAt.getTime()
  if (refund.status !== 'ready') return null
  const adapter = chainOf(chains, refund.chain)
  const head = adapter ? await adapter.headTime() : null
  if (head === null) return null
  await db
    .update(refunds)
    .set({ readyChainAt: new Date(head) })
    .where(and(eq(refunds.id, refund.id), isNull(refunds.readyChainAt)))
  const [kept] = await db.select({ at: refunds.readyChainAt }).from(refunds).where(eq(refunds.id, refund.id))
  return kept?.at?.getTime() ?? null
}

/**
 * (b) The final transfers of a token to an address made at or after `sinceMs`, oldest first; null
 * when the chain cannot be read or the list is incomplete.
 */
export function transfersTo(
  adapter: ChainAdapter,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  return adapter.transfersTo(address, token, sinceMs)
}
