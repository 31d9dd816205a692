import type { FastifyInstance } from 'fastify'
import { orderStatusStreamInputSchema, STATUS_STREAM_PATH } from '../../shared/order-status'
import type { Db } from '../db/client'
import type { Env } from '../env'
import { AppError } from '../errors'
import { rateLimitKey } from '../lib/client-address'
import { orderSecretMatches } from '../orders/order-secret'
import { findOrder } from '../orders/orders.repo'
import { describeZodError } from '../rpc'
import type { OrderWatch } from './order-watch'
import { createStatusStreams } from './status-stream'

/**
 * The payment page's stream of news about its order (status-stream.ts), behind the same order secret
 * as the status call, or, on an invoice's hosted page, the invoice's id when it names the order's
 * invoice (as the status call takes it). Refusals are plain answers before the stream starts: 400 for a malformed body,
 * 404 for an unknown order, 403 without its secret, 429 over the per-client cap and 503 over the
 * shop's (the page then keeps asking every 3 s).
 */
export function registerStatusStreamRoute(
  app: FastifyInstance,
  db: Db,
  watch: OrderWatch,
  env: Env,
  invoiceOfOrder?: (invoiceId: string, orderId: string) => Promise<boolean>,
) {
  const streams = createStatusStreams({
    db,
    watch,
    maxTotal: env.STATUS_STREAMS_MAX,
    maxPerClient: env.STATUS_STREAMS_PER_CLIENT,
    heartbeatMs: env.STATUS_STREAM_HEARTBEAT_MS,
    onError: (err) => app.log.warn({ err }, 'the payment pages’ stream could not read its orders'),
  })
  // Open streams end before the server waits for its connections to close.
  app.addHook('preClose', async () => streams.close())
  app.post(STATUS_STREAM_PATH, async (request, reply) => {
    const parsed = orderStatusStreamInputSchema.safeParse(request.body ?? {})
    if (!parsed.success) throw new AppError('bad_request', describeZodError(parsed.error))
    const order = await findOrder(db, parsed.data.p_order_id)
    if (!order) throw new AppError('not_found', 'Order not found')
    const invoiceId = parsed.data.p_invoice_id
    const allowed =
      orderSecretMatches(order, parsed.data.p_order_secret) ||
      (invoiceId !== undefined && (await invoiceOfOrder?.(invoiceId, order.id)) === true)
    if (!allowed) {
      throw new AppError(
        'forbidden',
        "The order's secret is missing or wrong: this page cannot follow the order",
      )
    }
    const client = rateLimitKey(request)
    const refusal = streams.refusal(client)
    if (refusal === 'per_client') {
      throw AppError.rateLimited(
        'Too many payment pages are open from this address; this page asks every few seconds instead',
        30_000,
      )
    }
    if (refusal === 'total') {
      throw new AppError(
        'unavailable',
        'The shop follows as many payment pages as it can; this page asks every few seconds instead',
        {
          'retry-after': '30',
        },
      )
    }
    reply.hijack()
    await streams.open(order.id, client, reply.raw)
  })
}
