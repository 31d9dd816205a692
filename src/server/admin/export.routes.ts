import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as z from 'zod'
import { adminOrderStatuses } from '../../shared/admin'
import { csvRow } from '../../shared/cockpit'
import { formatCents } from '../../shared/money'
import { formatTokenUnits } from '../../shared/token-amount'
import { formatSun, receivedUsdMicros } from '../../shared/trx'
import { recordAudit } from '../audit/audit-log'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { AppError } from '../errors'
import { anyInvoice, sellerOrderIds } from '../invoices/invoices.repo'
import { type ExportCursor, type ExportOrdersFilter, exportOrdersPage } from '../orders/order-pages.repo'
import { creditedTxIds, paymentsPage } from '../payments/payment-admin'
import { anyRefundSent, refundsPage, sentRefundsOfOrders } from '../refunds/refunds.repo'
import { describeZodError, type RpcRegistry } from '../rpc'
import { sessionOf } from './admin-auth'

// CSV exports of the admin panel: GET /api/admin/export/{orders,payments,unmatched,refunds}.csv. Rows are
// read in keyset pages and written to the reply as they come, so a shop with 100,000 orders exports
// without holding them in memory. Cells a spreadsheet would run as a formula are neutralised.

export const EXPORT_BATCH = 1000

const ordersQuerySchema = z
  .object({
    search: z.string().trim().max(100).optional(),
    status: z.enum(['all', ...adminOrderStatuses]).optional(),
  })
  .strict()

const emptyQuerySchema = z.object({}).strict()

const iso = (d: Date | null) => d?.toISOString() ?? ''
const usdtText = (units: bigint) => formatSun(units)

/** The UTF-8 byte-order mark lets spreadsheet programs read non-ASCII e-mails and names right. */
const BOM = '\uFEFF'

async function* orderRows(db: Db, filter: ExportOrdersFilter): AsyncGenerator<string> {
  yield BOM +
    csvRow([
      'id',
      'created_at',
      'email',
      'items',
      'total_usd',
      'status',
      'paid_at',
      'received_usdt',
      'received_trx',
      'transaction_ids',
      'chain',
      'token',
      'late',
      'overpaid',
      'discount_code',
      'discount_usd',
      'refunded_usdt',
      'refunded_trx',
      // An invoice's metadata.orderId: the order in the seller's own site or cart.
      'seller_order_id',
    ])
  let cursor: ExportCursor | null = null
  // Most shops have sent no refund: then no page asks what its orders got back.
  const anyRefunds = await anyRefundSent(db)
  // Nor, when the shop has no invoice, what seller's order each is.
  const invoices = await anyInvoice(db)
  for (;;) {
    const rows = await exportOrdersPage(db, filter, cursor, EXPORT_BATCH)
    if (rows.length === 0) return
    const ids = rows.map((r) => r.row.id)
    const [txByOrder, sellerIds] = await Promise.all([
      creditedTxIds(db, ids),
      invoices ? sellerOrderIds(db, ids) : new Map<string, string>(),
    ])
    const refunded = anyRefunds
      ? await sentRefundsOfOrders(
          db,
          rows.map((r) => r.row.id),
        )
      : new Map<string, { usdt: bigint; trx: bigint }>()
    let chunk = ''
    for (const { row } of rows) {
      const back = refunded.get(row.id)
      const txIds = txByOrder.get(row.id) ?? []
      if (row.txHash && !txIds.includes(row.txHash)) txIds.unshift(row.txHash)
      const received = receivedUsdMicros(row.amountReceivedUnits, row.nativeReceivedUnits, row.nativeRateE8)
      chunk += csvRow([
        row.id,
        row.createdAt.toISOString(),
        row.email,
        row.items.map((item) => `${item.quantity}× ${item.product.name}`).join('; '),
        formatCents(row.totalCents),
        row.status,
        iso(row.paidAt),
        usdtText(row.amountReceivedUnits),
        formatSun(row.nativeReceivedUnits),
        txIds.join(' '),
        row.chain,
        row.token,
        row.late ? 'late' : '',
        received > BigInt(row.totalCents) * 10_000n ? 'overpaid' : '',
        row.discountCode ?? '',
        row.discountCode ? formatCents(row.discountCents) : '',
        back ? formatSun(back.usdt) : '',
        back ? formatSun(back.trx) : '',
        sellerIds.get(row.id) ?? '',
      ])
    }
    yield chunk
    const last = rows[rows.length - 1] as (typeof rows)[number]
    cursor = { ts: last.ts, id: last.row.id }
    if (rows.length < EXPORT_BATCH) return
  }
}

async function* paymentRows(db: Db, unmatchedOnly: boolean): AsyncGenerator<string> {
  yield BOM +
    csvRow([
      'id',
      'recorded_at',
      'tx_id',
      'token',
      'amount',
      'from',
      'to',
      'block_time',
      'order_id',
      'status',
      'reason',
      'late',
      'chain',
    ])
  let after = 0
  for (;;) {
    const rows = await paymentsPage(db, { after, unmatchedOnly }, EXPORT_BATCH)
    if (rows.length === 0) return
    let chunk = ''
    for (const p of rows) {
      chunk += csvRow([
        p.id,
        p.createdAt.toISOString(),
        p.txId,
        p.token,
        formatTokenUnits(p.amountUnits, decimalsOf(p.chain, p.token)),
        p.fromAddress,
        p.toAddress,
        new Date(p.blockTimestamp).toISOString(),
        p.orderId ?? '',
        p.status,
        p.reason ?? '',
        p.late ? 'late' : '',
        p.chain,
      ])
    }
    yield chunk
    after = (rows[rows.length - 1] as (typeof rows)[number]).id
    if (rows.length < EXPORT_BATCH) return
  }
}

async function* refundRows(db: Db): AsyncGenerator<string> {
  yield BOM +
    csvRow([
      'id',
      'created_at',
      'kind',
      'order_id',
      'payment_id',
      'reason',
      'token',
      'amount',
      'usd',
      'status',
      'address',
      'address_from',
      'tx_id',
      'sent_at',
      'verified_by',
    ])
  let after = 0
  for (;;) {
    const rows = await refundsPage(db, after, EXPORT_BATCH)
    if (rows.length === 0) return
    let chunk = ''
    for (const r of rows) {
      chunk += csvRow([
        r.id,
        r.createdAt.toISOString(),
        r.kind,
        r.orderId ?? '',
        r.paymentId ?? '',
        r.reason,
        r.token,
        formatSun(r.amountUnits),
        formatCents(Number((r.usdMicros + 9_999n) / 10_000n)),
        r.status,
        r.address ?? '',
        r.addressSource ?? '',
        r.txId ?? '',
        iso(r.sentAt),
        r.verifiedBy ?? '',
      ])
    }
    yield chunk
    after = (rows[rows.length - 1] as (typeof rows)[number]).id
    if (rows.length < EXPORT_BATCH) return
  }
}

function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query ?? {})
  if (!parsed.success) throw new AppError('bad_request', describeZodError(parsed.error))
  return parsed.data
}

function sendCsv(reply: FastifyReply, name: string, rows: AsyncGenerator<string>) {
  const stamp = new Date().toISOString().slice(0, 10)
  return reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${name}-${stamp}.csv"`)
    .send(Readable.from(rows, { objectMode: false }))
}

export function registerExportRoutes(app: FastifyInstance, db: Db, rpc: RpcRegistry): void {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    await rpc.adminGuard({ request, reply })
    return sessionOf(request).username
  }

  app.get('/api/admin/export/orders.csv', async (request, reply) => {
    const actor = await guard(request, reply)
    const query = parseQuery(ordersQuerySchema, request.query)
    await recordAudit(db, request, {
      action: 'export',
      actor,
      target: 'orders',
      details: { search: query.search ?? null, status: query.status ?? 'all' },
    })
    return sendCsv(reply, 'orders', orderRows(db, { status: query.status, search: query.search }))
  })

  app.get('/api/admin/export/refunds.csv', async (request, reply) => {
    const actor = await guard(request, reply)
    parseQuery(emptyQuerySchema, request.query)
    await recordAudit(db, request, { action: 'export', actor, target: 'refunds' })
    return sendCsv(reply, 'refunds', refundRows(db))
  })

  for (const kind of ['payments', 'unmatched'] as const) {
    app.get(`/api/admin/export/${kind}.csv`, async (request, reply) => {
      const actor = await guard(request, reply)
      parseQuery(emptyQuerySchema, request.query)
      await recordAudit(db, request, { action: 'export', actor, target: kind })
      return sendCsv(
        reply,
        kind === 'payments' ? 'payments' : 'unmatched-transfers',
        paymentRows(db, kind === 'unmatched'),
      )
    })
  }
}
