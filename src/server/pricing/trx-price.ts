import { formatRateE8, parseRateE8 } from '../../shared/trx'

export type RateResult =
  | { status: 'success'; rateE8: bigint; rate: string; fetchedAt: number }
  | { status: 'error'; reason: string }

export interface TrxPriceSource {
  /** The TRX/USD rate, at most `ttlMs` old; an error value when the source is down or implausible. */
  getRate(): Promise<RateResult>
}

/** Outside this band an answer is treated as broken, not as a market move. */
const MIN_RATE = parseRateE8('0.001') as bigint
const MAX_RATE = parseRateE8('100') as bigint

export const defaultPriceApiUrl = {
  coingecko: 'https://api.coingecko.com',
  binance: 'https://api.binance.com',
} as const

export interface TrxPriceOptions {
  source: string
  /** Base URL of the source's API (tests point it at the devchain). */
  baseUrl?: string
  ttlMs?: number
  timeoutMs?: number
  /** After a failed fetch, answer the failure without asking again for this long. Default 30 s. */
  retryAfterMs?: number
  fetch?: typeof fetch
  now?: () => number
}

export function createTrxPriceSource(opts: TrxPriceOptions): TrxPriceSource {
  const ttlMs = opts.ttlMs ?? 60_000
  const timeoutMs = opts.timeoutMs ?? 3_000
  const doFetch = opts.fetch ?? fetch
  const now = opts.now ?? Date.now

  if (opts.source.startsWith('fixed:')) {
    const fixed = parseRateE8(opts.source.slice('fixed:'.length))
    return {
      getRate: async () =>
        fixed && fixed >= MIN_RATE && fixed <= MAX_RATE
          ? { status: 'success', rateE8: fixed, rate: formatRateE8(fixed), fetchedAt: now() }
          : { status: 'error', reason: 'the fixed rate is not plausible' },
    }
  }
  if (opts.source !== 'coingecko' && opts.source !== 'binance') {
    throw new TypeError(`Unknown PRICE_SOURCE ${opts.source}`)
  }
  const source = opts.source
  const base = (opts.baseUrl ?? defaultPriceApiUrl[source]).replace(/\/+$/, '')
  const url =
    source === 'coingecko'
      ? `${base}/api/v3/simple/price?ids=tron&vs_currencies=usd`
      : `${base}/api/v3/ticker/price?symbol=TRXUSDT`

  let cached: Extract<RateResult, { status: 'success' }> | null = null
  let inflight: Promise<RateResult> | null = null
  // After a failure checkouts don't wait on a dead source again for a while.
  let failure: { result: RateResult; until: number } | null = null
  const retryAfterMs = opts.retryAfterMs ?? 30_000

  async function fetchRate(): Promise<RateResult> {
    let text: string
    try {
      const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) })
      if (!response.ok) return { status: 'error', reason: `${source} answered HTTP ${response.status}` }
      text = await response.text()
    } catch (error) {
      return {
        status: 'error',
        reason: `${source} unreachable: ${error instanceof Error ? error.message : error}`,
      }
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return { status: 'error', reason: `${source} answered malformed JSON` }
    }
    const raw =
      source === 'coingecko'
        ? (body as { tron?: { usd?: unknown } } | null)?.tron?.usd
        : (body as { symbol?: unknown; price?: unknown } | null)?.symbol === 'TRXUSDT'
          ? (body as { price?: unknown }).price
          : undefined
    // CoinGecko sends a JSON number, Binance a string; both become an exact decimal string.
    const decimal =
      typeof raw === 'number' && Number.isFinite(raw) ? raw.toFixed(8) : typeof raw === 'string' ? raw : null
    const rateE8 = decimal === null ? null : parseRateE8(decimal)
    if (rateE8 === null) return { status: 'error', reason: `${source} answered no usable TRX price` }
    if (rateE8 < MIN_RATE || rateE8 > MAX_RATE) {
      return {
        status: 'error',
        reason: `${source} answered an implausible TRX price (${formatRateE8(rateE8)})`,
      }
    }
    return { status: 'success', rateE8, rate: formatRateE8(rateE8), fetchedAt: now() }
  }

  return {
    async getRate() {
      if (cached && now() - cached.fetchedAt < ttlMs) return cached
      if (failure && now() < failure.until) return failure.result
      // One request at a time: a burst of checkouts shares it.
      inflight ??= fetchRate().finally(() => {
        inflight = null
      })
      const result = await inflight
      if (result.status === 'success') {
        cached = result
        failure = null
      } else {
        failure = { result, until: now() + retryAfterMs }
      }
      // A stale rate is never used: past the TTL the TRX option is hidden instead.
      return result
    },
  }
}
