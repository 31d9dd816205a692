import { createHmac, timingSafeEqual } from 'node:crypto'

// Stablecart-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> — the scheme the
// docs/webhooks.md shows receivers how to check. The timestamp inside the signed text lets a receiver refuse
// an old message replayed at it.

export const SIGNATURE_HEADER = 'Stablecart-Signature'

export function signBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')
  return `t=${unixSeconds},v1=${mac}`
}

/** A receiver's check: the signature matches and is at most `toleranceS` old. */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  opts: { toleranceS?: number; now?: number } = {},
): boolean {
  const parts = new Map(header.split(',').map((kv) => kv.split('=', 2) as [string, string]))
  const t = Number(parts.get('t'))
  const v1 = parts.get('v1') ?? ''
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false
  const now = Math.floor((opts.now ?? Date.now()) / 1000)
  if (Math.abs(now - t) > (opts.toleranceS ?? 300)) return false
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest()
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'))
}

/** BTCPay-Sig: sha256=<hex HMAC-SHA256 of the body>, the header Greenfield webhooks carry (no timestamp). */
export const BTCPAY_SIGNATURE_HEADER = 'BTCPay-Sig'

export function btcpaySignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}
