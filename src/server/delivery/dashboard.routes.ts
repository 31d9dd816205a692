import { eq, inArray } from 'drizzle-orm'
import {
  ACCESS_TOKEN,
  dashboardMessages,
  explorerTxUrl,
  fetchDashboardInputSchema,
} from '../../shared/dashboard'
import { sunToUsdMicros } from '../../shared/trx'
import type { Database } from '../db/client'
import { licenseKeys, orders, products } from '../db/schema'
import { AppError } from '../errors'
import { createWindowLimiter } from '../lib/window-limiter'
import { defineRpc } from '../rpc'

export function dashboardRpcs(database: Database) {
  const { db } = database
  // Guessing tokens is hopeless (192 bits), but a client that keeps failing is stopped anyway.
  const failures = createWindowLimiter({ limit: 20, windowMs: 10 * 60_000 })

  return [
    defineRpc({
      name: 'secure_fetch_dashboard',
      input: fetchDashboardInputSchema,
      handler: async (input, { request }) => {
        const wait = failures.check(request.ip)
        if (wait > 0) {
          throw new AppError('rate_limited', dashboardMessages.tooMany, {
            'retry-after': String(Math.ceil(wait / 1000)),
          })
        }
        const token = input.p_access_token
        const [order] = ACCESS_TOKEN.test(token)
          ? await db.select().from(orders).where(eq(orders.accessToken, token))
          : []
        if (!order) {
          failures.hit(request.ip)
          // The same answer for a malformed and an unknown token: it says nothing about any order.
          return { success: false, error: dashboardMessages.notFound }
        }
        const keys = await db
          .select({ productId: licenseKeys.productId, key: licenseKeys.key })
          .from(licenseKeys)
          .where(eq(licenseKeys.orderId, order.id))
          .orderBy(licenseKeys.id)
        const ids = order.items.map((item) => item.product.id)
        const current = new Map(
          (
            await db
              .select({ id: products.id, downloadUrl: products.downloadUrl })
              .from(products)
              .where(inArray(products.id, ids))
          ).map((p) => [p.id, p.downloadUrl]),
        )
        const received =
          order.amountReceivedUnits +
          (order.trxRateE8 === null ? 0n : sunToUsdMicros(order.trxReceivedSun, order.trxRateE8))
        return {
          success: true,
          order: {
            id: order.id,
            created_at: order.createdAt.toISOString(),
            paid_at: order.paidAt?.toISOString() ?? null,
            status: order.status,
            email: order.email,
            total: order.totalCents / 100,
            amount_received: Number(received) / 1_000_000,
            tx_hash: order.txHash,
            tx_url: order.txHash ? explorerTxUrl(order.txHash) : null,
            late: order.late,
            items: order.items.map((item) => {
              const pid = item.product.id
              return {
                product_id: pid,
                name: item.product.name,
                image: item.product.image ?? null,
                quantity: item.quantity,
                price: item.product.price,
                download_url: item.product.download_url ?? current.get(pid) ?? null,
                keys: keys.filter((k) => k.productId === pid).map((k) => k.key),
              }
            }),
          },
        }
      },
    }),
  ]
}
