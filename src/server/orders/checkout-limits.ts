import { createHash, randomBytes } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type ChainFamilyId, chainFamilies, familyOfChain, firstFamily } from '../../shared/chains'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { type Refusal, refusal } from '../i18n/refusals'
import { rateLimitKey, rateLimitNetworkKey } from '../lib/client-address'
import { ordersWithPaymentInFlight } from '../payments/payment-in-flight'
import { holdCounts } from '../wallets/wallets.repo'
import { cancelOrder } from './orders.repo'

// One visitor must not be able to lease the whole address pool: pending orders are limited per
// client (network address) and per e-mail, creations per client per minute (orders.routes.ts),
// and a browser that starts a new checkout gives back the order it started before and keeps its
// address, unless a payment to that order is in flight (decision 041). Many visitors must not be able to either (the pool guard, decision 021): the addresses a
// network's unpaid orders hold or cool are limited, and once the free part of the pool is down to
// the reserve, only a network holding none may take one. The pool is counted per family: an order
// leases an address of its chain's family, so the free addresses and the reserve it is weighed
// against are that family's (a shop with TRON addresses to spare can still run out of EVM ones).

export const checkoutMessages = {
  tooManyPending:
    'You already have orders awaiting payment. Please complete or cancel one, or wait for it to expire.',
  tooManyAttempts: 'Too many orders in a short time. Please wait a minute and try again.',
  networkBusy:
    'Too many unpaid orders come from your network right now. Please complete or cancel one, or try again later.',
} as const

export interface CheckoutLimits {
  /** Orders in their payment window from one client (network address) at once. */
  maxPendingPerClient: number
  /** Orders in their payment window for one e-mail at once. */
  maxPendingPerEmail: number
  /** Addresses the unpaid orders of one network (IPv4 /24, IPv6 /48) may hold or cool at once. */
  maxHeldPerNetwork: number
  /** While at most this share of the pool (percent) is free, only a network holding none may lease. */
  reservePercent: number
  /** How long an address rests after an order this browser replaces is cancelled. */
  cooldownMs: number
}

export interface CheckoutClient {
  /** sha256 of the client's network address (an IPv6 client by its /64). */
  clientKey: string
  /** sha256 of the client's network: its IPv4 /24 or IPv6 /48. */
  networkKey: string
  /** sha256 of the browser's checkout cookie (minted now when the browser sent none). */
  browserKey: string
  /** The browser brought its cookie: it may have earlier orders to give back. */
  returning: boolean
}

const BROWSER_COOKIE = 'stablecart_checkout'
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/
const YEAR_S = 365 * 24 * 60 * 60

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** Identifies the client of a checkout call, giving the browser its checkout cookie when it has none. */
export function checkoutClient(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): CheckoutClient {
  let cookie = request.cookies?.[BROWSER_COOKIE]
  const known = typeof cookie === 'string' && COOKIE_SHAPE.test(cookie)
  if (!known) {
    cookie = randomBytes(32).toString('base64url')
    reply.setCookie(BROWSER_COOKIE, cookie, {
      path: '/rpc',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: YEAR_S,
    })
  }
  return {
    clientKey: sha256(`client ${rateLimitKey(request)}`),
    networkKey: sha256(`network ${rateLimitNetworkKey(request)}`),
    browserKey: sha256(`browser ${cookie}`),
    returning: known,
  }
}

export interface CheckoutEntry {
  client: CheckoutClient
  email: string
  /** The family of the order's chain, whose part of the pool it leases from (default TRON). */
  family?: ChainFamilyId
}

/** Admitted (refusal null) or refused; an admitted browser may keep the address of the order it gave back. */
export interface Admission {
  refusal: Refusal | null
  handover?: string
  /** The browser's earlier order has a payment in flight: it was kept, and this one gets its own address. */
  earlierInFlight?: boolean
}

/**
 * Inside the transaction that creates orders at `now`: gives back each browser's earlier pending
 * orders (only those with no payment in flight), then refuses an entry when its client or its
 * e-mail already holds the most pending orders allowed, or when the pool guard says no to its
 * network, counting the entries admitted before it. Answers one admission per entry. Per-client,
 * per-e-mail and per-network advisory locks make concurrent transactions count one after the
 * other. Entries must not share a browser (the caller groups them so): a browser's second checkout
 * gives back the order of its first.
 */
export async function admitCheckouts(
  tx: Db,
  entries: readonly CheckoutEntry[],
  limits: CheckoutLimits,
  now: Date,
): Promise<Admission[]> {
  if (entries.length === 0) return []
  const emailKeys = entries.map((e) => e.email.trim().toLowerCase())
  const lockKeys = [
    ...entries.map((e) => `client ${e.client.clientKey}`),
    ...entries.map((e) => `network ${e.client.networkKey}`),
    ...emailKeys.map((k) => `email ${k}`),
  ]
  await advisoryLocks(tx, lockKeys)
  const giveBacks = await giveBackEarlier(tx, entries, limits, now)
  // Pending orders in their window, per client and per e-mail: the SQL function of migration 0012,
  // whose plan each connection keeps.
  const clients = JSON.stringify(entries.map((e) => e.client.clientKey))
  const counts = (await tx.execute(
    sql`select kind, key, n from orders_pending_counts(${clients}::jsonb, ${JSON.stringify(emailKeys)}::jsonb)`,
  )) as unknown as { rows: { kind: string; key: string; n: number }[] }
  const held = new Map(counts.rows.map((r) => [`${r.kind} ${r.key}`, Number(r.n)]))
  // A browser that keeps the address it had from the same client takes nothing from the pool. From
  // another client it is weighed like any other request: otherwise one network could take over, by
  // their cookies, the addresses other networks took from the reserve, and those take more.
  // The address it keeps must be of the new order's family, or the new order leases another.
  const familyOf = (entry: CheckoutEntry) => entry.family ?? firstFamily
  const keeps = (entry: CheckoutEntry) => {
    const giveBack = giveBacks.get(entry.client.browserKey)
    return (
      giveBack?.address !== undefined &&
      giveBack.clientKey === entry.client.clientKey &&
      giveBack.family === familyOf(entry)
    )
  }
  const guard = await poolGuard(
    tx,
    entries.map((e) => e.client.networkKey),
    entries.filter((e) => !keeps(e)).map(familyOf),
    limits,
  )
  return entries.map((entry, i) => {
    const clientKey = `client ${entry.client.clientKey}`
    const emailKey = `email ${emailKeys[i]}`
    const byClient = held.get(clientKey) ?? 0
    const byEmail = held.get(emailKey) ?? 0
    if (byClient >= limits.maxPendingPerClient || byEmail >= limits.maxPendingPerEmail)
      return { refusal: refusal('checkout.tooManyPending') }
    if (!keeps(entry) && !guard.admit(entry.client.networkKey, familyOf(entry)))
      return { refusal: refusal('checkout.networkBusy') }
    held.set(clientKey, byClient + 1)
    held.set(emailKey, byEmail + 1)
    const giveBack = giveBacks.get(entry.client.browserKey)
    return {
      refusal: null,
      ...(giveBack?.address ? { handover: giveBack.address } : {}),
      ...(giveBack?.keptInFlight ? { earlierInFlight: true } : {}),
    }
  })
}

// Taken in one order (by lock id) by every transaction, so two never wait on each other in a cycle.
async function advisoryLocks(tx: Db, keys: readonly string[]): Promise<void> {
  await tx.execute(sql`
    select count(pg_advisory_xact_lock(k)) from (
      select distinct hashtext(key) as k from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as key
      order by 1
    ) locks`)
}

interface GiveBack {
  /** The address of the browser's latest order given back, which the new order keeps. */
  address?: string
  /** The client that placed that order. */
  clientKey?: string | null
  /** The family of that order's chain (its address is of that family). */
  family?: ChainFamilyId
  /** An earlier order was kept: a payment to it is in flight (decision 041). */
  keptInFlight: boolean
}

/**
 * Cancels the earlier pending orders of returning browsers for which nothing was seen (no ledger
 * row, no live sighting), ended at `now` (when the new orders start). An order with a payment in
 * flight is not touched: it stays pending and is paid when its transfer is final, and its address
 * stays its own. Answers, per browser, the address of its latest order given back (the new order
 * keeps it) with the client that placed it, and whether an order was kept for its payment.
 */
async function giveBackEarlier(
  tx: Db,
  entries: readonly CheckoutEntry[],
  limits: CheckoutLimits,
  now: Date,
): Promise<Map<string, GiveBack>> {
  const giveBacks = new Map<string, GiveBack>()
  const returning = entries.filter((e) => e.client.returning).map((e) => e.client.browserKey)
  if (returning.length === 0) return giveBacks
  const earlier = await tx
    .select({
      id: orders.id,
      browserKey: orders.browserKey,
      clientKey: orders.clientKey,
      walletAddress: orders.walletAddress,
      chain: orders.chain,
      received: sql<boolean>`(${orders.amountReceivedUnits} > 0 or ${orders.nativeReceivedUnits} > 0)`,
    })
    .from(orders)
    .where(and(inArray(orders.browserKey, returning), eq(orders.status, 'pending')))
    .orderBy(orders.createdAt)
    .for('update')
  const inFlight = await ordersWithPaymentInFlight(
    tx,
    earlier.map((o) => o.id),
  )
  for (const { id, browserKey, clientKey, walletAddress, chain, received } of earlier) {
    if (!browserKey) continue
    const giveBack = giveBacks.get(browserKey) ?? { keptInFlight: false }
    giveBacks.set(browserKey, giveBack)
    if (received || inFlight.has(id)) {
      giveBack.keptInFlight = true
      continue
    }
    await cancelOrder(tx, id, 'buyer', now, limits.cooldownMs)
    giveBack.address = walletAddress
    giveBack.clientKey = clientKey
    giveBack.family = familyOfChain[chain]
  }
  return giveBacks
}

/**
 * The pool guard: whether a network may take a free address of a family, counting those admitted
 * before it. `wanted` is the family of each entry that takes an address from the pool. Near a
 * family's reserve its counts are read again under one lock for that family's pool, so two batches
 * placed side by side (PostgreSQL) cannot both take the last addresses outside it.
 */
async function poolGuard(
  tx: Db,
  networks: readonly string[],
  wanted: readonly ChainFamilyId[],
  limits: CheckoutLimits,
): Promise<{ admit(network: string, family: ChainFamilyId): boolean }> {
  // The families in one fixed order, so two transactions take their reserve locks in the same order.
  const families = chainFamilies.filter((f) => wanted.includes(f))
  // What each network holds of each family's pool (a network's share is per family, decision 052).
  const held = new Map<ChainFamilyId, Map<string, number>>()
  for (const family of families)
    held.set(family, (await holdCounts(tx, networks, { withPool: false, family })).held)
  const heldOf = (family: ChainFamilyId) => held.get(family) ?? new Map<string, number>()
  const reserveOf = (pool: number) => Math.floor((pool * limits.reservePercent) / 100)
  // Networks holding none pass whatever the reserve: only a batch with a network that holds some
  // (or comes twice) needs the free counts, and near a reserve the exact ones.
  const holding =
    new Set(networks).size < networks.length ||
    families.some((f) => networks.some((n) => (heldOf(f).get(n) ?? 0) > 0))
  const pools = new Map<ChainFamilyId, { free: number; reserve: number }>()
  if (holding && limits.reservePercent > 0) {
    for (const family of families) {
      let counts = await holdCounts(tx, networks, { withPool: true, family })
      const taking = wanted.filter((f) => f === family).length
      if (counts.free - taking <= reserveOf(counts.pool)) {
        await advisoryLocks(tx, [`wallets reserve ${family}`])
        counts = await holdCounts(tx, networks, { withPool: true, family })
      }
      held.set(family, counts.held)
      pools.set(family, { free: counts.free, reserve: reserveOf(counts.pool) })
    }
  }
  return {
    admit(network, family) {
      const pool = pools.get(family) ?? { free: 0, reserve: 0 }
      const counts = heldOf(family)
      const n = counts.get(network) ?? 0
      if (n >= limits.maxHeldPerNetwork) return false
      // With nothing free at all the lease answers, as it does for everyone.
      if (n > 0 && pool.free > 0 && pool.free <= pool.reserve) return false
      counts.set(network, n + 1)
      held.set(family, counts)
      pool.free--
      pools.set(family, pool)
      return true
    },
  }
}
