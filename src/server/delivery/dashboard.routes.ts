import { ACCESS_TOKEN, deactivateSeatInputSchema, fetchDashboardInputSchema } from '../../shared/dashboard'
import { centsToDollars, microsToDollars } from '../../shared/money'
import { receivedUsdMicros } from '../../shared/trx'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { refusal, refused } from '../i18n/refusals'
import { keysOfOrder } from '../keys/key-stock'
import { deactivateInstance, keyIdOfOrderInstance, licencesOfOrder, licenceView } from '../keys/licences.repo'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { findOrderByAccessToken } from '../orders/orders.repo'
import { orderPaymentOf } from '../payments/order-payment'
import { dashboardRefunds } from '../refunds/refunds.repo'
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
        const wait = failures.hit(rateLimitKey(request))
        if (wait > 0) {
          throw AppError.rateLimited(refusal('dashboard.tooMany'), wait)
        }
        const token = input.p_access_token
        const order = ACCESS_TOKEN.test(token) ? await findOrderByAccessToken(db, token) : undefined
        if (!order) {
          // The same answer for a malformed and an unknown token: it says nothing about any order.
          return refused('dashboard.notFound')
        }
        failures.refund(rateLimitKey(request))
        const keys = await keysOfOrder(db, order.id)
        const licences = new Map(
          (await licencesOfOrder(db, order.id)).map((l) => [l.key.key, licenceView(l)]),
        )
        const downloads = await itemDownloadUrls(db, order.items)
        const payment = await orderPaymentOf(db, order)
        const received = receivedUsdMicros(
          order.amountReceivedUnits,
          order.nativeReceivedUnits,
          order.nativeRateE8,
        )
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
            refunds: await dashboardRefunds(db, order.id),
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
                licences: keys
                  .filter((k) => k.productId === pid)
                  .flatMap((k) => {
                    const licence = licences.get(k.key)
                    return licence ? [licence] : []
                  }),
              }
            }),
          },
        }
      },
    }),
    defineRpc({
      name: 'secure_deactivate_seat',
      input: deactivateSeatInputSchema,
      handler: async (input, { request }) => {
        const wait = failures.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('dashboard.tooMany'), wait)
        const token = input.p_access_token
        const order = ACCESS_TOKEN.test(token) ? await findOrderByAccessToken(db, token) : undefined
        if (!order) return refused('dashboard.notFound')
        failures.refund(rateLimitKey(request))
        const keyId = await keyIdOfOrderInstance(db, order.id, input.p_instance_id)
        // The buyer may free a seat of a disabled key too: it only ever gives a seat back.
        const outcome = keyId
          ? await deactivateInstance(db, { keyId }, input.p_instance_id, { allowDisabled: true, by: 'buyer' })
          : undefined
        if (outcome?.kind !== 'deactivated') return refused('dashboard.seatNotFound')
        return { success: true }
      },
    }),
  ]
}
