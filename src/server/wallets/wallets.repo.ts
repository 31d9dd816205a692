import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { type ChainFamilyId, chainFamilies, firstFamily } from '../../shared/chains'
import type { WalletLine } from '../../shared/wallet-addresses'
import type { Db } from '../db/client'
import { addressLeases, orders, walletAddresses } from '../db/schema'

// The wallets module owns the address pool and each address's lease history. An address is free
// when it is in the pool, no order holds it, and the cool-down after its last order has passed; the
// history says which order held an address at any instant, so a transfer is attributed by its
// block time, never guessed.

/**
 * Free to lease now: the SQL function wallets_address_free (migration 0027), the one statement of
 * the rule, which wallets_lease and wallets_hold_counts call too.
 */
const freeNow = sql`wallets_address_free(${walletAddresses.leasedOrderId}, ${walletAddresses.removedAt}, ${walletAddresses.cooldownUntil})`

/**
 * Adds addresses that are not there yet; an address removed earlier comes back into the pool.
 * Answers how many were new or restored. Validate first (shared/wallet-addresses): a bare string
 * is a TRON address, an entry names its family.
 */
export async function addWalletAddresses(
  db: Db,
  addresses: readonly (string | WalletLine)[],
): Promise<number> {
  if (addresses.length === 0) return 0
  let changed = 0
  // Chunks keep each statement's parameter count well inside PostgreSQL's limit of 65,535.
  for (let i = 0; i < addresses.length; i += 5000) {
    const chunk = addresses.slice(i, i + 5000)
    const rows = await db
      .insert(walletAddresses)
      .values(
        chunk.map((a) =>
          typeof a === 'string'
            ? { address: a, family: firstFamily }
            : { address: a.address, family: a.family },
        ),
      )
      .onConflictDoUpdate({
        target: walletAddresses.address,
        set: { removedAt: null },
        setWhere: isNotNull(walletAddresses.removedAt),
      })
      .returning({ address: walletAddresses.address })
    changed += rows.length
  }
  return changed
}

/** Any address free right now (the storefront's secure_get_wallet_address), without reserving it. */
export async function findFreeAddress(db: Db, family: ChainFamilyId): Promise<string | null> {
  const [row] = await db
    .select({ address: walletAddresses.address })
    .from(walletAddresses)
    .where(and(eq(walletAddresses.family, family), freeNow))
    .orderBy(sql`${walletAddresses.lastUsedAt} asc nulls first`, asc(walletAddresses.createdAt))
    .limit(1)
  return row?.address ?? null
}

export interface LeaseWanted {
  orderId: string
  /** The address the buyer was shown; another is leased when it is no longer free. */
  preferred?: string
  /**
   * The address of an order the same browser gave back in this transaction: it passes straight to
   * the new order, cool-down or not (the old lease's cool-down ends where the new one starts).
   */
  handover?: string
  /** Who is counted for the address while it is leased, and while it cools if the order goes unpaid. */
  holder?: string
}

/**
 * Leases one address to each new order, atomically, and writes each lease's history row: the
 * handed-over address, else the preferred address when it is still free (the first order asking
 * for it), else the free address idle longest, in the orders' order until the pool runs out. Two
 * transactions never get the same row (the rows are picked FOR UPDATE SKIP LOCKED). Call inside the
 * transaction that creates the orders, with their creation time. Answers order id → address; an
 * order missing from the map got none.
 * The statements are the SQL function wallets_lease (migrations 0012, 0017, 0027, 0028), whose plans each connection
 * keeps: planning them cost more than running them.
 */
export async function leaseAddresses(
  tx: Db,
  wanted: readonly LeaseWanted[],
  startedAt: Date,
  /** The family of the orders' chain: an order leases an address it can be paid to. */
  family: ChainFamilyId,
): Promise<Map<string, string>> {
  const leased = new Map<string, string>()
  if (wanted.length === 0) return leased
  const asked = new Set<string>()
  const orders = wanted.map((w, i) => {
    const preferred = w.preferred && !asked.has(w.preferred) ? w.preferred : null
    if (preferred) asked.add(preferred)
    return {
      order_id: w.orderId,
      handover: w.handover ?? null,
      preferred,
      holder: w.holder ?? null,
      n: i + 1,
    }
  })
  const result = (await tx.execute(
    sql`select leased_address, leased_order from wallets_lease(${JSON.stringify(orders)}::jsonb, ${startedAt.toISOString()}::timestamptz, ${family})`,
  )) as unknown as { rows: { leased_address: string; leased_order: string }[] }
  for (const row of result.rows) leased.set(row.leased_order, row.leased_address)
  return leased
}

/**
 * The order ended (paid, cancelled, expired) at `endedAt`: its address rests until
 * endedAt + cooldown, then is free again. Transfers until then are still recorded against the order.
 * A paid order's address is no longer counted against its network while it rests.
 */
export async function releaseAddress(
  tx: Db,
  orderId: string,
  endedAt: Date,
  cooldownMs: number,
  { paid = false }: { paid?: boolean } = {},
): Promise<void> {
  const cooldownUntil = new Date(endedAt.getTime() + cooldownMs)
  const ended = endedAt.toISOString()
  await tx
    .update(addressLeases)
    .set({ endedAt, cooldownUntil })
    .where(and(eq(addressLeases.orderId, orderId), isNull(addressLeases.endedAt)))
  await tx
    .update(walletAddresses)
    .set({
      leasedOrderId: null,
      cooldownUntil: sql`greatest(coalesce(${walletAddresses.cooldownUntil}, ${cooldownUntil.toISOString()}::timestamptz), ${cooldownUntil.toISOString()}::timestamptz)`,
      lastUsedAt: sql`greatest(coalesce(${walletAddresses.lastUsedAt}, ${ended}::timestamptz), ${ended}::timestamptz)`,
      ...(paid ? { heldBy: null } : {}),
    })
    .where(eq(walletAddresses.leasedOrderId, orderId))
}

/**
 * A transfer reached the address at `at` (block time): it counts as use, so leasing, which takes the
 * address idle longest, leaves an address its old buyers still send to until last.
 */
export async function noteAddressUse(tx: Db, address: string, at: Date): Promise<void> {
  const time = at.toISOString()
  await tx
    .update(walletAddresses)
    .set({
      lastUsedAt: sql`greatest(coalesce(${walletAddresses.lastUsedAt}, ${time}::timestamptz), ${time}::timestamptz)`,
    })
    .where(eq(walletAddresses.address, address))
}

export interface HoldCounts {
  /** Addresses each holder keeps leased, or cooling after an unpaid order (every family). */
  held: Map<string, number>
  /** Addresses of the family free to lease now (0 unless asked for). */
  free: number
  /** Addresses of the family in the pool, removed ones left out (0 unless asked for). */
  pool: number
}

/**
 * What the checkout's pool guard weighs: the SQL function wallets_hold_counts (migrations 0017, 0027,
 * 0035, 0036). The held, free and pool counts are the family's (an order leases an address of its chain's
 * family) and read every row of it: ask for them only when they decide something.
 */
export async function holdCounts(
  tx: Db,
  holders: readonly string[],
  { withPool, family }: { withPool: boolean; family: ChainFamilyId | null },
): Promise<HoldCounts> {
  const result = (await tx.execute(
    sql`select kind, key, n from wallets_hold_counts(${JSON.stringify([...new Set(holders)])}::jsonb, ${withPool}, ${family})`,
  )) as unknown as { rows: { kind: string; key: string | null; n: number }[] }
  const counts: HoldCounts = { held: new Map(), free: 0, pool: 0 }
  for (const row of result.rows) {
    if (row.kind === 'held' && row.key !== null) counts.held.set(row.key, Number(row.n))
    else if (row.kind === 'free') counts.free = Number(row.n)
    else if (row.kind === 'pool') counts.pool = Number(row.n)
  }
  return counts
}

/**
 * Gives an ended order its own address back (the admin set it to pending again). Refused unless the
 * address is in the pool and no other order holds it or has held it since: its own cool-down is fine.
 */
export async function releaseToOwner(
  tx: Db,
  orderId: string,
  address: string,
  startedAt: Date,
): Promise<'ok' | 'in_use' | 'removed'> {
  const [row] = await tx
    .select()
    .from(walletAddresses)
    .where(eq(walletAddresses.address, address))
    .for('update')
  if (!row || row.removedAt) return 'removed'
  if (row.leasedOrderId === orderId) return 'ok'
  if (row.leasedOrderId) return 'in_use'
  const [last] = await tx
    .select({ orderId: addressLeases.orderId })
    .from(addressLeases)
    .where(eq(addressLeases.address, address))
    .orderBy(sql`${addressLeases.startedAt} desc, ${addressLeases.id} desc`)
    .limit(1)
  // Another buyer had it since: their late transfers must not become this order's.
  if (last && last.orderId !== orderId) {
    const [other] = await tx
      .select({ until: addressLeases.cooldownUntil })
      .from(addressLeases)
      .where(and(eq(addressLeases.address, address), eq(addressLeases.orderId, last.orderId)))
      .orderBy(sql`${addressLeases.id} desc`)
      .limit(1)
    if (!other?.until || other.until.getTime() > Date.now()) return 'in_use'
  }
  // The operator's decision: not counted against any network.
  await tx
    .update(walletAddresses)
    .set({ leasedOrderId: orderId, cooldownUntil: null, heldBy: null })
    .where(eq(walletAddresses.address, address))
  await tx.insert(addressLeases).values({ address, orderId, startedAt })
  return 'ok'
}

export interface LeaseAtTime {
  orderId: string
  startedAt: Date
  endedAt: Date | null
  cooldownUntil: Date | null
}

/**
 * The lease of `address` whose span covers `atMs` (a block time): from its start until the end of
 * its cool-down, or open while the order is pending. Null when no order held the address then.
 */
export async function leaseAt(tx: Db, address: string, atMs: number): Promise<LeaseAtTime | null> {
  const at = new Date(atMs).toISOString()
  const [row] = await tx
    .select({
      orderId: addressLeases.orderId,
      startedAt: addressLeases.startedAt,
      endedAt: addressLeases.endedAt,
      cooldownUntil: addressLeases.cooldownUntil,
    })
    .from(addressLeases)
    .where(
      and(
        eq(addressLeases.address, address),
        sql`${addressLeases.startedAt} <= ${at}::timestamptz`,
        sql`(${addressLeases.endedAt} is null or ${addressLeases.cooldownUntil} >= ${at}::timestamptz)`,
      ),
    )
    .orderBy(sql`${addressLeases.startedAt} desc, ${addressLeases.id} desc`)
    .limit(1)
  return row ?? null
}

/** Every address ever in the pool, removed ones included: the chain follower watches them all. */
/** Every address ever in the pool (removed ones too); with `family`, only that family's. */
export async function allPoolAddresses(db: Db, family?: ChainFamilyId): Promise<string[]> {
  const rows = await db
    .select({ address: walletAddresses.address })
    .from(walletAddresses)
    .where(family ? eq(walletAddresses.family, family) : undefined)
  return rows.map((r) => r.address)
}

/**
 * The addresses of a family an order holds or that cool down after one (a chain read per address,
 * such as Solana's, watches only these: decision 053).
 */
export async function activePoolAddresses(db: Db, family: ChainFamilyId): Promise<string[]> {
  const result = (await db.execute(sql`
    select address from wallet_addresses
    where family = ${family}
      and (leased_order_id is not null or (cooldown_until is not null and cooldown_until > now()))`)) as unknown as {
    rows: { address: string }[]
  }
  return result.rows.map((r) => r.address)
}

export type AddressState = 'free' | 'leased' | 'cooling' | 'removed'

export interface WalletAddressRow {
  address: string
  createdAt: Date
  state: AddressState
  leasedOrderId: string | null
  /** Status of the order holding the lease. */
  orderStatus: string | null
  cooldownUntil: Date | null
}

/** Every address in the pool with its state (removed addresses are left out). */
export async function listWalletAddresses(db: Db): Promise<WalletAddressRow[]> {
  const rows = await db
    .select({
      address: walletAddresses.address,
      createdAt: walletAddresses.createdAt,
      leasedOrderId: walletAddresses.leasedOrderId,
      cooldownUntil: walletAddresses.cooldownUntil,
      cooling: sql<boolean>`(${walletAddresses.cooldownUntil} is not null and ${walletAddresses.cooldownUntil} > now())`,
      orderStatus: orders.status,
    })
    .from(walletAddresses)
    .leftJoin(orders, eq(orders.id, walletAddresses.leasedOrderId))
    .where(isNull(walletAddresses.removedAt))
    .orderBy(asc(walletAddresses.createdAt), asc(walletAddresses.address))
  return rows.map(({ cooling, ...row }) => ({
    ...row,
    state: row.leasedOrderId ? 'leased' : cooling ? 'cooling' : 'free',
    cooldownUntil: cooling ? row.cooldownUntil : null,
  }))
}

export interface AddressStates {
  free: number
  leased: number
  cooling: number
}

/**
 * Each family's free, leased and cooling-down addresses, for the health figures (the admin's sales
 * view, the operator's alerts, the metrics); a family without addresses counts zeros. Free is the
 * count the checkout's pool guard weighs (the SQL function wallets_hold_counts), read in the same
 * statement as the leased count.
 */
export async function countAddressStates(db: Db): Promise<Record<ChainFamilyId, AddressStates>> {
  const result = (await db.execute(sql`
    select kind, key, n from wallets_hold_counts('[]'::jsonb, true)
    union all
    select 'leased', ${walletAddresses.family}, count(*)::int from ${walletAddresses}
    where ${walletAddresses.leasedOrderId} is not null and ${walletAddresses.removedAt} is null
    group by ${walletAddresses.family}`)) as unknown as {
    rows: { kind: string; key: string; n: number }[]
  }
  const ofFamily = (family: ChainFamilyId): AddressStates => {
    const n = (kind: string) => Number(result.rows.find((r) => r.kind === kind && r.key === family)?.n ?? 0)
    const free = n('free')
    const leased = n('leased')
    return { free, leased, cooling: Math.max(0, n('pool') - free - leased) }
  }
  return Object.fromEntries(chainFamilies.map((f) => [f, ofFamily(f)])) as Record<
    ChainFamilyId,
    AddressStates
  >
}

/**
 * Takes addresses out of the pool, except those leased to a pending order (a buyer may be paying to
 * it). They stay in the table, marked removed, so a late transfer to them is still recorded.
 * Answers the removed and the refused addresses.
 */
export async function removeWalletAddresses(
  db: Db,
  addresses: readonly string[],
): Promise<{ removed: string[]; inUse: string[] }> {
  if (addresses.length === 0) return { removed: [], inUse: [] }
  return db.transaction(async (tx) => {
    const busy = await tx
      .select({ address: walletAddresses.address })
      .from(walletAddresses)
      .where(and(inArray(walletAddresses.address, [...addresses]), isNotNull(walletAddresses.leasedOrderId)))
      .for('update')
    const inUse = busy.map((row) => row.address)
    const removable = addresses.filter((address) => !inUse.includes(address))
    const removed = removable.length
      ? (
          await tx
            .update(walletAddresses)
            .set({ removedAt: new Date() })
            .where(
              and(
                inArray(walletAddresses.address, removable),
                isNull(walletAddresses.leasedOrderId),
                isNull(walletAddresses.removedAt),
              ),
            )
            .returning({ address: walletAddresses.address })
        ).map((row) => row.address)
      : []
    return { removed, inUse }
  })
}

/** Whether any address of the family is cooling down now (the follower reads an idle chain less often). */
export async function hasAddressCoolingDown(db: Db, family: ChainFamilyId): Promise<boolean> {
  const result = (await db.execute(sql`
    select exists (
      select 1 from wallet_addresses
      where family = ${family} and cooldown_until is not null and cooldown_until > now()
    ) as found`)) as unknown as { rows: { found: boolean }[] }
  return result.rows[0]?.found === true
}
