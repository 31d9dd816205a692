import { count, eq, isNull, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import { mailOutbox, orders, payments, walletAddresses } from '../db/schema'
import { addressIsFree } from '../wallets/wallets.repo'
import { METRIC_PREFIX, type Metrics } from './metrics'

/**
 * The shop's state as gauges, counted in the database at scrape time (so every process of a
 * PostgreSQL deployment reports the same figures). Other modules add theirs with metrics.gauge().
 */
export function registerShopGauges(metrics: Metrics, db: Db): void {
  const rows = (table: PgTable, where: SQL | undefined) => async () => {
    const [row] = await db.select({ n: count() }).from(table).where(where)
    return row?.n ?? 0
  }
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`
  metrics.gauge(
    name('orders_pending'),
    'Orders waiting for payment',
    rows(orders, eq(orders.status, 'pending')),
  )
  metrics.gauge(
    name('wallet_addresses_free'),
    'Wallet addresses a new order could take now',
    rows(walletAddresses, addressIsFree()),
  )
  metrics.gauge(
    name('mail_outbox_pending'),
    'Order e-mails waiting to be sent or retried (the outbox backlog)',
    rows(mailOutbox, eq(mailOutbox.status, 'pending')),
  )
  metrics.gauge(
    name('mail_outbox_failed'),
    'Order e-mails the worker gave up on (admin: Resend)',
    rows(mailOutbox, eq(mailOutbox.status, 'failed')),
  )
  metrics.gauge(
    name('transfers_unmatched'),
    'Transfers to our addresses recorded without an order (kept for the admin to assign)',
    rows(payments, isNull(payments.orderId)),
  )
}
