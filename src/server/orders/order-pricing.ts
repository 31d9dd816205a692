import { inArray } from 'drizzle-orm'
import type { CreateOrderInput } from '../../shared/checkout'
import { dollarsToCents } from '../../shared/money'
import type { Db } from '../db/client'
import { type OrderItemSnapshot, products } from '../db/schema'
import { AppError } from '../errors'
import { refused } from '../i18n/refusals'
import type { PlaceOutcome, PlaceRequest } from './place-order'

// Pricing an order: every price comes from the catalogue in the database, never from the buyer. A
// cart's lines of one product are merged, free products are refused (they are downloaded, not
// ordered), and the total the buyer saw must be the one the database gives.

export interface Priced {
  index: number
  request: PlaceRequest
  items: OrderItemSnapshot[]
  totalCents: number
}

/** Prices each request from the catalogue; a request the catalogue refuses is answered at once. */
export async function priceRequests(
  db: Db,
  fresh: readonly { index: number; request: PlaceRequest }[],
  settle: (index: number, outcome: PlaceOutcome) => void,
): Promise<Priced[]> {
  const ids = [...new Set(fresh.flatMap(({ request }) => request.input.p_items.map((l) => l.product.id)))]
  const rows = ids.length === 0 ? [] : await db.select().from(products).where(inArray(products.id, ids))
  const byId = new Map(rows.map((row) => [row.id, row]))
  const priced: Priced[] = []
  for (const { index, request } of fresh) {
    // An order of an amount (an invoice of the API): no catalogue lines, the amount is the total.
    if (request.amountCents !== undefined) {
      if (
        request.input.p_items.length > 0 ||
        !Number.isSafeInteger(request.amountCents) ||
        request.amountCents <= 0
      )
        settle(index, {
          ok: false,
          error: new AppError('bad_request', 'Invalid request: an amount order has no items'),
        })
      else priced.push({ index, request, items: [], totalCents: request.amountCents })
      continue
    }
    try {
      priced.push({ index, request, ...priceOne(request.input.p_items, byId) })
    } catch (error) {
      settle(index, { ok: false, error })
      continue
    }
    const last = priced[priced.length - 1] as Priced
    const claimed = dollarsToCents(request.input.p_total)
    // With a code, the total the buyer saw is the discounted one: checked when the code is applied.
    const mismatch = !request.input.p_discount_code && claimed !== last.totalCents
    if (last.totalCents <= 0 || claimed === null || mismatch) {
      priced.pop()
      settle(index, { ok: true, answer: refused('checkout.invalidTotal') })
    }
  }
  return priced
}

/** Prices cart lines from the catalogue (the discount check prices a cart as placing it would). */
export async function priceCart(
  db: Db,
  lines: CreateOrderInput['p_items'],
): Promise<{ items: OrderItemSnapshot[]; totalCents: number }> {
  const ids = [...new Set(lines.map((l) => l.product.id))]
  const rows = await db.select().from(products).where(inArray(products.id, ids))
  return priceOne(lines, new Map(rows.map((row) => [row.id, row])))
}

function priceOne(
  lines: CreateOrderInput['p_items'],
  byId: Map<number, typeof products.$inferSelect>,
): { items: OrderItemSnapshot[]; totalCents: number } {
  // Lines of one product are merged, so a cart that repeats a product cannot exceed the limit twice.
  const quantities = new Map<number, number>()
  for (const line of lines) {
    quantities.set(line.product.id, (quantities.get(line.product.id) ?? 0) + line.quantity)
  }
  const unknown = [...quantities.keys()].filter((id) => !byId.has(id))
  if (unknown.length > 0)
    throw new AppError('bad_request', `Invalid request: unknown product id(s) ${unknown.join(', ')}`)
  const items: OrderItemSnapshot[] = []
  let totalCents = 0
  for (const [id, quantity] of quantities) {
    const product = byId.get(id) as typeof products.$inferSelect
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
        price_cents: product.priceCents,
        image: product.image,
        download_url: product.downloadUrl,
      },
      quantity,
    })
  }
  return { items, totalCents }
}
