import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm'
import type { AdminPayment } from '../../shared/admin'
import { unitsToDecimal } from '../../shared/networks'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { payments } from '../db/schema'
import { lockOrder } from '../orders/orders.repo'
import { creditUnmatched, decideHeld } from './ledger'
import { explorerTxUrlOf } from './order-payment'
import type { PaymentRules } from './payment-rules'
import { settleOrder } from './settle-order'

// The operator's side of the ledger: transfers as the admin panel shows them, and the operator's
// decisions on them (assigning an unmatched transfer to an order, releasing or refusing a held one),
// each settled through the one path to paid.

function toAdminPayment(row: typeof payments.$inferSelect): AdminPayment {
  return {
    id: row.id,
    chain: row.chain,
    order_id: row.orderId,
    tx_id: row.txId,
    tx_url: explorerTxUrlOf(row.chain, row.txId),
    token: row.token,
    amount: unitsToDecimal(row.amountUnits.toString(), decimalsOf(row.chain, row.token)),
    from_address: row.fromAddress,
    to_address: row.toAddress,
    block_timestamp: row.blockTimestamp,
    block_number: row.blockNumber,
    status: row.status,
    reason: row.reason,
    late: row.late,
    created_at: row.createdAt.toISOString(),
  }
}

/** The credited transactions of each order, in the order they were recorded (the CSV export). */
export async function creditedTxIds(db: Db, orderIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ orderId: payments.orderId, txId: payments.txId })
    .from(payments)
    .where(and(inArray(payments.orderId, [...orderIds]), eq(payments.status, 'credited')))
    .orderBy(asc(payments.id))
  const byOrder = new Map<string, string[]>()
  for (const t of rows) {
    const list = byOrder.get(t.orderId as string) ?? []
    if (!list.includes(t.txId)) list.push(t.txId)
    byOrder.set(t.orderId as string, list)
  }
  return byOrder
}

/** One keyset page of the ledger (every transfer, or the unmatched ones) after id `after`, by id. */
export async function paymentsPage(
  db: Db,
  { after, unmatchedOnly }: { after: number; unmatchedOnly: boolean },
  limit: number,
): Promise<(typeof payments.$inferSelect)[]> {
  return db
    .select()
    .from(payments)
    .where(and(gt(payments.id, after), ...(unmatchedOnly ? [eq(payments.status, 'unmatched')] : [])))
    .orderBy(asc(payments.id))
    .limit(limit)
}

/** The transfers the ledger holds for an order, oldest first. */
export async function paymentsOfOrder(db: Db, orderId: string): Promise<AdminPayment[]> {
  const rows = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id)
  return rows.map(toAdminPayment)
}

export async function listUnmatchedPayments(db: Db): Promise<AdminPayment[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(eq(payments.status, 'unmatched'))
    .orderBy(desc(payments.createdAt))
    .limit(500)
  return rows.map(toAdminPayment)
}

/**
 * The operator's decision on an order held for review. Released, its held transfers become its
 * payments and it is settled like any other (paid and delivered when they cover it); refused, they
 * stay unmatched and the order goes on waiting for its own buyer's payment.
 */
export async function reviewHeldOrder(
  db: Db,
  orderId: string,
  decision: 'release' | 'refuse',
  rules: PaymentRules,
): Promise<{ kind: 'ok'; paid: boolean } | { kind: 'no_order' | 'not_held' }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return { kind: 'no_order' }
    if ((await decideHeld(tx, orderId, decision)) === 0) return { kind: 'not_held' }
    if (decision === 'refuse') return { kind: 'ok', paid: false }
    const settled = await settleOrder(tx, orderId, rules)
    return { kind: 'ok', paid: settled.kind === 'paid' }
  })
}

/**
 * Makes an unmatched transfer a payment of an order, then settles the order by the same rules as a
 * transfer from the chain: when what the order has received now covers it, it is paid and delivered.
 */
export async function assignPayment(
  db: Db,
  paymentId: number,
  orderId: string,
  rules: PaymentRules,
): Promise<{ kind: 'ok'; paid: boolean } | { kind: 'no_order' | 'no_payment' | 'already_credited' }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return { kind: 'no_order' }
    const credited = await creditUnmatched(tx, paymentId, orderId)
    if (credited !== 'credited') return { kind: credited }
    const settled = await settleOrder(tx, orderId, rules)
    return { kind: 'ok', paid: settled.kind === 'paid' }
  })
}

/** One transfer of the ledger, locked until the caller's transaction ends (a return of it). */
export async function lockPayment(
  tx: Db,
  paymentId: number,
): Promise<typeof payments.$inferSelect | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update')
  return row
}
