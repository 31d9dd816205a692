import { isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'

// Who a rate limit counts: the client's network address, an IPv6 client by its /64 (one home or
// server usually gets a whole /64, so counting each address would give it billions of fresh limits).
// Every limiter keys on rateLimitKey; tools/lint/no-raw-ip-limit.grit refuses request.ip elsewhere
// but as a logged or audited value.

const unmapped = (ip: string) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip)

/** The first `count` groups of an IPv6 address, as prefix text (`2001:db8:1::/48`). */
function ipv6Prefix(ip: string, count: number): string {
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, count)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/${count * 16}`
}

/** A network address as a limit key: an IPv6 address by its /64, an IPv4 one as it is. */
export function clientAddressKey(ip: string): string {
  const address = unmapped(ip)
  return isIP(address) === 6 ? ipv6Prefix(address, 4) : address
}

/**
 * A network address's wider network, as the pool guard counts it: an IPv4 /24 or an IPv6 /48 (what
 * one customer of a hosting or proxy provider usually gets).
 */
export function clientNetworkKey(ip: string): string {
  const address = unmapped(ip)
  if (isIP(address) === 6) return ipv6Prefix(address, 3)
  if (isIP(address) === 4) return `${address.split('.').slice(0, 3).join('.')}.0/24`
  return address
}

/** The key every rate limit counts a request's client by. */
export function rateLimitKey(request: Pick<FastifyRequest, 'ip'>): string {
  return clientAddressKey(request.ip)
}

/** The key the pool guard counts a request's network by. */
export function rateLimitNetworkKey(request: Pick<FastifyRequest, 'ip'>): string {
  return clientNetworkKey(request.ip)
}
