import { eq, sql } from 'drizzle-orm'
import type { ChainId } from '../../shared/chains'
import type { Db } from '../db/client'
import { followerState, orders, payments } from '../db/schema'
import { cachedValue } from '../lib/cached-value'
import { loadSettings } from '../settings/settings'
import { countAddressStates } from '../wallets/wallets.repo'
import { readFollowerStatus } from './chain-follower'
import type { ProviderHealth, ProviderPool } from './tron/tron-pool'

// The shop's health, in one interface the app runs (ShopHealth, built by createShopHealth): the
// address pool as leases and cool-downs leave it, unmatched transfers waiting in the ledger, how far
// the chain follower is behind, and the chain providers. The operator's alerts (notifier.ts) and the
// admin's sales view (sales.repo.ts) both read it.

export interface AddressPoolHealth {
  /** Free to lease now (wallets' countAddressStates: neither leased nor cooling down). */
  free: number
  leased: number
  cooling: number
  total: number
  /** Hours until none is free at the last week's pace of orders; null while no order came. */
  hoursToDry: number | null
}

export interface ShopHealth {
  addressPool(): Promise<AddressPoolHealth>
  /** Transfers to our addresses that no order was credited with, waiting for the operator. */
  unmatchedTransfers(): Promise<number>
  /** Seconds since the block time of the follower's checkpoint; null before it read a block (alerts). */
  followerLagSeconds(): Promise<number | null>
  /** The solidified blocks the follower has not read yet, as seconds; null when unknown (the sales view). */
  blocksBehindSeconds(): Promise<number | null>
  /** The chain providers' health, and since when every one has failed (epoch ms; null: one answers). */
  providers(): Promise<{ failingSince: number | null; list: ProviderHealth[] }>
}

/** Addresses free now, leased and cooling down, and hours until none is free at the last week's pace. */
async function addressPoolHealth(db: Db): Promise<AddressPoolHealth> {
  const states = await countAddressStates(db)
  const [week] = (
    (await db.execute(
      sql`select count(*)::int as n from ${orders} where created_at > now() - interval '7 days'`,
    )) as unknown as { rows: { n: number }[] }
  ).rows
  const perHour = (week?.n ?? 0) / (7 * 24)
  return {
    ...states,
    total: states.free + states.leased + states.cooling,
    hoursToDry: perHour > 0 ? states.free / perHour : null,
  }
}

async function unmatchedTransferCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.status, 'unmatched'))
  return row?.n ?? 0
}

/**
 * How far the follower is behind the chain: seconds between now and the block time of its
 * checkpoint (solidified blocks are about a minute old when read). Null before it has read a block.
 */
export async function followerLagSeconds(db: Db, chain: ChainId = 'tron'): Promise<number | null> {
  const [row] = await db
    .select({ time: followerState.checkpointTime })
    .from(followerState)
    .where(eq(followerState.chain, chain))
  if (!row || row.time <= 0) return null
  return Math.max(0, Math.round((Date.now() - row.time) / 1000))
}

/**
 * Whether payment detection is delayed (the follower more than thresholdS behind the chain), and
 * whether the operator wants new checkouts refused meanwhile. Buyers poll; the answer is kept 2 s.
 */
export function createPaymentDelay(db: Db, thresholdS: number) {
  const state = cachedValue(async () => {
    const lag = await followerLagSeconds(db)
    const delayed = lag !== null && lag > thresholdS
    return { delayed, refuseCheckouts: delayed && (await loadSettings(db)).refuseCheckoutsWhileDelayed }
  }, 2000)
  return {
    delayed: async () => (await state.get()).delayed,
    refuseCheckouts: async () => (await state.get()).refuseCheckouts,
  }
}
export type PaymentDelay = ReturnType<typeof createPaymentDelay>

export function createShopHealth(
  db: Db,
  providers: Pick<ProviderPool, 'refreshHeads' | 'failingSince' | 'health'>,
): ShopHealth {
  return {
    addressPool: () => addressPoolHealth(db),
    unmatchedTransfers: () => unmatchedTransferCount(db),
    followerLagSeconds: () => followerLagSeconds(db),
    async blocksBehindSeconds() {
      const status = await readFollowerStatus(db)
      // Three seconds a block: the solidified blocks not read yet, as time.
      return status.lagBlocks === null ? null : status.lagBlocks * 3
    },
    async providers() {
      // Heads older than a minute are asked for, so the lag figures stay current.
      await providers.refreshHeads(60_000)
      return { failingSince: providers.failingSince(), list: providers.health() }
    },
  }
}
