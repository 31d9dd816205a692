import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { wasPaid } from '../../shared/order-statuses'

// The order id is shared freely (the support page asks for it); the order secret is not: only the
// browser that placed the order holds it, and only it unlocks the token, the hash and the amounts.

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A fresh secret (256 bits, base64url) and the hash kept in orders.secret_hash. */
export function newOrderSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: hashOf(secret) }
}

/**
 * The secret of an order placed under an idempotency key: an HMAC keyed with that key, over the
 * order id and e-mail. A retry with the same key and e-mail answers the same secret, so every
 * secret the buyer was shown works; the key itself is kept only as a hash (idempotencyKeyHash),
 * so the database alone cannot derive it.
 */
export function derivedOrderSecret(
  idempotencyKey: string,
  order: { id: string; email: string },
): { secret: string; hash: string } {
  const secret = createHmac('sha256', idempotencyKey)
    .update(`stablecart order secret\n${order.id}\n${order.email}`)
    .digest('base64url')
  return { secret, hash: hashOf(secret) }
}

/** What orders.idempotency_key_hash holds for a client's idempotency key. */
export function idempotencyKeyHash(key: string): string {
  return hashOf(key)
}

/** True only when the order has a secret and the given one is it (compared in constant time). */
export function orderSecretMatches(
  order: { secretHash: string | null },
  secret: string | undefined,
): boolean {
  if (!order.secretHash || !secret || !SECRET_SHAPE.test(secret)) return false
  const given = Buffer.from(hashOf(secret), 'hex')
  const stored = Buffer.from(order.secretHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

/** What anyone holding only the order id learns: whether it is paid, nothing more. */
export function limitedOrderStatus(order: { id: string; status: string }) {
  return {
    success: true as const,
    order_id: order.id,
    paid: wasPaid(order.status),
  }
}
