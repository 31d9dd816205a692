import { ACCESS_TOKEN, dashboardMessages, fetchDashboardInputSchema } from '../../shared/dashboard'
import { centsToDollars, microsToDollars } from '../../shared/money'
import { receivedUsdMicros } from '../../shared/trx'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { keysOfOrder } from '../keys/key-stock'
import { createWindowLimiter } from '../lib/window-limiter'
import { findOrderByAccessToken } from '../orders/orders.repo'
import { orderPaymentOf } from '../payments/order-payment'
import { defineRpc } from '../rpc'
import { itemDownloadUrls } from './fulfil-order'

export function dashboardRpcs(database: Database) {
  const { db } = database
  // Guessing tokens is hopeless (192 bits), but a client that keeps failing is stopped anyway.
  const failures = createWindowLimiter({ limit: 20, windowMs: 10 * 60_000 })

  return [
    defineRpc({
      name: 'secure_fetch_dashboard',
      input: fetchDashboardInputSchema,
      handler: async (input, { request }) => {
        // The attempt is taken before the lookup (and given back when the token is found), so
        // parallel guesses cannot all pass a check made before any of them failed.
        const wait = failures.hit(request.ip)
        if (wait > 0) {
          throw AppError.rateLimited(dashboardMessages.tooMany, wait)
        }
        const token = input.p_access_token
        const order = ACCESS_TOKEN.test(token) ? await findOrderByAccessToken(db, token) : undefined
        if (!order) {
          // The same answer for a malformed and an unknown token: it says nothing about any order.
          return { success: false, error: dashboardMessages.notFound }
        }
        failures.refund(request.ip)
        const keys = await keysOfOrder(db, order.id)
        const downloads = await itemDownloadUrls(db, order.items)
        const payment = await orderPaymentOf(db, order)
        const received = receivedUsdMicros(order.amountReceivedUnits, order.trxReceivedSun, order.trxRateE8)
        return {
          success: true,
          order: {
            id: order.id,
            created_at: order.createdAt.toISOString(),
            paid_at: order.paidAt?.toISOString() ?? null,
            status: order.status,
            email: order.email,
            total: centsToDollars(order.totalCents),
            discount_code: order.discountCode,
            discount: centsToDollars(order.discountCents),
            amount_received: microsToDollars(received),
            chain: payment.chain,
            token: payment.token,
            tx_hash: payment.txHash,
            tx_chain: payment.txChain,
            tx_token: payment.txToken,
            tx_url: payment.txUrl,
            late: order.late,
            items: order.items.map((item, index) => {
              const pid = item.product.id
              return {
                product_id: pid,
                name: item.product.name,
                image: item.product.image ?? null,
                quantity: item.quantity,
                price: centsToDollars(item.product.price_cents),
                download_url: downloads[index] ?? null,
                keys: keys.filter((k) => k.productId === pid).map((k) => k.key),
              }
            }),
          },
        }
      },
    }),
  ]
}
