import { count, eq, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { ChainFamilyId } from '../../shared/chains'
import type { Db } from '../db/client'
import { mailOutbox, orders, payments, webhookDeliveries } from '../db/schema'
import { type AddressStates, countAddressStates } from '../wallets/wallets.repo'
import { METRIC_PREFIX, type Metrics } from './metrics'

/**
 * The shop's state as gauges, read from the database at scrape time (so every process of a
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

  // One query per scrape for the address gauges: the pool's totals, and the free ones per family
  // (an order leases an address of its chain's family, so one family can run out alone).
  let states: Promise<Record<ChainFamilyId, AddressStates>> | undefined
  const readStates = () => {
    states ??= countAddressStates(db).finally(() => {
      setTimeout(() => {
        states = undefined
      }, 0)
    })
    return states
  }
  const addressState = (key: keyof AddressStates) => async () =>
    Object.values(await readStates()).reduce((sum, s) => sum + s[key], 0)
  metrics.gauge(
    name('wallet_addresses_free'),
    'Wallet addresses a new order could take now',
    addressState('free'),
  )
  metrics.gauge(name('wallet_addresses_leased'), 'Wallet addresses held by an order', addressState('leased'))
  metrics.gauge(
    name('wallet_addresses_cooling'),
    'Wallet addresses resting after their last order before another may take them',
    addressState('cooling'),
  )
  metrics.labeledGauge(
    name('wallet_addresses_free_by_family'),
    'Wallet addresses a new order of the family (tron, evm) could take now',
    'family',
    async () => Object.entries(await readStates()).map(([label, s]) => ({ label, value: s.free })),
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
    name('webhook_deliveries_pending'),
    'Webhook deliveries waiting to be sent or retried',
    rows(webhookDeliveries, eq(webhookDeliveries.status, 'pending')),
  )
  metrics.gauge(
    name('webhook_deliveries_failed'),
    'Webhook deliveries given up after a day of retries',
    rows(webhookDeliveries, eq(webhookDeliveries.status, 'failed')),
  )
  metrics.gauge(
    name('transfers_unmatched'),
    'Transfers to our addresses recorded in the ledger without paying an order',
    rows(payments, eq(payments.status, 'unmatched')),
  )
}
