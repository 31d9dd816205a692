import { randomUUID } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import { type ChainId, chainFamilies, familyOfChain } from '../../shared/chains'
import type { CreateOrderAnswer, CreateOrderInput } from '../../shared/checkout'
import { centsToDollars, dollarsToCents } from '../../shared/money'
import { formatRateE8, formatSun, usdCentsToSun } from '../../shared/trx'
import { familyOf } from '../chains/families'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { reserveDiscounts } from '../discounts/discounts.repo'
import { AppError, isUniqueViolation } from '../errors'
import { refused } from '../i18n/refusals'
import { reserveKeys } from '../keys/reservation'
import type { RateResult } from '../pricing/trx-price'
import { leaseAddresses } from '../wallets/wallets.repo'
import { recordOrdersCreated } from '../webhooks/events'
import { admitCheckouts, type CheckoutClient, type CheckoutLimits } from './checkout-limits'
import { type Priced, priceRequests } from './order-pricing'
import { derivedOrderSecret, idempotencyKeyHash, newOrderSecret, orderSecretMatches } from './order-secret'
import { paymentWindow } from './payment-window'

// Placing orders. Requests that arrive together (gathered by order-batcher.ts, priced by
// order-pricing.ts) are placed together: one transaction, and one statement per step for all of them
// (limits, discount codes, addresses, rows, key reservations, webhook events), so the database's
// round trips and commits are shared. Each request still gets exactly the answer it would get alone:
// requests of one client or e-mail are counted against the limits, and requests naming one discount
// code against its uses, in order; a round holds at most one request per browser and idempotency
// key, and when anything in the round's transaction fails, each request is placed again on its own,
// where the error belongs to that request only.

export interface PlaceOrderOptions {
  windowMs: number
  graceMs: number
  /** The TRX/USD rate to lock into the order; TRX is not offered when it fails. */
  trxRate?: () => Promise<RateResult>
  /** Limits on pending orders per client and per e-mail; none when absent (scripts, benchmarks). */
  limits?: CheckoutLimits
}

/** A checkout's input with its network chosen (chooseNetwork): the order row carries it from here down. */
export type PlaceInput = CreateOrderInput & { p_chain: ChainId }

export interface PlaceRequest {
  input: PlaceInput
  client?: CheckoutClient
  /**
   * An order of an amount rather than of catalogue products (an invoice of the API): its total in
   * cents, with no items; p_items must then be empty.
   */
  amountCents?: number
  /** This order's payment window instead of the shop's (an invoice's expirationMinutes). */
  windowMs?: number
  /**
   * Runs in the placing transaction right after the order's row is written (the invoice module
   * writes its row beside it): what it throws undoes the order, lease included.
   */
  attach?: (tx: Db, order: { id: string; windowEndsAt: Date; graceUntil: Date }) => Promise<void>
}

/** What one request comes to: an answer, or an error that is its own (a 4xx AppError, say). */
export type PlaceOutcome = { ok: true; answer: CreateOrderAnswer } | { ok: false; error: unknown }

type OrderRow = typeof orders.$inferSelect

/** A new order as it was inserted: what its answer and its order.created event say. */
type PlacedOrder = Pick<
  OrderRow,
  | 'id'
  | 'status'
  | 'createdAt'
  | 'email'
  | 'items'
  | 'totalCents'
  | 'walletAddress'
  | 'windowEndsAt'
  | 'graceUntil'
  | 'nativeAmountUnits'
  | 'nativeRateE8'
  | 'discountCodeId'
  | 'discountCode'
  | 'discountCents'
  | 'chain'
  | 'token'
>

function answerOf(
  order: Pick<
    OrderRow,
    | 'id'
    | 'walletAddress'
    | 'windowEndsAt'
    | 'totalCents'
    | 'nativeAmountUnits'
    | 'nativeRateE8'
    | 'discountCode'
    | 'discountCents'
    | 'chain'
    | 'token'
  >,
  secret: string,
): CreateOrderAnswer {
  return {
    success: true,
    order_id: order.id,
    chain: order.chain,
    token: order.token,
    order_secret: secret,
    wallet_address: order.walletAddress,
    window_ends_at: order.windowEndsAt.toISOString(),
    total: centsToDollars(order.totalCents),
    ...(order.nativeAmountUnits !== null && order.nativeRateE8 !== null
      ? { trx_amount: formatSun(order.nativeAmountUnits), trx_rate: formatRateE8(order.nativeRateE8) }
      : {}),
    ...(order.discountCode !== null
      ? {
          discount_code: order.discountCode,
          subtotal: centsToDollars(order.totalCents + order.discountCents),
          discount: centsToDollars(order.discountCents),
        }
      : {}),
  }
}

/** Places one order (scripts and tests; the storefront goes through an OrderPlacer). */
export async function placeOrder(
  db: Db,
  input: PlaceInput,
  opts: PlaceOrderOptions,
  client?: CheckoutClient,
): Promise<CreateOrderAnswer> {
  const [outcome] = await placeRound(db, [{ input, client }], opts)
  if (!outcome) throw new Error('placeRound answered nothing')
  if (!outcome.ok) throw outcome.error
  return outcome.answer
}

/**
 * Places one round of requests (no two share an idempotency key or a browser: order-batcher.ts
 * sees to that): prices come from the database, never from the buyer; one wallet address is leased
 * to each order for the payment window plus the grace period, in the same transaction as its row.
 * Idempotent under the client's key: a retried request answers the order the first one created.
 * Answers one outcome per request, in order.
 */
export async function placeRound(
  db: Db,
  requests: readonly PlaceRequest[],
  opts: PlaceOrderOptions,
): Promise<PlaceOutcome[]> {
  const outcomes: (PlaceOutcome | undefined)[] = new Array(requests.length)
  const settle = (index: number, outcome: PlaceOutcome) => {
    outcomes[index] = outcome
  }
  try {
    // A retried request whose order exists answers that order.
    const hashes = requests.flatMap((r) =>
      r.input.p_idempotency_key ? [idempotencyKeyHash(r.input.p_idempotency_key)] : [],
    )
    const existing = new Map<string, OrderRow>()
    if (hashes.length > 0) {
      for (const row of await db.select().from(orders).where(inArray(orders.idempotencyKeyHash, hashes))) {
        if (row.idempotencyKeyHash) existing.set(row.idempotencyKeyHash, row)
      }
    }
    const fresh: { index: number; request: PlaceRequest }[] = []
    for (const [index, request] of requests.entries()) {
      const key = request.input.p_idempotency_key
      const prior = key && existing.get(idempotencyKeyHash(key))
      if (key && prior) settle(index, await outcomeOf(() => replay(db, prior, request.input, key)))
      else fresh.push({ index, request })
    }

    const priced = await priceRequests(db, fresh, settle)
    if (priced.length > 0) {
      const rate = opts.trxRate ? await opts.trxRate() : null
      await insertOrders(db, priced, opts, rate, settle)
    }
  } catch (error) {
    if (requests.length === 1) {
      const request = requests[0] as PlaceRequest
      return [await outcomeOf(() => afterFailure(db, request, error))]
    }
    // Something in the shared transaction failed: each request is placed on its own.
    return Promise.all(requests.map(async (r) => (await placeRound(db, [r], opts))[0] as PlaceOutcome))
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('order request not answered') })
}

async function outcomeOf(answer: () => Promise<CreateOrderAnswer>): Promise<PlaceOutcome> {
  try {
    return { ok: true, answer: await answer() }
  } catch (error) {
    return { ok: false, error }
  }
}

/** A lone request's transaction failed: the same key raced in from a retry answers that order. */
async function afterFailure(db: Db, request: PlaceRequest, error: unknown): Promise<CreateOrderAnswer> {
  const key = request.input.p_idempotency_key
  if (key && isUniqueViolation(error)) {
    const [existing] = await db
      .select()
      .from(orders)
      .where(eq(orders.idempotencyKeyHash, idempotencyKeyHash(key)))
    if (existing) return replay(db, existing, request.input, key)
  }
  throw error
}

/** The shared transaction: limits, addresses, rows, key reservations and webhook events. */
async function insertOrders(
  db: Db,
  priced: readonly Priced[],
  opts: PlaceOrderOptions,
  rate: RateResult | null,
  settle: (index: number, outcome: PlaceOutcome) => void,
): Promise<void> {
  const now = new Date()
  const prepared = priced.map((p) => {
    const id = randomUUID()
    const key = p.request.input.p_idempotency_key
    const secret = key ? derivedOrderSecret(key, { id, email: p.request.input.p_email }) : newOrderSecret()
    return { ...p, id, secret }
  })
  const answers = await db.transaction(async (tx) => {
    const answers: { index: number; outcome: PlaceOutcome }[] = []
    let admitted = prepared
    const handovers = new Map<number, string>()
    const earlierInFlight = new Set<number>()
    const withLimits = opts.limits
    if (withLimits) {
      const limited = prepared.filter((p) => p.request.client)
      const admissions = await admitCheckouts(
        tx,
        limited.map((p) => ({
          client: p.request.client as CheckoutClient,
          email: p.request.input.p_email,
          family: familyOfChain[p.request.input.p_chain],
        })),
        withLimits,
        now,
      )
      const turnedDown = new Set<number>()
      limited.forEach((p, i) => {
        const admission = admissions[i]
        if (admission?.handover) handovers.set(p.index, admission.handover)
        if (admission?.earlierInFlight) earlierInFlight.add(p.index)
        if (!admission?.refusal) return
        turnedDown.add(p.index)
        answers.push({
          index: p.index,
          outcome: { ok: true, answer: refused(admission.refusal) },
        })
      })
      admitted = prepared.filter((p) => !turnedDown.has(p.index))
    }
    // Discount codes: checked and their uses counted under the codes' row locks, in request order.
    const discounts = new Map<number, { codeId: number; code: string; discountCents: number }>()
    const withCode = admitted.filter((p) => p.request.input.p_discount_code)
    if (withCode.length > 0) {
      const reservations = await reserveDiscounts(
        tx,
        withCode.map((p) => ({
          code: p.request.input.p_discount_code as string,
          email: p.request.input.p_email,
          items: p.items,
          claimedTotalCents: dollarsToCents(p.request.input.p_total),
        })),
        now,
      )
      const turnedDown = new Set<number>()
      withCode.forEach((p, i) => {
        const reservation = reservations[i]
        if (reservation?.ok) discounts.set(p.index, reservation)
        else {
          turnedDown.add(p.index)
          const answer = refused(reservation?.error ?? 'checkout.createFailed')
          answers.push({ index: p.index, outcome: { ok: true, answer } })
        }
      })
      admitted = admitted.filter((p) => !turnedDown.has(p.index))
    }
    // The lease history starts when the order does: transfers from then on are the order's. An
    // order leases an address of its network's family (an EVM address serves every EVM chain).
    const leased = new Map<string, string>()
    for (const family of chainFamilies) {
      const ofFamily = admitted.filter((p) => familyOfChain[p.request.input.p_chain] === family)
      if (ofFamily.length === 0) continue
      const got = await leaseAddresses(
        tx,
        ofFamily.map((p) => ({
          orderId: p.id,
          preferred: p.request.input.p_wallet_address,
          handover: handovers.get(p.index),
          holder: p.request.client?.networkKey,
        })),
        now,
        family,
      )
      for (const [id, address] of got) leased.set(id, address)
    }
    // A chain's native coin is offered (at a locked rate) where its family takes it (TRON's TRX).
    const native = (cents: number, chain: ChainId) =>
      rate?.status === 'success' && familyOf(chain).nativeCoin(chain)
        ? { nativeAmountUnits: usdCentsToSun(cents, rate.rateE8), nativeRateE8: rate.rateE8 }
        : { nativeAmountUnits: null, nativeRateE8: null }
    const placed = admitted.filter((p) => {
      if (leased.has(p.id)) return true
      answers.push({
        index: p.index,
        outcome: { ok: true, answer: refused('checkout.unavailable') },
      })
      return false
    })
    if (placed.length === 0) return answers
    const rows: PlacedOrder[] = placed.map((p) => {
      const { windowEndsAt, graceUntil } = paymentWindow(now, {
        windowMs: p.request.windowMs ?? opts.windowMs,
        graceMs: opts.graceMs,
      })
      const discount = discounts.get(p.index)
      const totalCents = p.totalCents - (discount?.discountCents ?? 0)
      return {
        id: p.id,
        status: 'pending',
        createdAt: now,
        email: p.request.input.p_email,
        items: p.items,
        totalCents,
        walletAddress: leased.get(p.id) as string,
        windowEndsAt,
        graceUntil,
        discountCodeId: discount?.codeId ?? null,
        discountCode: discount?.code ?? null,
        discountCents: discount?.discountCents ?? 0,
        chain: p.request.input.p_chain,
        token: p.request.input.p_token ?? 'USDT',
        ...native(totalCents, p.request.input.p_chain),
      }
    })
    // One statement, one parameter: the rows as JSON (a query builder's per-value work would cost
    // more than the rest of the batch).
    const values = rows.map((row, i) => {
      const { request, secret } = placed[i] as (typeof placed)[number]
      return {
        id: row.id,
        created_at: now.toISOString(),
        email: row.email,
        items: row.items,
        total_cents: row.totalCents,
        wallet_address: row.walletAddress,
        window_ends_at: row.windowEndsAt.toISOString(),
        grace_until: row.graceUntil.toISOString(),
        idempotency_key_hash: request.input.p_idempotency_key
          ? idempotencyKeyHash(request.input.p_idempotency_key)
          : null,
        secret_hash: secret.hash,
        client_key: request.client?.clientKey ?? null,
        browser_key: request.client?.browserKey ?? null,
        native_amount_units: row.nativeAmountUnits?.toString() ?? null,
        native_rate_e8: row.nativeRateE8?.toString() ?? null,
        locale: request.input.p_locale ?? 'en',
        discount_code_id: row.discountCodeId,
        discount_code: row.discountCode,
        discount_cents: row.discountCents,
        chain: row.chain,
        token: row.token,
      }
    })
    await tx.execute(sql`
      insert into ${orders} (id, created_at, email, items, total_cents, wallet_address, window_ends_at,
        grace_until, idempotency_key_hash, secret_hash, client_key, browser_key, native_amount_units, native_rate_e8,
        locale, discount_code_id, discount_code, discount_cents, chain, token)
      select id, created_at, email, items, total_cents, wallet_address, window_ends_at,
        grace_until, idempotency_key_hash, secret_hash, client_key, browser_key, native_amount_units, native_rate_e8,
        locale, discount_code_id, discount_code, discount_cents, chain, token
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as o(id uuid, created_at timestamptz,
        email text, items jsonb, total_cents bigint, wallet_address text, window_ends_at timestamptz,
        grace_until timestamptz, idempotency_key_hash text, secret_hash text, client_key text,
        browser_key text, native_amount_units bigint, native_rate_e8 bigint, locale text, discount_code_id int,
        discount_code text, discount_cents bigint, chain text, token text)`)
    await reserveKeys(tx, rows)
    await recordOrdersCreated(tx, rows) // webhook
    for (const [i, p] of placed.entries()) {
      const row = rows[i] as PlacedOrder
      await p.request.attach?.(tx, row)
    }
    for (const [i, p] of placed.entries()) {
      answers.push({
        index: p.index,
        outcome: {
          ok: true,
          answer: {
            ...answerOf(rows[i] as PlacedOrder, p.secret.secret),
            ...(earlierInFlight.has(p.index) ? { earlier_payment_confirming: true } : {}),
          },
        },
      })
    }
    return answers
  })
  for (const { index, outcome } of answers) settle(index, outcome)
}

/**
 * A retry of a request (its answer was lost, or the buyer pressed again): the same order and the
 * same secret, derived again from the key, so the one the first answer carried keeps working.
 */
async function replay(
  db: Db,
  order: OrderRow,
  input: CreateOrderInput,
  key: string,
): Promise<CreateOrderAnswer> {
  if (order.email !== input.p_email) {
    throw new AppError('conflict', 'This idempotency key was already used for another order')
  }
  if (order.status !== 'pending') return refused('checkout.createFailed')
  const secret = derivedOrderSecret(key, order)
  // Orders placed before secrets were derived (migration 0015) hold a random one no retry can
  // answer again: the retry's secret replaces it, as it did then.
  if (!orderSecretMatches(order, secret.secret))
    await db.update(orders).set({ secretHash: secret.hash }).where(eq(orders.id, order.id))
  return answerOf(order, secret.secret)
}
