import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

// Webhook targets are chosen by whoever holds the admin session; the shop must not become a way
// to reach its own network. Only http(s), and every address the host resolves to must be public,
// unless WEBHOOK_ALLOW_PRIVATE=true. The check runs in the connection's own DNS lookup, so the
// address checked is the address connected to (no second resolution to rebind).

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6')

/** Loopback, private, link-local, shared, documentation, multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
    if (mapped) return blocked.check(mapped[1] as string, 'ipv4')
    return blocked.check(address, 'ipv6')
  }
  return true
}

export class TargetRefused extends Error {}

/** The URL checks that need no DNS: scheme, credentials, and a literal address. */
export function checkTargetUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new TargetRefused('not a valid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TargetRefused('only http and https URLs')
  if (url.username || url.password) throw new TargetRefused('no credentials in the URL')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    throw new TargetRefused('a loopback address is not allowed')
  if (!allowPrivate && isIP(host) && isPrivateAddress(host))
    throw new TargetRefused(`${host} is a private or loopback address`)
  return url
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** A dns.lookup for http.request that refuses hosts with any private address. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const list = addresses as LookupAddress[]
      const bad = list.find((a) => isPrivateAddress(a.address))
      if (!allowPrivate && bad) {
        const refusal: NodeJS.ErrnoException = new TargetRefused(
          `${hostname} resolves to ${bad.address}, a private or loopback address`,
        )
        refusal.code = 'EPRIVATE'
        return callback(refusal, [])
      }
      if ((options as { all?: boolean }).all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(new Error(`${hostname} has no address`), [])
      callback(null, first.address, first.family)
    })
  }
}
