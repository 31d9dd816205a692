import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { type CreateOrderAnswer, type CreateOrderInput, messages } from '../../shared/checkout'
import { centsToDollars, dollarsToCents } from '../../shared/money'
import { formatRateE8, formatSun, usdCentsToSun } from '../../shared/trx'
import type { Db } from '../db/client'
import { type OrderItemSnapshot, orders, products } from '../db/schema'
import { AppError } from '../errors'
import { reserveKeys } from '../keys/reservation'
import type { RateResult } from '../pricing/trx-price'
import { leaseAddress } from '../wallets/wallets.repo'
import { recordOrderEvent } from '../webhooks/events'
import { admitCheckout, type CheckoutClient, type CheckoutLimits, CheckoutRefused } from './checkout-limits'
import { newOrderSecret } from './order-secret'

export interface PlaceOrderOptions {
  windowMs: number
  graceMs: number
  /** The TRX/USD rate to lock into the order; TRX is not offered when it fails. */
  trxRate?: () => Promise<RateResult>
  /** Limits on pending orders per client and per e-mail; none when absent (scripts, benchmarks). */
  limits?: CheckoutLimits
}

class NoAddressFree extends Error {}

type OrderRow = typeof orders.$inferSelect

function answerOf(order: OrderRow, secret: string): CreateOrderAnswer {
  return {
    success: true,
    order_id: order.id,
    order_secret: secret,
    wallet_address: order.walletAddress,
    expires_at: order.expiresAt.toISOString(),
    total: centsToDollars(order.totalCents),
    ...(order.trxAmountSun !== null && order.trxRateE8 !== null
      ? { trx_amount: formatSun(order.trxAmountSun), trx_rate: formatRateE8(order.trxRateE8) }
      : {}),
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true
  }
  return false
}

/**
 * Places an order: prices come from the database, never from the buyer; one wallet address is
 * leased to the order for the payment window plus the grace period, in the same transaction as
 * the order row. This must stay idempotent under the client's key: a retried request answers the
 * order the first one created.
 */
export async function placeOrder(
  db: Db,
  input: CreateOrderInput,
  opts: PlaceOrderOptions,
  client?: CheckoutClient,
): Promise<CreateOrderAnswer> {
  const key = input.p_idempotency_key
  if (key) {
    const existing = await findByIdempotencyKey(db, key)
    if (existing) return replay(db, existing, input)
  }

  // Lines of one product are merged, so a cart that repeats a product cannot exceed the limit twice.
  const quantities = new Map<number, number>()
  for (const line of input.p_items) {
    quantities.set(line.product.id, (quantities.get(line.product.id) ?? 0) + line.quantity)
  }
  const ids = [...quantities.keys()]
  const rows = await db.select().from(products).where(inArray(products.id, ids))
  const byId = new Map(rows.map((row) => [row.id, row]))
  const unknown = ids.filter((id) => !byId.has(id))
  if (unknown.length > 0)
    throw new AppError('bad_request', `Invalid request: unknown product id(s) ${unknown.join(', ')}`)

  const items: OrderItemSnapshot[] = []
  let totalCents = 0
  for (const [id, quantity] of quantities) {
    const product = byId.get(id) as (typeof rows)[number]
    if (product.isFree || product.priceCents <= 0) {
      throw new AppError(
        'bad_request',
        `Invalid request: ${product.name} is free and is downloaded, not ordered`,
      )
    }
    if (quantity > 100) throw new AppError('bad_request', `Invalid request: at most 100 of ${product.name}`)
    totalCents += product.priceCents * quantity
    items.push({
      product: {
        id,
        name: product.name,
        price: centsToDollars(product.priceCents),
        image: product.image,
        download_url: product.downloadUrl,
      },
      quantity,
    })
  }

  const claimed = dollarsToCents(input.p_total)
  if (totalCents <= 0 || claimed === null || claimed !== totalCents) {
    return { success: false, error: messages.invalidTotal }
  }

  const rate = opts.trxRate ? await opts.trxRate() : null
  const trx =
    rate?.status === 'success'
      ? { trxAmountSun: usdCentsToSun(totalCents, rate.rateE8), trxRateE8: rate.rateE8 }
      : {}

  const id = randomUUID()
  const now = Date.now()
  const expiresAt = new Date(now + opts.windowMs)
  const graceUntil = new Date(now + opts.windowMs + opts.graceMs)
  const secret = newOrderSecret()
  try {
    const order = await db.transaction(async (tx) => {
      if (client && opts.limits) await admitCheckout(tx, client, input.p_email, opts.limits)
      const createdAt = new Date(now)
      // The lease history starts when the order does: transfers from then on are this order's.
      const address = await leaseAddress(tx, id, createdAt, input.p_wallet_address)
      if (!address) throw new NoAddressFree()
      const [row] = await tx
        .insert(orders)
        .values({
          id,
          createdAt,
          email: input.p_email,
          items,
          totalCents,
          walletAddress: address,
          expiresAt,
          graceUntil,
          idempotencyKey: key ?? null,
          secretHash: secret.hash,
          clientKey: client?.clientKey ?? null,
          browserKey: client?.browserKey ?? null,
          ...trx,
        })
        .returning()
      await reserveKeys(tx, id, items)
      await recordOrderEvent(tx, 'order.created', id) // webhook
      return row as OrderRow
    })
    return answerOf(order, secret.secret)
  } catch (error) {
    if (error instanceof NoAddressFree) return { success: false, error: messages.unavailable }
    if (error instanceof CheckoutRefused) return { success: false, error: error.message }
    // The same key raced in from a retry: answer the order the other request created.
    if (key && isUniqueViolation(error)) {
      const existing = await findByIdempotencyKey(db, key)
      if (existing) return replay(db, existing, input)
    }
    throw error
  }
}

async function findByIdempotencyKey(db: Db, key: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.idempotencyKey, key))
  return row
}

/**
 * A retry of a request whose answer was lost: the same order, with a new secret (only its hash is
 * kept, and the client never saw the first one).
 */
async function replay(db: Db, order: OrderRow, input: CreateOrderInput): Promise<CreateOrderAnswer> {
  if (order.email !== input.p_email) {
    throw new AppError('conflict', 'This idempotency key was already used for another order')
  }
  if (order.status !== 'pending') return { success: false, error: messages.createFailed }
  const secret = newOrderSecret()
  await db.update(orders).set({ secretHash: secret.hash }).where(eq(orders.id, order.id))
  return answerOf(order, secret.secret)
}
