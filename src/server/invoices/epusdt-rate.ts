import { formatRateE8, parseRateE8 } from '../../shared/trx'
import { defaultPriceApiUrl } from '../pricing/trx-price'

// The epusdt route's rate: how much of the seller's fiat one stablecoin is worth (CNY per USDT).
// Either the operator's fixed figure (EPUSDT_RATE=fixed:7.2) or CoinGecko's tether price in that
// fiat, fetched as the TRX rate is (PRICE_API_URL, cached a minute, a failure remembered 30 s).
// Each order locks the rate it was placed at.

export type FiatRateResult = { ok: true; rateE8: bigint; rate: string } | { ok: false; reason: string }

export interface FiatRateSource {
  getRate(): Promise<FiatRateResult>
}

/** Outside this band an answer is broken, not a market move. */
const MIN_RATE = parseRateE8('0.0001') as bigint
const MAX_RATE = parseRateE8('999999') as bigint

export function createFiatRateSource(opts: {
  /** EPUSDT_RATE: 'coingecko' or 'fixed:<fiat per token>'. */
  setting: string
  /** EPUSDT_FIAT, three letters. */
  fiat: string
  baseUrl?: string
  ttlMs?: number
  timeoutMs?: number
  now?: () => number
}): FiatRateSource {
  const now = opts.now ?? Date.now
  const plausible = (rate: bigint | null): FiatRateResult =>
    rate !== null && rate >= MIN_RATE && rate <= MAX_RATE
      ? { ok: true, rateE8: rate, rate: formatRateE8(rate) }
      : { ok: false, reason: 'the rate is not plausible' }
  if (opts.setting.startsWith('fixed:')) {
    const fixed = plausible(parseRateE8(opts.setting.slice('fixed:'.length)))
    return { getRate: async () => fixed }
  }
  const fiat = opts.fiat.toLowerCase()
  const base = (opts.baseUrl ?? defaultPriceApiUrl.coingecko).replace(/\/+$/, '')
  const url = `${base}/api/v3/simple/price?ids=tether&vs_currencies=${encodeURIComponent(fiat)}`
  const ttlMs = opts.ttlMs ?? 60_000
  let cached: { result: FiatRateResult; until: number } | null = null
  let inflight: Promise<FiatRateResult> | null = null

  async function fetchRate(): Promise<FiatRateResult> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 3000) })
      if (!response.ok) return { ok: false, reason: `the price source answered HTTP ${response.status}` }
      const body = (await response.json()) as { tether?: Record<string, unknown> }
      const value = body?.tether?.[fiat]
      // The number's decimal text, never float arithmetic.
      return typeof value === 'number' || typeof value === 'string'
        ? plausible(parseRateE8(String(value)))
        : { ok: false, reason: `the price source has no tether price in ${opts.fiat}` }
    } catch (error) {
      return { ok: false, reason: `the price source is unreachable: ${(error as Error).message}` }
    }
  }

  return {
    async getRate() {
      if (cached && cached.until > now()) return cached.result
      inflight ??= fetchRate().finally(() => {
        inflight = null
      })
      const result = await inflight
      cached = { result, until: now() + (result.ok ? ttlMs : 30_000) }
      return result
    },
  }
}
