import { asc, eq, sql } from 'drizzle-orm'
import type { SaveDiscountInput, DiscountCodeRow as WireRow } from '../../shared/discounts'
import { discountAdminMessages } from '../../shared/discounts'
import type { Db } from '../db/client'
import { discountCodes, type OrderItemSnapshot } from '../db/schema'
import { AppError, isUniqueViolation } from '../errors'
import { type Refusal, refusal } from '../i18n/refusals'
import { countDiscountUses, discountUsage } from '../orders/orders.repo'
import { type DiscountCodeRow, type Evaluation, evaluateDiscount, subtotalOf } from './discount-rules'

// The discounts module owns discount_codes. Checkout checks a code here, order placement reserves
// its use here (under the code row's lock), and the admin lists and edits codes here.

const lowered = (codes: readonly string[]) =>
  JSON.stringify([...new Set(codes.map((c) => c.trim().toLowerCase()))])

/** The codes matching the given texts, case-insensitively. */
export async function findCodes(db: Db, codes: readonly string[]): Promise<DiscountCodeRow[]> {
  if (codes.length === 0) return []
  return db
    .select()
    .from(discountCodes)
    .where(
      sql`lower(${discountCodes.code}) in (select value from jsonb_array_elements_text(${lowered(codes)}::jsonb))`,
    )
}

export interface DiscountRequest {
  code: string
  email: string
  items: readonly OrderItemSnapshot[]
  /** The total the buyer saw (after the discount); a mismatch is refused before the use counts. */
  claimedTotalCents: number | null
}

export type Reservation =
  | { ok: true; codeId: number; code: string; discountCents: number }
  | { ok: false; error: Refusal }

/**
 * Inside the transaction that places orders: locks the codes the requests name (by id, the same
 * order in every transaction), counts the uses their orders hold, and answers, in request order,
 * each one's discount or refusal, counting the requests granted before it. The use is reserved by
 * the order row the caller inserts in this same transaction: a concurrent placement waits for the
 * lock and then counts it.
 */
export async function reserveDiscounts(
  tx: Db,
  requests: readonly DiscountRequest[],
  now: Date,
): Promise<Reservation[]> {
  if (requests.length === 0) return []
  const rows = await tx
    .select()
    .from(discountCodes)
    .where(
      sql`lower(${discountCodes.code}) in (select value from jsonb_array_elements_text(${lowered(requests.map((r) => r.code))}::jsonb))`,
    )
    .orderBy(asc(discountCodes.id))
    .for('update')
  const byCode = new Map(rows.map((row) => [row.code.toLowerCase(), row]))
  const held = await countDiscountUses(
    tx,
    rows.map((r) => r.id),
    requests.map((r) => r.email),
  )
  return requests.map((request) => {
    const row = byCode.get(request.code.trim().toLowerCase())
    if (!row) return { ok: false, error: refusal('discount.unknown') }
    const emailKey = `${row.id} ${request.email.trim().toLowerCase()}`
    const uses = { total: held.total.get(row.id) ?? 0, byEmail: held.byEmail.get(emailKey) ?? 0 }
    const verdict = evaluateDiscount(row, request.items, now, uses)
    if (!verdict.ok) return verdict
    if (request.claimedTotalCents !== subtotalOf(request.items) - verdict.discountCents)
      return { ok: false, error: refusal('checkout.invalidTotal') }
    held.total.set(row.id, uses.total + 1)
    held.byEmail.set(emailKey, uses.byEmail + 1)
    return { ok: true, codeId: row.id, code: row.code, discountCents: verdict.discountCents }
  })
}

/** The checkout's check: the discount now, with the uses as they stand (nothing is reserved). */
export async function previewDiscount(
  db: Db,
  request: { code: string; email?: string | undefined; items: readonly OrderItemSnapshot[] },
): Promise<{ row: DiscountCodeRow; verdict: Evaluation } | null> {
  const [row] = await findCodes(db, [request.code])
  if (!row) return null
  const emails = request.email ? [request.email] : []
  const held = await countDiscountUses(db, [row.id], emails)
  const uses = {
    total: held.total.get(row.id) ?? 0,
    byEmail: request.email ? (held.byEmail.get(`${row.id} ${request.email.trim().toLowerCase()}`) ?? 0) : 0,
  }
  return { row, verdict: evaluateDiscount(row, request.items, new Date(), uses) }
}

/** The table's columns for a saved code (the admin's form as the call carries it). */
function columnsOf(input: SaveDiscountInput) {
  return {
    code: input.p_code,
    kind: input.p_kind,
    percentBp: input.p_kind === 'percent' ? input.p_percent_bp : null,
    amountCents: input.p_kind === 'fixed' ? input.p_amount_cents : null,
    minTotalCents: input.p_min_total_cents,
    maxDiscountCents: input.p_max_discount_cents,
    productIds:
      input.p_product_ids && input.p_product_ids.length > 0 ? [...new Set(input.p_product_ids)] : null,
    startsAt: input.p_starts_at ? new Date(input.p_starts_at) : null,
    endsAt: input.p_ends_at ? new Date(input.p_ends_at) : null,
    maxUses: input.p_max_uses,
    maxUsesPerEmail: input.p_max_uses_per_email,
    disabled: input.p_disabled,
  }
}

/** Creates or changes a code; answers its id. A code spelled like another (any case) is refused. */
export async function saveDiscount(db: Db, input: SaveDiscountInput): Promise<number> {
  const values = { ...columnsOf(input), updatedAt: new Date() }
  try {
    if (input.p_id === undefined) {
      const [row] = await db.insert(discountCodes).values(values).returning({ id: discountCodes.id })
      return (row as { id: number }).id
    }
    const [row] = await db
      .update(discountCodes)
      .set(values)
      .where(eq(discountCodes.id, input.p_id))
      .returning({ id: discountCodes.id })
    if (!row) throw new AppError('not_found', discountAdminMessages.notFound)
    return row.id
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', discountAdminMessages.duplicate)
    throw error
  }
}

/** Switches a code off (or on again); answers false when there is no such code. */
export async function setDiscountDisabled(db: Db, id: number, disabled: boolean): Promise<boolean> {
  const rows = await db
    .update(discountCodes)
    .set({ disabled, updatedAt: new Date() })
    .where(eq(discountCodes.id, id))
    .returning({ id: discountCodes.id })
  return rows.length > 0
}

export async function findDiscount(db: Db, id: number): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id))
  return row
}

/** A code's settings under the names of the admin's calls (the list, and the audit's changed fields). */
export function discountFieldsOf(row: Omit<DiscountCodeRow, 'id' | 'createdAt' | 'updatedAt'>) {
  return {
    code: row.code,
    kind: row.kind,
    percent_bp: row.percentBp,
    amount_cents: row.amountCents,
    min_total_cents: row.minTotalCents,
    max_discount_cents: row.maxDiscountCents,
    product_ids: row.productIds,
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    max_uses: row.maxUses,
    max_uses_per_email: row.maxUsesPerEmail,
    disabled: row.disabled,
  }
}

/** The same fields as the admin saves them, to say in the audit log what a save changed. */
export function discountFieldsOfInput(input: SaveDiscountInput): ReturnType<typeof discountFieldsOf> {
  return discountFieldsOf(columnsOf(input))
}

/** Every code, newest first, with its uses, paid orders and their revenue. */
export async function listDiscounts(db: Db): Promise<WireRow[]> {
  const [rows, usage] = await Promise.all([
    db.select().from(discountCodes).orderBy(sql`${discountCodes.createdAt} desc`, discountCodes.id),
    discountUsage(db),
  ])
  return rows.map((row) => {
    const used = usage.get(row.id)
    return {
      id: row.id,
      ...discountFieldsOf(row),
      created_at: row.createdAt.toISOString(),
      uses: used?.uses ?? 0,
      paid_orders: used?.paidOrders ?? 0,
      revenue_cents: used?.revenueCents ?? 0,
      discount_given_cents: used?.discountCents ?? 0,
    }
  })
}
