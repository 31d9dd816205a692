import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

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
    paid: order.status === 'paid' || order.status === 'completed',
  }
}
