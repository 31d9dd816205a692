import { createHash } from 'node:crypto'
import { centsToDollars } from '../../shared/money'
import {
  ORDER_LINK_MINUTES,
  ORDER_LINK_TOKEN,
  openOrderLinksInputSchema,
  requestOrderLinksInputSchema,
} from '../../shared/order-links'
import type { Database } from '../db/client'
import type { Env } from '../env'
import { AppError } from '../errors'
import { refusal, refused, requestLocale, told } from '../i18n/refusals'
import { rateLimitKey } from '../lib/client-address'
import type { Signal } from '../lib/signal'
import { createWindowLimiter } from '../lib/window-limiter'
import { defineRpc } from '../rpc'
import { openOrderLinks } from './order-links'
import { recordOrderLinkAsk } from './order-links-worker'

const MINUTE = 60_000

export function orderLinkRpcs(database: Database, env: Env, asked: Signal<void>) {
  const { db } = database
  // Per client: a few asks a quarter of an hour. Per address: a few an hour, whoever asks, so
  // nobody can fill a buyer's inbox.
  const perClient = createWindowLimiter({ limit: env.ORDER_LINKS_PER_CLIENT, windowMs: 15 * MINUTE })
  const perAddress = createWindowLimiter({ limit: env.ORDER_LINKS_PER_ADDRESS, windowMs: 60 * MINUTE })
  const failures = createWindowLimiter({ limit: 20, windowMs: 10 * MINUTE })
  return [
    defineRpc({
      name: 'secure_request_order_links',
      input: requestOrderLinksInputSchema,
      handler: async (input, { request }) => {
        const address = createHash('sha256').update(input.p_email.trim().toLowerCase()).digest('hex')
        const wait = Math.max(perClient.hit(rateLimitKey(request)), perAddress.hit(address))
        if (wait > 0) throw AppError.rateLimited(refusal('orderLinks.tooMany'), wait)
        // Only the ask is recorded, the same for every address; the worker looks the orders up
        // and writes the mail, in the language the buyer asked in, after this answer.
        await recordOrderLinkAsk(db, input.p_email, requestLocale(request.headers))
        asked.emit()
        return told('orderLinks.sent', { minutes: ORDER_LINK_MINUTES })
      },
    }),
    defineRpc({
      name: 'secure_open_order_links',
      input: openOrderLinksInputSchema,
      handler: async (input, { request }) => {
        const wait = failures.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('orderLinks.tooMany'), wait)
        const opened = ORDER_LINK_TOKEN.test(input.p_token) ? await openOrderLinks(db, input.p_token) : null
        if (!opened) return refused('orderLinks.invalid')
        failures.refund(rateLimitKey(request))
        return {
          success: true,
          email: opened.email,
          orders: opened.orders.map((o) => ({
            id: o.id,
            created_at: o.createdAt.toISOString(),
            paid_at: o.paidAt?.toISOString() ?? null,
            total: centsToDollars(o.totalCents),
            discount: centsToDollars(o.discountCents),
            items: o.items.map((i) => ({ name: i.product.name, quantity: i.quantity })),
            dashboard_path: `/dashboard/${o.accessToken}`,
          })),
        }
      },
    }),
  ]
}
