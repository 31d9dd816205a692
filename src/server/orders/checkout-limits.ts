import { createHash, randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { and, eq, gt, sql } from 'drizzle-orm'
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

export class CheckoutRefused extends Error {}

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

/**
 * Inside the transaction that creates an order: gives back the browser's earlier pending orders
 * (only those that have received nothing), then refuses when the client or the e-mail already holds
 * the most pending orders allowed. Per-client and per-e-mail advisory locks make concurrent
 * requests from one client count one after the other.
 */
export async function admitCheckout(
  tx: Db,
  client: CheckoutClient,
  email: string,
  limits: CheckoutLimits,
): Promise<void> {
  const emailKey = email.trim().toLowerCase()
  for (const key of [`client ${client.clientKey}`, `email ${emailKey}`].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
  }
  if (client.returning) {
    const earlier = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.browserKey, client.browserKey),
          eq(orders.status, 'pending'),
          eq(orders.amountReceivedUnits, 0n),
          eq(orders.trxReceivedSun, 0n),
        ),
      )
    for (const { id } of earlier) await cancelOrder(tx, id, 'buyer', new Date(), limits.cooldownMs)
  }
  const inWindow = and(eq(orders.status, 'pending'), gt(orders.expiresAt, sql`now()`))
  const [byClient] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(inWindow, eq(orders.clientKey, client.clientKey)))
  if ((byClient?.n ?? 0) >= limits.maxPendingPerClient)
    throw new CheckoutRefused(checkoutMessages.tooManyPending)
  const [byEmail] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(inWindow, sql`lower(${orders.email}) = ${emailKey}`))
  if ((byEmail?.n ?? 0) >= limits.maxPendingPerEmail)
    throw new CheckoutRefused(checkoutMessages.tooManyPending)
}
