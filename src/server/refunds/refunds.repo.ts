import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm'
import type { ChainId } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import {
  type AdminRefund,
  type DashboardRefund,
  REFUND_LINK_HOURS,
  type RefundToken,
  unitsToMicrosUp,
} from '../../shared/refunds'
import { formatTokenUnits } from '../../shared/token-amount'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { refunds } from '../db/schema'
import { explorerTxUrlOf } from '../payments/order-payment'
import type { RefundChains } from './refund-proof'

// The refunds module's table: one row per refund or return, its state and its proof.

export type RefundRow = typeof refunds.$inferSelect

/** A refund's amount (or any amount of its token) as a wallet is typed with, at the token's decimals on its chain. */
export function formatRefundUnits(row: Pick<RefundRow, 'chain' | 'token'>, units: bigint): string {
  return formatTokenUnits(units, decimalsOf(row.chain, row.token))
}

const HOUR = 3_600_000

export const linkHashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** A new one-time link for the buyer: the token (for the e-mail only) and what the row keeps. */
export function newRefundLink(now = new Date()) {
  const token = randomBytes(32).toString('base64url')
  return {
    token,
    linkTokenHash: linkHashOf(token),
    linkExpiresAt: new Date(now.getTime() + REFUND_LINK_HOURS * HOUR),
  }
}

export async function findRefund(db: Db, id: number): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id))
  return row
}

export async function lockRefund(tx: Db, id: number): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.id, id)).for('update')
  return row
}

export async function findRefundByRequestKey(db: Db, key: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.requestKey, key))
  return row
}

/** The refund a buyer's link names while the link is good (unused, unexpired). */
export async function findRefundByLink(db: Db, token: string): Promise<RefundRow | undefined> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.linkTokenHash, linkHashOf(token)),
        isNull(refunds.linkUsedAt),
        sql`${refunds.linkExpiresAt} > now()`,
      ),
    )
  return row
}

export async function refundsOfOrder(db: Db, orderId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(refunds.id)
}

export async function listRefunds(db: Db, limit = 200): Promise<RefundRow[]> {
  return db.select().from(refunds).orderBy(desc(refunds.id)).limit(limit)
}

/** Refunds waiting for their payment, oldest first (the chain watch). */
export async function readyRefunds(db: Db, limit = 100): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.status, 'ready')).orderBy(refunds.readyAt).limit(limit)
}

/** An order's refund sums by chain and token: stablecoins in micro-dollars (each at its decimals), TRX in sun. */
export interface OrderRefundSums {
  stable: bigint
  trx: bigint
}

function sumsOf(rows: readonly { chain: ChainId; token: RefundToken; units: string }[]): OrderRefundSums {
  const sums = { stable: 0n, trx: 0n }
  for (const r of rows) {
    const units = BigInt(r.units)
    if (r.token === 'TRX') sums.trx += units
    else sums.stable += unitsToMicrosUp(units, decimalsOf(r.chain, r.token))
  }
  return sums
}

async function orderSums(tx: Db, orderId: string, status: SQL): Promise<OrderRefundSums> {
  const rows = await tx
    .select({
      chain: refunds.chain,
      token: refunds.token,
      units: sql<string>`sum(${refunds.amountUnits})::text`,
    })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'refund'), status))
    .groupBy(refunds.chain, refunds.token)
  return sumsOf(rows)
}

/** What an order's refunds hold (all but cancelled ones), for what is left to refund. */
export function refundedOfOrder(tx: Db, orderId: string): Promise<OrderRefundSums> {
  return orderSums(tx, orderId, ne(refunds.status, 'cancelled'))
}

/** What an order's sent refunds paid back. */
export function sentOfOrder(tx: Db, orderId: string): Promise<OrderRefundSums> {
  return orderSums(tx, orderId, eq(refunds.status, 'sent'))
}

/** The transfers (payments.id) among these being returned or returned already. */
export async function returnedPayments(
  db: Db,
  paymentIds: readonly number[],
): Promise<Map<number, RefundRow>> {
  if (paymentIds.length === 0) return new Map()
  const rows = await db
    .select()
    .from(refunds)
    .where(and(inArray(refunds.paymentId, [...paymentIds]), ne(refunds.status, 'cancelled')))
  return new Map(rows.map((r) => [r.paymentId as number, r]))
}

export async function insertRefund(tx: Db, values: typeof refunds.$inferInsert): Promise<RefundRow> {
  const [row] = await tx.insert(refunds).values(values).returning()
  if (!row) throw new Error('refund insert returned nothing')
  return row
}

export async function updateRefund(
  tx: Db,
  id: number,
  values: Partial<typeof refunds.$inferInsert>,
): Promise<RefundRow | undefined> {
  const [row] = await tx
    .update(refunds)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(refunds.id, id))
    .returning()
  return row
}

/** Refunds sent per UTC day since `from` (kind refund only: a return was never revenue), in USD micros. */
export async function refundsPerDay(db: Db, from: Date): Promise<Map<string, bigint>> {
  const rows = (await db.execute(sql`
    select to_char((sent_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, sum(usd_micros)::text as micros
    from ${refunds} where status = 'sent' and kind = 'refund' and sent_at >= ${from.toISOString()}::timestamptz
    group by 1`)) as unknown as { rows: { day: string; micros: string }[] }
  return new Map(rows.rows.map((r) => [r.day, BigInt(r.micros)]))
}

/**
 * What the operator's QR holds for a refund ready to be paid: the chain's payment URI for the token
 * and amount (EIP-681 on an EVM chain: token, chain, recipient and amount, so the wallet fills them
 * in); TRON wallets read the address alone. Null until there is an address, or without the chain.
 */
export function refundPaymentUri(row: RefundRow, chains?: RefundChains): string | null {
  const adapter = chains?.get(row.chain)
  const token = adapter?.tokens.find((t) => t.symbol === row.token)
  if (!adapter || !token || !row.address || row.status !== 'ready') return null
  return adapter.paymentUri({ address: row.address, token, amountUnits: row.amountUnits })
}

export function toAdminRefund(row: RefundRow, chains?: RefundChains): AdminRefund {
  return {
    id: row.id,
    kind: row.kind,
    order_id: row.orderId,
    payment_id: row.paymentId,
    reason: row.reason,
    token: row.token,
    network: chainNames[row.chain],
    amount: formatRefundUnits(row, row.amountUnits),
    status: row.status,
    address: row.address,
    address_source: row.addressSource,
    suggested_address: row.suggestedAddress,
    email: row.email,
    disable_keys: row.disableKeys,
    link_expires_at: row.linkExpiresAt?.toISOString() ?? null,
    link_used_at: row.linkUsedAt?.toISOString() ?? null,
    ready_at: row.readyAt?.toISOString() ?? null,
    sent_at: row.sentAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    tx_id: row.txId,
    tx_url: row.txId ? explorerTxUrlOf(row.chain, row.txId) : null,
    tx_from: row.txFrom,
    tx_amount: row.txAmountUnits === null ? null : formatRefundUnits(row, row.txAmountUnits),
    verified_by: row.verifiedBy,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    payment_uri: refundPaymentUri(row, chains),
  }
}

/** An order's refunds as the buyer's dashboard shows them (cancelled ones left out). */
export async function dashboardRefunds(db: Db, orderId: string): Promise<DashboardRefund[]> {
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'refund'), ne(refunds.status, 'cancelled')))
    .orderBy(refunds.id)
  return rows.map((r) => ({
    amount: formatRefundUnits(r, r.amountUnits),
    token: r.token,
    network: chainNames[r.chain],
    disable_keys: r.disableKeys,
    status: r.status,
    address: r.address,
    sent_at: r.sentAt?.toISOString() ?? null,
    tx_url: r.txId ? explorerTxUrlOf(r.chain, r.txId) : null,
  }))
}

/** One keyset page of refunds after id `after`, by id (the CSV export). */
export async function refundsPage(db: Db, after: number, limit: number): Promise<RefundRow[]> {
  return db.select().from(refunds).where(gt(refunds.id, after)).orderBy(refunds.id).limit(limit)
}

/** What the sent refunds of these orders paid back, per order: stablecoins in micro-dollars, TRX in sun (the CSV export). */
export async function sentRefundsOfOrders(
  db: Db,
  orderIds: readonly string[],
): Promise<Map<string, { usdt: bigint; trx: bigint }>> {
  if (orderIds.length === 0) return new Map()
  const rows = await db
    .select({
      orderId: refunds.orderId,
      chain: refunds.chain,
      token: refunds.token,
      units: sql<string>`sum(${refunds.amountUnits})::text`,
    })
    .from(refunds)
    .where(
      and(inArray(refunds.orderId, [...orderIds]), eq(refunds.kind, 'refund'), eq(refunds.status, 'sent')),
    )
    .groupBy(refunds.orderId, refunds.chain, refunds.token)
  const byOrder = new Map<string, { usdt: bigint; trx: bigint }>()
  for (const r of rows) {
    const sums = byOrder.get(r.orderId as string) ?? { usdt: 0n, trx: 0n }
    const one = sumsOf([r])
    // usdt: every stablecoin in micro-dollars (the export's column).
    sums.usdt += one.stable
    sums.trx += one.trx
    byOrder.set(r.orderId as string, sums)
  }
  return byOrder
}

/** True when the operator unticked "disable the keys" on any sent refund of the order. */
export async function keepsKeysOf(tx: Db, orderId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(
      and(
        eq(refunds.orderId, orderId),
        eq(refunds.kind, 'refund'),
        eq(refunds.status, 'sent'),
        eq(refunds.disableKeys, false),
      ),
    )
    .limit(1)
  return row !== undefined
}

/** Whether any refund was ever sent (by refunds_sent_idx: one row at most). */
export async function anyRefundSent(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.status, 'sent')).limit(1)
  return row !== undefined
}
