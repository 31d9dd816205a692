import { createHash, randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { cancelOrder } from './orders.repo'

// One visitor must not be able to lease the whole address pool: pending orders are limited per
// client (network address) and per e-mail, creations per client per minute (orders.routes.ts),
// and a browser that starts a new checkout gives back the order it started before.

export const checkoutMessages = {
  tooManyPending:
    'You already have orders awaiting payment. Please complete or cancel one, or wait for it to expire.',
  tooManyAttempts: 'Too many orders in a short time. Please wait a minute and try again.',
} as const

export interface CheckoutLimits {
  /** Orders in their payment window from one client (network address) at once. */
  maxPendingPerClient: number
  /** Orders in their payment window for one e-mail at once. */
  maxPendingPerEmail: number
  /** How long an address rests after an order this browser replaces is cancelled. */
  cooldownMs: number
}

export interface CheckoutClient {
  /** sha256 of the client's network address (an IPv6 client by its /64). */
  clientKey: string
  /** sha256 of the browser's checkout cookie (minted now when the browser sent none). */
  browserKey: string
  /** The browser brought its cookie: it may have earlier orders to give back. */
  returning: boolean
}

const BROWSER_COOKIE = 'stablecart_checkout'
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/
const YEAR_S = 365 * 24 * 60 * 60

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** The client's network address as a limit key: IPv6 clients are counted by their /64. */
export function clientAddressKey(ip: string): string {
  const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  if (isIP(mapped) !== 6) return mapped
  const [head = '', tail = ''] = mapped.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = mapped.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`
}

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
    clientKey: sha256(`client ${clientAddressKey(request.ip)}`),
    browserKey: sha256(`browser ${cookie}`),
    returning: known,
  }
}

export interface CheckoutEntry {
  client: CheckoutClient
  email: string
}

/**
 * Inside the transaction that creates orders: gives back each browser's earlier pending orders
 * (only those that have received nothing), then refuses an entry when its client or its e-mail
 * already holds the most pending orders allowed, counting the entries admitted before it. Answers,
 * per entry, null (admitted) or the refusal. Per-client and per-e-mail advisory locks make concurrent
 * transactions for one client count one after the other. Entries must not share a browser (the
 * caller groups them so): a browser's second checkout gives back the order of its first.
 */
export async function admitCheckouts(
  tx: Db,
  entries: readonly CheckoutEntry[],
  limits: CheckoutLimits,
): Promise<(string | null)[]> {
  if (entries.length === 0) return []
  const emailKeys = entries.map((e) => e.email.trim().toLowerCase())
  const lockKeys = [
    ...entries.map((e) => `client ${e.client.clientKey}`),
    ...emailKeys.map((k) => `email ${k}`),
  ]
  // Taken in one order (by lock id) by every transaction, so two never wait on each other in a cycle.
  await tx.execute(sql`
    select count(pg_advisory_xact_lock(k)) from (
      select distinct hashtext(key) as k from jsonb_array_elements_text(${JSON.stringify(lockKeys)}::jsonb) as key
      order by 1
    ) locks`)
  const returning = entries.filter((e) => e.client.returning).map((e) => e.client.browserKey)
  if (returning.length > 0) {
    const earlier = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          inArray(orders.browserKey, returning),
          eq(orders.status, 'pending'),
          eq(orders.amountReceivedUnits, 0n),
          eq(orders.trxReceivedSun, 0n),
        ),
      )
    for (const { id } of earlier) await cancelOrder(tx, id, 'buyer', new Date(), limits.cooldownMs)
  }
  // Pending orders in their window, per client and per e-mail: the SQL function of migration 0012,
  // whose plan each connection keeps.
  const clients = JSON.stringify(entries.map((e) => e.client.clientKey))
  const counts = (await tx.execute(
    sql`select kind, key, n from orders_pending_counts(${clients}::jsonb, ${JSON.stringify(emailKeys)}::jsonb)`,
  )) as unknown as { rows: { kind: string; key: string; n: number }[] }
  const held = new Map(counts.rows.map((r) => [`${r.kind} ${r.key}`, Number(r.n)]))
  return entries.map((entry, i) => {
    const clientKey = `client ${entry.client.clientKey}`
    const emailKey = `email ${emailKeys[i]}`
    const byClient = held.get(clientKey) ?? 0
    const byEmail = held.get(emailKey) ?? 0
    if (byClient >= limits.maxPendingPerClient || byEmail >= limits.maxPendingPerEmail)
      return checkoutMessages.tooManyPending
    held.set(clientKey, byClient + 1)
    held.set(emailKey, byEmail + 1)
    return null
  })
}
