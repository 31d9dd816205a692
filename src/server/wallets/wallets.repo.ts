import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { orders, walletAddresses } from '../db/schema'

/** An address is free when nobody holds it, or when its holder's lease (window + grace) has run out. */
export const addressIsFree = () =>
  or(isNull(walletAddresses.leasedOrderId), lte(walletAddresses.leaseUntil, sql`now()`))

/** Adds addresses that are not there yet; answers how many were new. Validate first (shared/wallet-addresses). */
export async function addWalletAddresses(db: Db, addresses: readonly string[]): Promise<number> {
  if (addresses.length === 0) return 0
  const rows = await db
    .insert(walletAddresses)
    .values(addresses.map((address) => ({ address })))
    .onConflictDoNothing({ target: walletAddresses.address })
    .returning({ address: walletAddresses.address })
  return rows.length
}

/** Any address free right now (the spec's secure_get_wallet_address), without reserving it. */
export async function findFreeAddress(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ address: walletAddresses.address })
    .from(walletAddresses)
    .where(addressIsFree())
    .orderBy(sql`${walletAddresses.leaseUntil} asc nulls first`, asc(walletAddresses.createdAt))
    .limit(1)
  return row?.address ?? null
}

/**
 * Leases one free address to an order until `until`, atomically: the preferred address when it is
 * still free, else any other. Two transactions never get the same row (FOR UPDATE SKIP LOCKED, and
 * the freeness test is repeated by the UPDATE itself). Answers the address, or null when none is free.
 * Call inside the transaction that creates the order.
 */
export async function leaseAddress(
  tx: Db,
  orderId: string,
  until: Date,
  preferred?: string,
): Promise<string | null> {
  const pick = async (only?: string) => {
    const result = await tx.execute(sql`
      update ${walletAddresses} set leased_order_id = ${orderId}, lease_until = ${until.toISOString()}
      where address = (
        select address from ${walletAddresses}
        where (leased_order_id is null or lease_until <= now())
          ${only ? sql`and address = ${only}` : sql``}
        order by lease_until asc nulls first, created_at asc
        limit 1
        for update skip locked
      ) and (leased_order_id is null or lease_until <= now())
      returning address`)
    // PGlite and node-postgres both answer { rows }.
    return (result as unknown as { rows: { address: string }[] }).rows[0]?.address ?? null
  }
  return (preferred ? await pick(preferred) : null) ?? (await pick())
}

/** Ends an order's lease (paid, cancelled); the address is free again at once. */
export async function releaseLease(db: Db, orderId: string): Promise<void> {
  await db
    .update(walletAddresses)
    .set({ leasedOrderId: null, leaseUntil: null })
    .where(eq(walletAddresses.leasedOrderId, orderId))
}

export interface WalletAddressRow {
  address: string
  createdAt: Date
  leasedOrderId: string | null
  leaseUntil: Date | null
  /** Status of the order holding the lease, if the lease is live. */
  orderStatus: string | null
}

/** Every address with its lease state; a lease that has run out is reported as free. */
export async function listWalletAddresses(db: Db): Promise<WalletAddressRow[]> {
  const rows = await db
    .select({
      address: walletAddresses.address,
      createdAt: walletAddresses.createdAt,
      leasedOrderId: walletAddresses.leasedOrderId,
      leaseUntil: walletAddresses.leaseUntil,
      live: sql<boolean>`(${walletAddresses.leaseUntil} > now())`,
      orderStatus: orders.status,
    })
    .from(walletAddresses)
    .leftJoin(orders, eq(orders.id, walletAddresses.leasedOrderId))
    .orderBy(asc(walletAddresses.createdAt), asc(walletAddresses.address))
  return rows.map(({ live, ...row }) =>
    live && row.leasedOrderId ? row : { ...row, leasedOrderId: null, leaseUntil: null, orderStatus: null },
  )
}

/**
 * Removes addresses, except those leased to a pending order (a buyer may be paying to it).
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
      .innerJoin(orders, eq(orders.id, walletAddresses.leasedOrderId))
      .where(
        and(
          inArray(walletAddresses.address, [...addresses]),
          eq(orders.status, 'pending'),
          sql`${walletAddresses.leaseUntil} > now()`,
        ),
      )
      .for('update')
    const inUse = busy.map((row) => row.address)
    const removable = addresses.filter((address) => !inUse.includes(address))
    const removed = removable.length
      ? (
          await tx
            .delete(walletAddresses)
            .where(inArray(walletAddresses.address, removable))
            .returning({ address: walletAddresses.address })
        ).map((row) => row.address)
      : []
    return { removed, inUse }
  })
}
