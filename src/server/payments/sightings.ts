import { and, desc, eq, inArray } from 'drizzle-orm'
import { microsToDollars } from '../../shared/money'
import type { OrderSightings } from '../../shared/order-status'
import { receivedUsdMicros } from '../../shared/trx'
import { stableUnitsToMicros } from '../chains/chain'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { followerState, paymentSightings } from '../db/schema'
import type { OrderRow } from '../orders/orders.repo'
import { acceptedShortfallMicros, type PaymentRules } from './payment-rules'

// What the buyer's payment page and the admin read about an order's sightings (decision 024): the
// amount seen in the head and not yet solidified, how far its block is from being solidified (from
// the block heights: the head the watcher last read and the follower's checkpoint), whether the last
// sighting was dropped, and the transfers that failed on chain.

export type SightingRow = typeof paymentSightings.$inferSelect

export async function sightingsOfOrder(db: Db, orderId: string): Promise<SightingRow[]> {
  return db
    .select()
    .from(paymentSightings)
    .where(eq(paymentSightings.orderId, orderId))
    .orderBy(desc(paymentSightings.id))
    .limit(50)
}

/** A sighting's amount in its token (USDT, USDC: dollars; TRX: TRX), at the token's decimals on its chain. */
export function tokenAmount(row: Pick<SightingRow, 'chain' | 'token' | 'amountUnits'>): number {
  if (row.token === 'TRX') return Number(row.amountUnits) / 1e6
  return microsToDollars(stableUnitsToMicros(row.amountUnits, decimalsOf(row.chain, row.token)))
}

/** Stablecoins in micro-dollars and TRX in sun, summed over sightings of any chain. */
function sums(rows: readonly Pick<SightingRow, 'chain' | 'token' | 'amountUnits'>[]) {
  let stable = 0n
  let sun = 0n
  for (const r of rows) {
    if (r.token === 'TRX') sun += r.amountUnits
    else stable += stableUnitsToMicros(r.amountUnits, decimalsOf(r.chain, r.token))
  }
  return { stable, sun }
}

export async function orderSightings(
  db: Db,
  order: OrderRow,
  rules: Pick<PaymentRules, 'toleranceMicros' | 'tolerancePercentBp'>,
  /** Block time in ms, or the block time of a chain (the seconds left are those of the sighting's chain). */
  blockIntervalMs: number | ((chain: SightingRow['chain']) => number),
): Promise<OrderSightings> {
  const rows = await sightingsOfOrder(db, order.id)
  const failed = rows
    .filter((r) => r.status === 'failed')
    .map((r) => ({
      tx_id: r.txId,
      token: r.token,
      amount: tokenAmount(r),
      reason: r.failure ?? 'FAILED',
    }))
  const live = rows.filter((r) => r.status === 'seen')
  const pending = order.status === 'pending'
  if (!pending || live.length === 0) {
    const latest = rows.find((r) => r.status !== 'failed')
    return { confirming: null, dropped: pending && latest?.status === 'dropped', failed }
  }
  // Heights are those of the chain of the newest live sighting (an EVM order's may be on any of its family's).
  const chain = (live[0] as SightingRow).chain
  const onChain = live.filter((r) => r.chain === chain)
  const blockMs = typeof blockIntervalMs === 'number' ? blockIntervalMs : blockIntervalMs(chain)
  const [state] = await db
    .select({ checkpoint: followerState.checkpointBlock, head: followerState.headBlock })
    .from(followerState)
    .where(eq(followerState.chain, chain))
  const seen = sums(live)
  const seenMicros = receivedUsdMicros(seen.stable, seen.sun, order.nativeRateE8)
  const receivedMicros = receivedUsdMicros(
    order.amountReceivedUnits,
    order.nativeReceivedUnits,
    order.nativeRateE8,
  )
  const dueMicros = BigInt(order.totalCents) * 10_000n
  const shortfall = dueMicros - receivedMicros - seenMicros
  const missing = shortfall > acceptedShortfallMicros(dueMicros, rules) ? shortfall : 0n
  const block = Math.max(...onChain.map((r) => r.blockNumber))
  const solid = state && state.checkpoint >= 0 ? state.checkpoint : null
  const head = state?.head ?? null
  const blocksLeft = solid === null ? null : Math.max(0, block - solid)
  // Blocks built on it out of those the chain needs (head − solidified: 19 on TRON).
  const needed = head !== null && solid !== null ? Math.max(1, head - solid) : null
  const built = head !== null ? Math.max(0, head - block) : null
  return {
    confirming: {
      amount_seen: microsToDollars(seenMicros),
      missing: microsToDollars(missing),
      block,
      head_block: head,
      solid_block: solid,
      blocks_left: blocksLeft,
      seconds_left: blocksLeft === null ? null : Math.ceil((blocksLeft * blockMs) / 1000),
      progress:
        built !== null && needed !== null
          ? Math.min(1, built / Math.max(built + (blocksLeft ?? 0), needed))
          : 0,
    },
    dropped: false,
    failed,
  }
}

/** Dollars seen and not solidified yet, per pending order among `orderRows` (the admin's list). */
export async function confirmingAmounts(
  db: Db,
  orderRows: readonly Pick<OrderRow, 'id' | 'status' | 'nativeRateE8'>[],
): Promise<Map<string, number>> {
  const pending = orderRows.filter((o) => o.status === 'pending')
  const result = new Map<string, number>()
  if (pending.length === 0) return result
  const rows = await db
    .select({
      orderId: paymentSightings.orderId,
      chain: paymentSightings.chain,
      token: paymentSightings.token,
      amountUnits: paymentSightings.amountUnits,
    })
    .from(paymentSightings)
    .where(
      and(
        inArray(
          paymentSightings.orderId,
          pending.map((o) => o.id),
        ),
        eq(paymentSightings.status, 'seen'),
      ),
    )
  for (const o of pending) {
    const mine = rows.filter((r) => r.orderId === o.id)
    if (mine.length === 0) continue
    const seen = sums(mine)
    result.set(o.id, microsToDollars(receivedUsdMicros(seen.stable, seen.sun, o.nativeRateE8)))
  }
  return result
}
