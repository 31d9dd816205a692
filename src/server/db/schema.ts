import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  type ChainFamilyId,
  type ChainId,
  chainFamilies,
  chainIds,
  firstChain,
  firstFamily,
  type TokenSymbol,
  tokenSymbols,
} from '../../shared/chains'
import type { Locale } from '../../shared/locale'
import type { ProductTranslations } from '../../shared/localize'
import { orderStatusValues } from '../../shared/order-statuses'
import type { RefundToken } from '../../shared/refunds'
import type { UnmatchedReason } from '../../shared/unmatched-reasons'

// The TypeScript schema is the source of truth: `npm run db:generate` writes the SQL
// migrations under drizzle/, which are reviewed, committed and applied at start-up.

/** The checks' lists: chain ids and token symbols (src/shared/chains.ts), as SQL lists. */
const CHAIN_LIST = sql.raw(`(${chainIds.map((c) => `'${c}'`).join(', ')})`)
const TOKEN_LIST = sql.raw(`(${tokenSymbols.map((c) => `'${c}'`).join(', ')})`)
const FAMILY_LIST = sql.raw(`(${chainFamilies.map((c) => `'${c}'`).join(', ')})`)

/**
 * A token amount in base units: an exact integer of up to 78 digits (any uint256; an 18-decimal
 * token passes int64 above $9.22), a bigint in TypeScript.
 */
const tokenUnits = customType<{ data: bigint; driverData: string | number | bigint }>({
  dataType: () => 'numeric(78, 0)',
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(value),
})

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** Small key/value facts about the installation (e.g. that the demo seed ran once). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
})

/**
 * stock_only: keys come from uploaded stock only, reserved when the order is placed (sold out when
 * none is free); stock_then_generated: stock first, generated keys after; none: no key (download).
 */
export const deliveryModes = ['stock_only', 'stock_then_generated', 'none'] as const
export type DeliveryMode = (typeof deliveryModes)[number]

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
  /** How a paid order gets its keys: see deliveryModes. */
  deliveryMode: text('delivery_mode').$type<DeliveryMode>().notNull().default('stock_then_generated'),
  /** Keys left below this count is low stock (the sales view); null = no warning. */
  lowStockThreshold: integer('low_stock_threshold'),
  /** Name, description and features in other languages than English; a missing text falls back to English. */
  translations: jsonb('translations').$type<ProductTranslations>().notNull().default({}),
  /** Machines one key may be activated on (the licence API); null = unlimited. Copied onto each key sold. */
  licenceActivationLimit: integer('licence_activation_limit'),
  /** Days after purchase a key stays valid; null = for ever. Copied onto each key sold. */
  licenceValidityDays: integer('licence_validity_days'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** One row (id = 1) holding the admin's overrides of the site-content defaults. */
export const siteContent = pgTable('site_content', {
  id: smallint('id').primaryKey(),
  content: jsonb('content').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const orderStatuses = orderStatusValues
export type OrderStatus = (typeof orderStatuses)[number]

export type CancelReason = 'buyer' | 'admin' | 'expired'

/**
 * One line of an order as it was placed. The unit price is integer cents (money is never a binary
 * float at rest); answers turn it into the dollar number of the wire with orderItemsOnWire.
 */
export interface OrderItemSnapshot {
  product: { id: number; name: string; price_cents: number; image?: string; download_url?: string | null }
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
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    /** End of the late-payment grace period; the address lease lasts until then. */
    graceUntil: timestamp('grace_until', { withTimezone: true }).notNull(),
    /** sha256 (hex) of the client's idempotency key: a retry finds its order, and its secret is derived from the key. */
    idempotencyKeyHash: text('idempotency_key_hash'),
    /** Stablecoins received, in micro-dollars (6 decimals: USDT's base units on TRON). */
    amountReceivedUnits: bigint('amount_received_units', { mode: 'bigint' }).notNull().default(sql`0`),
    /** The native coin to send (base units: TRX in sun), locked with the rate when the order was placed; null when not offered. */
    nativeAmountUnits: bigint('native_amount_units', { mode: 'bigint' }),
    /** USD per whole native coin × 10^8 at order time. */
    nativeRateE8: bigint('native_rate_e8', { mode: 'bigint' }),
    /** The native coin received, in its base units (TRX: sun). */
    nativeReceivedUnits: bigint('native_received_units', { mode: 'bigint' }).notNull().default(sql`0`),
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
    /** Why a cancelled order ended: 'buyer', 'admin' or 'expired' (the chain passed its grace end). */
    cancelReason: text('cancel_reason').$type<CancelReason>(),
    /** The buyer's language when ordering: the e-mail and the dashboard link speak it. */
    locale: text('locale').$type<Locale>().notNull().default('en'),
    /** The discount code the order was placed with (its id and its text then); null without one. */
    discountCodeId: integer('discount_code_id'),
    discountCode: text('discount_code'),
    /** Integer cents taken off the lines' sum; total_cents is what is due after it. */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    /** The network the buyer chose to pay on (decision 037); every order before it: 'tron'. */
    chain: text('chain').$type<ChainId>().notNull().default(firstChain),
    /** The token the buyer chose; TRON orders also take TRX at the locked rate. */
    token: text('token').$type<TokenSymbol>().notNull().default('USDT'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_key_hash_uq').on(t.idempotencyKeyHash),
    uniqueIndex('orders_access_token_uq').on(t.accessToken),
    // With the id as tie-breaker: the admin list and the CSV export page by (created_at, id).
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_wallet_idx').on(t.walletAddress),
    index('orders_pending_grace_idx').on(t.graceUntil).where(sql`status = 'pending'`),
    // Revenue per day in the admin's sales view.
    index('orders_paid_at_idx').on(t.paidAt).where(sql`paid_at is not null`),
    index('orders_pending_client_idx').on(t.clientKey).where(sql`status = 'pending'`),
    index('orders_pending_email_idx').on(sql`lower(${t.email})`).where(sql`status = 'pending'`),
    index('orders_pending_browser_idx').on(t.browserKey).where(sql`status = 'pending'`),
    check(
      'orders_status_ck',
      sql`${t.status} in ('pending', 'paid', 'completed', 'cancelled', 'refunded', 'partially_refunded')`,
    ),
    check('orders_total_ck', sql`${t.totalCents} > 0`),
    check('orders_discount_ck', sql`${t.discountCents} >= 0`),
    check('orders_chain_ck', sql`${t.chain} in ${CHAIN_LIST}`),
    check('orders_token_ck', sql`${t.token} in ${TOKEN_LIST}`),
    // A code's uses (per code, and per code and e-mail) are counted from its orders.
    index('orders_discount_code_idx')
      .on(t.discountCodeId, sql`lower(${t.email})`)
      .where(sql`discount_code_id is not null`),
    // "E-mail me my orders" lists an address's paid orders.
    index('orders_paid_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`status in ('paid', 'completed', 'refunded', 'partially_refunded')`),
  ],
)

/**
 * Orders per status, kept exact by triggers on orders (drizzle/0020_million_orders.sql): the admin
 * list's total and the sales view read these rows instead of counting every order. A status's count
 * is the sum over its shards (one per writing connection, so concurrent checkouts do not queue).
 */
export const orderStatusCounts = pgTable(
  'order_status_counts',
  {
    status: text('status').$type<OrderStatus>().notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'order_status_counts_pk', columns: [t.status, t.shard] })],
)

/**
 * Per UTC day, kept exact by triggers on orders (drizzle/0026_dashboard_counters.sql): orders
 * created that day and how many of them are paid or completed now; orders paid that day (and paid
 * or completed now) with their sums. The sales view reads these instead of aggregating orders. One
 * row per day and writing connection's shard, as in order_status_counts.
 */
export const orderDayCounts = pgTable(
  'order_day_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    created: bigint('created', { mode: 'number' }).notNull().default(0),
    createdPaid: bigint('created_paid', { mode: 'number' }).notNull().default(0),
    paid: bigint('paid', { mode: 'number' }).notNull().default(0),
    /** Sums of total_cents, amount_received_units, native_received_units and the native coin in USD micros. */
    cents: numeric('cents').notNull().default('0'),
    usdt: numeric('usdt').notNull().default('0'),
    nativeUnits: numeric('native_units').notNull().default('0'),
    nativeMicros: numeric('native_micros').notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'order_day_counts_pk', columns: [t.day, t.shard] })],
)

/** Licence keys per product (left, reserved, sold), kept exact by triggers on license_keys (0026). */
export const productKeyCounts = pgTable(
  'product_key_counts',
  {
    productId: integer('product_id').notNull(),
    shard: smallint('shard').notNull(),
    keysLeft: bigint('keys_left', { mode: 'number' }).notNull().default(0),
    keysReserved: bigint('keys_reserved', { mode: 'number' }).notNull().default(0),
    keysSold: bigint('keys_sold', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'product_key_counts_pk', columns: [t.productId, t.shard] })],
)

export const walletAddresses = pgTable(
  'wallet_addresses',
  {
    address: text('address').primaryKey(),
    createdAt: createdAt(),
    /** The order holding this address while it is pending; null when the address is not leased. */
    leasedOrderId: uuid('leased_order_id'),
    /**
     * After an order ends, its address rests until this time before another order may take it, so a
     * late transfer from the last buyer is never credited to the next one.
     */
    cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
    /** Removed from the pool: never leased again, but the chain follower still records transfers to it (an old buyer may still pay to it). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /**
     * The network (checkout-limits' network key) of the unpaid order that holds this address or
     * whose cool-down it serves; cleared when the order is paid. Counted by the pool guard.
     */
    heldBy: text('held_by'),
    /** When the address was last in use (an order ended, a transfer arrived): leases take the oldest. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** 'tron', 'evm' or 'solana': an order leases an address of its chain's family (decision 037). */
    family: text('family').$type<ChainFamilyId>().notNull().default(firstFamily),
  },
  (t) => [
    uniqueIndex('wallet_addresses_leased_order_uq').on(t.leasedOrderId),
    // In the lease query's own order (nulls first), so a lease reads the first free rows, not the pool.
    index('wallet_addresses_free_idx')
      .on(t.family, t.lastUsedAt.asc().nullsFirst(), t.createdAt.asc())
      .where(sql`leased_order_id is null and removed_at is null`),
    index('wallet_addresses_held_by_idx').on(t.heldBy).where(sql`held_by is not null`),
    check('wallet_addresses_family_ck', sql`${t.family} in ${FAMILY_LIST}`),
  ],
)

/**
 * Which order held which address, and when: a transfer belongs to the order whose lease covers the
 * transfer's block time. Intervals of one address never overlap: an address is leased again only
 * after the previous lease's cool-down has passed.
 */
export const addressLeases = pgTable(
  'address_leases',
  {
    id: serial('id').primaryKey(),
    address: text('address').notNull(),
    orderId: uuid('order_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** When the order ended (paid, cancelled, expired); null while it is pending. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Transfers up to this time are still recorded against the ended order. */
    cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
  },
  (t) => [
    index('address_leases_address_started_idx').on(t.address, t.startedAt),
    index('address_leases_order_idx').on(t.orderId),
    index('address_leases_open_idx').on(t.address).where(sql`ended_at is null`),
  ],
)

/**
 * The account reads (decision 054): how far (block time) each pool address's account lists have
 * been read into the ledger, and when. Stored so that a restart neither reads again nor misses.
 */
export const accountReads = pgTable(
  'account_reads',
  {
    chain: text('chain').$type<ChainId>().notNull(),
    address: text('address').notNull(),
    /** Every transfer to the address with block time up to here is in the ledger. */
    readTo: timestamp('read_to', { withTimezone: true }).notNull(),
    /** When that read was made (the server's clock): the pace's measure. */
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chain, t.address] }),
    index('account_reads_read_at_idx').on(t.chain, t.readAt),
  ],
)

/** A chain follower's progress and its leader lease: one row per chain (id: followerRowId). */
export const followerState = pgTable(
  'follower_state',
  {
    id: smallint('id').primaryKey(),
    chain: text('chain').$type<ChainId>().notNull().default(firstChain),
    /** Last final block fully recorded; its hash is checkpoint_block_id. */
    checkpointBlock: bigint('checkpoint_block', { mode: 'number' }).notNull(),
    checkpointBlockId: text('checkpoint_block_id'),
    /** Block time (ms) of the checkpoint: chain time, which decides expiry. */
    checkpointTime: bigint('checkpoint_time', { mode: 'number' }).notNull(),
    /** Latest solidified height the explorer reported, for the lag figure. */
    solidHead: bigint('solid_head', { mode: 'number' }),
    /** Latest unsolidified head the sighting watcher read (decision 024); null before its first look. */
    headBlock: bigint('head_block', { mode: 'number' }),
    leader: text('leader'),
    leaderUntil: timestamp('leader_until', { withTimezone: true }),
    /** Why the follower stopped (a final block that does not follow the checkpoint); null while it reads. */
    haltedReason: text('halted_reason'),
    /** When it first stopped for that reason; cleared with haltedReason once a block is recorded again. */
    haltedAt: timestamp('halted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('follower_state_chain_uq').on(t.chain),
    check('follower_state_chain_ck', sql`${t.chain} in ${CHAIN_LIST}`),
  ],
)

/** The follower_state row of a chain: fixed, so a row keeps its id whichever process wrote it first. */
export function followerRowId(chain: ChainId): number {
  return chainIds.indexOf(chain) + 1
}

export const paymentStatuses = ['credited', 'unmatched'] as const
export type PaymentStatus = (typeof paymentStatuses)[number]

// Why a transfer to one of our addresses pays no order: the list lives in src/shared, which the
// admin panel shows it from.
export type { UnmatchedReason }

/**
 * The ledger: every genuine transfer into one of our addresses, once. A row either pays an order
 * (credited) or is unmatched with a reason; an unmatched row still names the order whose address it
 * reached when there was one (an overpayment, a transfer after cancelling).
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    chain: text('chain').$type<ChainId>().notNull().default(firstChain),
    /** The order it pays (credited) or whose address it reached (unmatched); null when none. */
    orderId: uuid('order_id'),
    status: text('status').$type<PaymentStatus>().notNull().default('unmatched'),
    reason: text('reason').$type<UnmatchedReason>(),
    txId: text('tx_id').notNull(),
    /** 'log' (a token Transfer log), 'native' (a native coin transfer), 'internal' (native coin sent by a contract). */
    source: text('source').$type<TransferSource>().notNull().default('log'),
    /** Log index in the transaction, or the internal transfer's index; 0 for 'native'. */
    eventIndex: integer('event_index').notNull().default(0),
    token: text('token').$type<TokenSymbol>().notNull(),
    /** Base units of the token on its chain (decimals from the chain's token table; TRX in sun). */
    amountUnits: tokenUnits('amount_units').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }),
    blockTimestamp: bigint('block_timestamp', { mode: 'number' }).notNull(),
    late: boolean('late').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_event_uq').on(t.chain, t.txId, t.source, t.eventIndex),
    index('payments_order_idx').on(t.orderId),
    index('payments_unmatched_idx').on(t.createdAt).where(sql`status = 'unmatched'`),
    index('payments_to_time_idx').on(t.toAddress, t.blockTimestamp),
    check('payments_status_ck', sql`${t.status} in ('credited', 'unmatched')`),
    check('payments_credited_has_order_ck', sql`${t.status} <> 'credited' or ${t.orderId} is not null`),
    check('payments_chain_ck', sql`${t.chain} in ${CHAIN_LIST}`),
    check('payments_token_ck', sql`${t.token} in ${TOKEN_LIST}`),
  ],
)

export type TransferSource = 'log' | 'native' | 'internal' | 'legacy'

export const sightingStatuses = ['seen', 'confirmed', 'dropped', 'failed'] as const
export type SightingStatus = (typeof sightingStatuses)[number]

/**
 * Transfers to open orders' addresses seen in the unsolidified head (decision 024). A sighting never
 * pays, credits, delivers or e-mails: it tells the buyer and the operator what was seen until the
 * follower reads its solidified block ('confirmed': the ledger has it) or the block's height is
 * solidified without it ('dropped'). A transfer that failed on chain is 'failed' with the chain's
 * result (OUT_OF_ENERGY, REVERT, …) and never reaches the ledger.
 */
export const paymentSightings = pgTable(
  'payment_sightings',
  {
    id: serial('id').primaryKey(),
    chain: text('chain').$type<ChainId>().notNull().default(firstChain),
    orderId: uuid('order_id').notNull(),
    txId: text('tx_id').notNull(),
    /** As in the ledger ('log', 'native', 'internal'), and 'call' for a failed token transfer call. */
    source: text('source').$type<SightingSource>().notNull(),
    eventIndex: integer('event_index').notNull().default(0),
    token: text('token').$type<TokenSymbol>().notNull(),
    /** Base units of the token on its chain (decimals from the chain's token table; TRX in sun). */
    amountUnits: tokenUnits('amount_units').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTimestamp: bigint('block_timestamp', { mode: 'number' }).notNull(),
    status: text('status').$type<SightingStatus>().notNull().default('seen'),
    /** The chain's result of a failed transfer: OUT_OF_ENERGY, REVERT, …; null otherwise. */
    failure: text('failure'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_sightings_event_uq').on(t.chain, t.txId, t.source, t.eventIndex),
    index('payment_sightings_order_idx').on(t.orderId),
    index('payment_sightings_open_idx').on(t.blockNumber).where(sql`status = 'seen'`),
    check('payment_sightings_status_ck', sql`${t.status} in ('seen', 'confirmed', 'dropped', 'failed')`),
    check('payment_sightings_failed_ck', sql`(${t.status} = 'failed') = (${t.failure} is not null)`),
    check('payment_sightings_chain_ck', sql`${t.chain} in ${CHAIN_LIST}`),
    check('payment_sightings_token_ck', sql`${t.token} in ${TOKEN_LIST}`),
  ],
)

export type SightingSource = 'log' | 'native' | 'internal' | 'call'

export const licenseKeys = pgTable(
  'license_keys',
  {
    id: serial('id').primaryKey(),
    // No foreign key: deleting a product must leave delivered keys with their orders.
    productId: integer('product_id').notNull(),
    key: text('key').notNull(),
    orderId: uuid('order_id'),
    /** The pending order holding this key (stock-only products); payment turns it into order_id. */
    reservedOrderId: uuid('reserved_order_id'),
    generated: boolean('generated').notNull().default(false),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /** Machines this key may be activated on; null = unlimited (the product's, when sold; the operator may change it). */
    activationLimit: integer('activation_limit'),
    /** When the key stops being valid; null = never. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The product's licence terms were copied onto the key (once, when it was handed out). */
    termsSet: boolean('terms_set').notNull().default(false),
    /** The operator disabled the key. */
    operatorDisabledAt: timestamp('operator_disabled_at', { withTimezone: true }),
    /** Its order disabled the key ('cancelled', 'refunded'); see keys/licence-state.ts. */
    orderDisabledReason: text('order_disabled_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('license_keys_key_uq').on(t.key),
    index('license_keys_free_idx').on(t.productId, t.orderId),
    index('license_keys_order_idx').on(t.orderId),
    index('license_keys_reserved_idx').on(t.reservedOrderId).where(sql`reserved_order_id is not null`),
  ],
)

/** Activations of a licence key: one row per machine ("instance"), deleted when deactivated. */
export const licenseInstances = pgTable(
  'license_instances',
  {
    id: uuid('id').primaryKey(),
    licenseKeyId: integer('license_key_id').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('license_instances_key_idx').on(t.licenseKeyId, t.createdAt)],
)

/** Ed25519 keys signing licence tokens: the newest unretired one signs, retired ones still verify. */
export const licenseSigningKeys = pgTable('license_signing_keys', {
  kid: text('kid').primaryKey(),
  privateKeyPem: text('private_key_pem').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
})

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
  /** Base32 TOTP secret once two-factor login is on; null while it is off. */
  totpSecret: text('totp_secret'),
  /** Secret offered by a setup not yet confirmed with a code. */
  totpPendingSecret: text('totp_pending_secret'),
  /** Time step of the last accepted code: a code of that step or earlier is never accepted again. */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
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

/** Single-use recovery codes of two-factor login, stored as sha256 hashes. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
)

/** One row (id = 1): the operator's settings edited in the admin (src/shared/settings.ts). */
export const shopSettings = pgTable('shop_settings', {
  id: smallint('id').primaryKey(),
  settings: jsonb('settings').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Where signed webhooks go (src/server/webhooks). */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  /** HMAC-SHA256 key; shown to the operator once, never answered again. */
  secret: text('secret').notNull(),
  /** order.paid carries the delivered licence keys only when this is on. */
  includeKeys: boolean('include_keys').notNull().default(false),
  enabled: boolean('enabled').notNull().default(true),
  /**
   * 'greenfield': made through the invoice API; gets its events in BTCPay's shape and signature.
   * 'epusdt': a seller's notify_url (one row per URL), gets the epusdt paid callbacks only.
   */
  kind: text('kind').$type<'stablecart' | 'greenfield' | 'epusdt'>().notNull().default('stablecart'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** The webhook outbox: one row per event and endpoint, written in the transaction of the change. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id').notNull(),
    /** The event's id, the same for every endpoint and every attempt: receivers de-duplicate on it. */
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body sent, exactly. */
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    /** The start of the last answer, or the error. */
    lastResponse: text('last_response'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    uniqueIndex('webhook_deliveries_event_endpoint_uq').on(t.eventId, t.endpointId),
  ],
)

/** Operator notifications: one row per alert sent (or queued), also the memory of the rate limit. */
export const operatorAlerts = pgTable(
  'operator_alerts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** What the alert is about (an order id, a product id, 'pool'): repeats within the window are dropped. */
    subjectKey: text('subject_key').notNull(),
    text: text('text').notNull(),
    telegramStatus: text('telegram_status').$type<'none' | 'pending' | 'sent' | 'failed'>().notNull(),
    telegramAttempts: integer('telegram_attempts').notNull().default(0),
    telegramNextAt: timestamp('telegram_next_at', { withTimezone: true }).notNull().defaultNow(),
    telegramError: text('telegram_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('operator_alerts_kind_key_idx').on(t.kind, t.subjectKey, t.createdAt),
    index('operator_alerts_telegram_due_idx').on(t.telegramStatus, t.telegramNextAt),
  ],
)

/**
 * Who did what in the admin panel, append-only (a trigger refuses updates and deletes; see
 * drizzle/0009_audit_log_append_only.sql). Details never hold passwords or licence keys.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').notNull(),
    /** The admin's user name (for a failed login: the name that was tried). */
    actor: text('actor').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    /** What the action was about: an order id, product id, address... */
    target: text('target'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_action_at_idx').on(t.action, t.at)],
)

export const discountKinds = ['percent', 'fixed'] as const
export type DiscountKind = (typeof discountKinds)[number]

/** Discount codes (src/server/discounts). A code's uses are its orders that are not cancelled. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    /** As the admin typed it; matched case-insensitively and unique that way. */
    code: text('code').notNull(),
    kind: text('kind').$type<DiscountKind>().notNull(),
    /** Percentage in basis points (1 = 0.01 %, 10000 = 100 %), for kind percent. */
    percentBp: integer('percent_bp'),
    /** Integer cents off, for kind fixed. */
    amountCents: bigint('amount_cents', { mode: 'number' }),
    /** The cart's sum before the discount must reach this (cents). */
    minTotalCents: bigint('min_total_cents', { mode: 'number' }),
    /** The discount never exceeds this (cents). */
    maxDiscountCents: bigint('max_discount_cents', { mode: 'number' }),
    /** Products the code applies to; null = every product. */
    productIds: jsonb('product_ids').$type<number[]>(),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    maxUsesPerEmail: integer('max_uses_per_email'),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discount_codes_code_uq').on(sql`lower(${t.code})`),
    check(
      'discount_codes_kind_ck',
      sql`(${t.kind} = 'percent' AND ${t.percentBp} BETWEEN 1 AND 10000 AND ${t.amountCents} IS NULL)
        OR (${t.kind} = 'fixed' AND ${t.amountCents} > 0 AND ${t.percentBp} IS NULL)`,
    ),
  ],
)

/**
 * "E-mail me my orders" links (src/server/order-links): only the sha256 of the token is kept; a
 * link works until expires_at, once.
 */
export const orderLinks = pgTable(
  'order_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('order_links_expires_idx').on(t.expiresAt)],
)

/**
 * "E-mail me my orders" asks not yet answered by mail: the request only writes one (the same work
 * for every address); the order-links worker finds the orders and queues the mail, then deletes it.
 */
export const orderLinkAsks = pgTable('order_link_asks', {
  id: serial('id').primaryKey(),
  email: text('email').notNull(),
  locale: text('locale').$type<Locale>().notNull().default('en'),
  createdAt: createdAt(),
})
export const refundKinds = ['refund', 'return'] as const
export type RefundKind = (typeof refundKinds)[number]
export const refundStatuses = ['awaiting_address', 'ready', 'sent', 'cancelled'] as const
export type RefundStatus = (typeof refundStatuses)[number]

/**
 * Refunds of paid orders and returns of unmatched transfers (src/server/refunds, decision 039). The
 * operator pays from their own wallet; a refund is `sent` only once the chain shows a final transfer
 * of the token to the address, of at least the amount, made after it became `ready`. A transaction
 * proves one refund: tx_id is unique.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<RefundKind>().notNull(),
    /** The order refunded; for a return, the order whose address the transfer reached (if any). */
    orderId: uuid('order_id'),
    /** The unmatched transfer (payments.id) a return gives back. */
    paymentId: integer('payment_id'),
    /** The operator's words (refund), or the transfer's unmatched reason (return). */
    reason: text('reason').notNull(),
    /** The chain it is paid on: the order's (or the returned transfer's) by default. */
    chain: text('chain').$type<ChainId>().notNull().default(firstChain),
    /** The token the buyer paid with (the ledger row): USDT or USDC, or TRX on TRON. */
    token: text('token').$type<RefundToken>().notNull(),
    /** Base units of the token at its decimals on the refund's chain (token-table.ts): TRX in sun. */
    amountUnits: tokenUnits('amount_units').notNull(),
    /** What the amount is worth in USD micros (TRX at the order's locked rate); 0 when unknown. */
    usdMicros: bigint('usd_micros', { mode: 'bigint' }).notNull().default(sql`0`),
    /** A refund that leaves the order fully refunded disables its keys, unless the operator unticked it. */
    disableKeys: boolean('disable_keys').notNull().default(true),
    /** Where the buyer's link and the refund's e-mails go; null when nobody can be written to. */
    email: text('email'),
    locale: text('locale').$type<Locale>().notNull().default('en'),
    status: text('status').$type<RefundStatus>().notNull().default('awaiting_address'),
    /** The buyer's address to be paid (TRON, base58). */
    address: text('address'),
    /** 'buyer' (through the link) or 'operator' (received otherwise; audited). */
    addressSource: text('address_source').$type<'buyer' | 'operator'>(),
    /** The payer's sending address: offered to the buyer as a suggestion only. */
    suggestedAddress: text('suggested_address'),
    /** sha256 of the buyer's one-time link token (the token is only in the e-mail). */
    linkTokenHash: text('link_token_hash'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    linkUsedAt: timestamp('link_used_at', { withTimezone: true }),
    /** The admin form's key: a second click of the same form finds the same refund. */
    requestKey: uuid('request_key').notNull(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /**
     * The chain's own time at ready (its head block's time then): transfers count from after it, not
     * from this server's clock. Null until read (at ready, else the watch's next look).
     */
    readyChainAt: timestamp('ready_chain_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The transaction that proves it, as the chain gave it. */
    txId: text('tx_id'),
    txFrom: text('tx_from'),
    txAmountUnits: tokenUnits('tx_amount_units'),
    txBlockTimestamp: bigint('tx_block_timestamp', { mode: 'number' }),
    /** 'watch' (found on the chain) or 'hash' (the operator's hash, checked). */
    verifiedBy: text('verified_by').$type<'watch' | 'hash'>(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_request_key_uq').on(t.requestKey),
    uniqueIndex('refunds_tx_uq').on(t.txId).where(sql`tx_id is not null`),
    uniqueIndex('refunds_payment_uq')
      .on(t.paymentId)
      .where(sql`payment_id is not null and status <> 'cancelled'`),
    uniqueIndex('refunds_link_uq').on(t.linkTokenHash).where(sql`link_token_hash is not null`),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_ready_idx').on(t.readyAt).where(sql`status = 'ready'`),
    index('refunds_sent_idx').on(t.sentAt).where(sql`status = 'sent'`),
    check('refunds_kind_ck', sql`${t.kind} in ('refund', 'return')`),
    check('refunds_chain_ck', sql`${t.chain} in ${CHAIN_LIST}`),
    check('refunds_token_ck', sql`${t.token} in ('USDT', 'USDC', 'TRX')`),
    check('refunds_amount_ck', sql`${t.amountUnits} > 0`),
    check('refunds_status_ck', sql`${t.status} in ('awaiting_address', 'ready', 'sent', 'cancelled')`),
  ],
)

/** The invoice API's one store (src/server/invoices): its fixed id, made once by migration 0038. */
export const apiStore = pgTable(
  'api_store',
  {
    id: smallint('id').primaryKey(),
    storeId: text('store_id').notNull(),
  },
  (t) => [check('api_store_one_ck', sql`${t.id} = 1`)],
)

/** Keys of the invoice API (src/server/invoices): only a hash kept, shown once when made. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    label: text('label').notNull(),
    /** sha256 (hex) of the key. */
    keyHash: text('key_hash').notNull(),
    /** The key's first characters, so the operator can tell keys apart. */
    keyPrefix: text('key_prefix').notNull(),
    /** Greenfield permission names (src/shared/api-keys.ts). */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
)

/** An invoice of the API: an order (its one row in `orders`) with what the seller's cart sent. */
export const invoices = pgTable(
  'invoices',
  {
    /** The public id: in the checkout link and every answer. */
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** metadata.orderId: the seller's order, indexed for the list's filter and the retry rule. */
    externalOrderId: text('external_order_id'),
    currency: text('currency').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    checkout: jsonb('checkout').$type<Record<string, unknown>>().notNull(),
    /** The operator marked it through the API: 'Invalid' or 'Settled'. */
    marked: text('marked').$type<'Invalid' | 'Settled'>(),
    apiKeyId: integer('api_key_id'),
    /** The Greenfield events recorded for it: each at most once, in order. */
    eventsSent: jsonb('events_sent').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_order_uq').on(t.orderId),
    index('invoices_external_order_idx').on(t.externalOrderId, t.createdAt),
    index('invoices_created_idx').on(t.createdAt, t.id),
    check('invoices_marked_ck', sql`${t.marked} in ('Invalid', 'Settled')`),
  ],
)
