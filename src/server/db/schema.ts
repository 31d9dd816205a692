import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

// The TypeScript schema is the source of truth: `npm run db:generate` writes the SQL
// migrations under drizzle/, which are reviewed, committed and applied at start-up.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** Small key/value facts about the installation (e.g. that the demo seed ran once). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
})

export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  priceCents: integer('price_cents').notNull(),
  image: text('image').notNull(),
  features: jsonb('features').$type<string[]>().notNull(),
  videoId: text('video_id'),
  isFree: boolean('is_free').notNull().default(false),
  downloadUrl: text('download_url'),
  featured: boolean('featured').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** One row (id = 1) holding the admin's overrides of the site-content defaults. */
export const siteContent = pgTable('site_content', {
  id: smallint('id').primaryKey(),
  content: jsonb('content').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const orderStatuses = ['pending', 'paid', 'completed', 'cancelled'] as const
export type OrderStatus = (typeof orderStatuses)[number]

export interface OrderItemSnapshot {
  product: { id: number; name: string; price: number; image?: string; download_url?: string | null }
  quantity: number
}

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    createdAt: createdAt(),
    email: text('email').notNull(),
    items: jsonb('items').$type<OrderItemSnapshot[]>().notNull(),
    /** Integer cents; bigint holds any total a cart can reach (read as a JS number: at most ~10^12). */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    walletAddress: text('wallet_address').notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    /** End of the payment window shown to the buyer. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** End of the late-payment grace period; the address lease lasts until then. */
    graceUntil: timestamp('grace_until', { withTimezone: true }).notNull(),
    idempotencyKey: text('idempotency_key'),
    /** USDT received, in base units (6 decimals). */
    amountReceivedUnits: bigint('amount_received_units', { mode: 'bigint' }).notNull().default(sql`0`),
    /** TRX to send, locked with the rate when the order was placed; null when TRX was not offered. */
    trxAmountSun: bigint('trx_amount_sun', { mode: 'bigint' }),
    /** USD per TRX × 10^8 at order time. */
    trxRateE8: bigint('trx_rate_e8', { mode: 'bigint' }),
    /** Native TRX received, in sun. */
    trxReceivedSun: bigint('trx_received_sun', { mode: 'bigint' }).notNull().default(sql`0`),
    txHash: text('tx_hash'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    late: boolean('late').notNull().default(false),
    accessToken: text('access_token'),
    /** sha256 (hex) of the secret only the placing browser holds; it unlocks the order's full status. */
    secretHash: text('secret_hash'),
    /** sha256 (hex) of the placing client's address: pending orders per client are limited. */
    clientKey: text('client_key'),
    /** sha256 (hex) of the placing browser's checkout cookie: a new checkout releases the earlier order. */
    browserKey: text('browser_key'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** When the payment watcher next asks the explorer about this order's address. */
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while the buyer's payment page is asking for the status: such orders are polled first. */
    watchedUntil: timestamp('watched_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_key_uq').on(t.idempotencyKey),
    uniqueIndex('orders_access_token_uq').on(t.accessToken),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    index('orders_wallet_idx').on(t.walletAddress),
    index('orders_watch_idx').on(t.status, t.nextPollAt),
    index('orders_pending_client_idx').on(t.clientKey).where(sql`status = 'pending'`),
    index('orders_pending_email_idx').on(sql`lower(${t.email})`).where(sql`status = 'pending'`),
    index('orders_pending_browser_idx').on(t.browserKey).where(sql`status = 'pending'`),
    check('orders_status_ck', sql`${t.status} in ('pending', 'paid', 'completed', 'cancelled')`),
    check('orders_total_ck', sql`${t.totalCents} > 0`),
  ],
)

export const walletAddresses = pgTable(
  'wallet_addresses',
  {
    address: text('address').primaryKey(),
    createdAt: createdAt(),
    /** The pending order this address is leased to, if any. */
    leasedOrderId: uuid('leased_order_id'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Block time (ms) of the last payment accepted on this address; older transfers never count again. */
    lastPaymentTs: bigint('last_payment_ts', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('wallet_addresses_leased_order_uq').on(t.leasedOrderId),
    // The lease query's order: free addresses first, oldest first, without sorting the pool.
    index('wallet_addresses_lease_idx').on(t.leaseUntil.asc().nullsFirst(), t.createdAt),
  ],
)

/** Every transfer into one of our addresses that we have seen and accepted or kept. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    /** Null while unmatched: kept for the admin, never dropped. */
    orderId: uuid('order_id'),
    txId: text('tx_id').notNull(),
    token: text('token').$type<'USDT' | 'TRX'>().notNull(),
    /** Base units of the token: USDT 6 decimals, TRX in sun. */
    amountUnits: bigint('amount_units', { mode: 'bigint' }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    blockTimestamp: bigint('block_timestamp', { mode: 'number' }).notNull(),
    late: boolean('late').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_tx_to_token_uq').on(t.txId, t.toAddress, t.token),
    // A transaction pays one order at most; its other transfers to our addresses are kept unmatched.
    uniqueIndex('payments_tx_credited_uq').on(t.txId).where(sql`order_id is not null`),
    index('payments_order_idx').on(t.orderId),
  ],
)

export const licenseKeys = pgTable(
  'license_keys',
  {
    id: serial('id').primaryKey(),
    // No foreign key: deleting a product must leave delivered keys with their orders.
    productId: integer('product_id').notNull(),
    key: text('key').notNull(),
    orderId: uuid('order_id'),
    generated: boolean('generated').notNull().default(false),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('license_keys_key_uq').on(t.key),
    index('license_keys_free_idx').on(t.productId, t.orderId),
    index('license_keys_order_idx').on(t.orderId),
  ],
)

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id'),
    kind: text('kind').notNull(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    textBody: text('text_body').notNull(),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // One mail of a kind per order, whichever process confirmed it.
    uniqueIndex('mail_outbox_order_kind_uq').on(t.orderId, t.kind),
  ],
)

export const adminUsers = pgTable('admin_users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const adminSessions = pgTable(
  'admin_sessions',
  {
    /** sha256 of the cookie's token: a leaked table does not leak live sessions. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId)],
)

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_key_at_idx').on(t.key, t.at)],
)
