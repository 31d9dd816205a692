import { normalizeTronAddress } from '../../../shared/tron-address'
import { backoffDelay } from '../../lib/backoff'
import { createRequestBudget } from './tron-budget'

// The HTTP layer of the explorer client: one base URL and key, its request budget, and every
// failure of the explorer turned into a value (rate limits pause the budget for the hinted time).

export type TronErrorKind = 'rate_limited' | 'http' | 'timeout' | 'malformed' | 'network'

export interface TronError {
  status: 'error'
  kind: TronErrorKind
  message: string
  /** rate_limited only: how long the client holds back every request from now. */
  retryAfterMs?: number
  /** The HTTP status when the explorer answered with one. */
  httpStatus?: number
}

export type TronResult<T> = ({ status: 'success' } & T) | TronError

export interface TronHttpOptions {
  baseUrl: string
  apiKey?: string
  /** Requests per second for everything sent through this connection. Default 5. */
  maxRps?: number
  /** Per request, from the moment it leaves the queue. Default 10 000. */
  timeoutMs?: number
  /** First pause after a rate limit without a "suspended for N s" hint; doubles each time. Default 1000. */
  backoffBaseMs?: number
  /** Cap of that pause. Default 60 000. */
  maxBackoffMs?: number
  fetch?: typeof fetch
}

export interface RequestInit {
  query?: Record<string, string>
  body?: unknown
  /** Quote int64 amounts before parsing (answers that carry sun amounts). */
  quoteAmounts?: boolean
  /** Leave the budget queue before routine requests. */
  urgent?: boolean
  /** Gives up (a 'timeout' error) when aborted, whether still queued or waiting for the answer. */
  signal?: AbortSignal
}

export interface TronHttp {
  request(path: string, init?: RequestInit): Promise<{ status: 'success'; json: unknown } | TronError>
  /** Epoch ms until which requests are held back after a rate limit (0 when not paused). */
  pausedUntil(): number
}

const TX_ID = /^[0-9a-fA-F]{64}$/
const RATE_LIMIT_BODY = /frequency limit|allowed_rps/i
const MAX_HINT_MS = 600_000
const SUSPENDED_FOR = /suspended for\s*(\d+(?:\.\d+)?)\s*s\b/i

export function tronError(kind: TronErrorKind, message: string, extra: Partial<TronError> = {}): TronError {
  return { status: 'error', kind, message, ...extra }
}

function isTronTxId(value: unknown): value is string {
  return typeof value === 'string' && TX_ID.test(value)
}

export function requireAddress(address: string): string {
  const normalized = normalizeTronAddress(address)
  if (!normalized) throw new TypeError(`Invalid TRON address: ${JSON.stringify(address)}`)
  return normalized
}

export function requireTxId(txid: string): string {
  if (!isTronTxId(txid)) throw new TypeError(`Invalid transaction id: ${JSON.stringify(txid)}`)
  return txid.toLowerCase()
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// JSON.parse turns int64 sun amounts above 2^53 into wrong numbers; quote them before parsing.
function quoteLargeAmounts(text: string): string {
  return text.replace(/"(amount|fee|callValue|call_value)"\s*:\s*(\d{16,})/g, '"$1":"$2"')
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause
    return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message
  }
  return String(err)
}

export function createTronHttp(options: TronHttpOptions): TronHttp {
  const maxRps = options.maxRps ?? 5
  const timeoutMs = options.timeoutMs ?? 10_000
  const backoffBaseMs = options.backoffBaseMs ?? 1000
  const maxBackoffMs = options.maxBackoffMs ?? 60_000
  const fetchImpl = options.fetch ?? fetch
  if (!(maxRps > 0 && Number.isFinite(maxRps))) throw new TypeError('maxRps must be a positive number')
  if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be positive')
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const budget = createRequestBudget(maxRps)
  let consecutiveRateLimits = 0

  function rateLimited(
    path: string,
    httpStatus: number,
    body: string,
    retryAfterHeader: string | null,
  ): TronError {
    consecutiveRateLimits += 1
    const hinted = SUSPENDED_FOR.exec(body)?.[1] ?? retryAfterHeader ?? undefined
    // TronGrid documents suspensions of 1–30 s; a garbled larger figure must not stall the follower for hours.
    const hintMs =
      hinted !== undefined && /^\d+(\.\d+)?$/.test(hinted)
        ? Math.min(Number(hinted) * 1000, MAX_HINT_MS)
        : undefined
    const pauseMs =
      hintMs ?? backoffDelay(consecutiveRateLimits, { baseMs: backoffBaseMs, maxMs: maxBackoffMs })
    const until = budget.pause(pauseMs)
    return tronError(
      'rate_limited',
      `explorer rate limit on ${path} (HTTP ${httpStatus}): ${body.slice(0, 200)}`,
      { retryAfterMs: Math.max(0, until - Date.now()), httpStatus },
    )
  }

  async function request(
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: 'success'; json: unknown } | TronError> {
    const url = new URL(`${baseUrl}${path}`)
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey
    if (init.body !== undefined) headers['content-type'] = 'application/json'

    const gaveUp = () => tronError('timeout', `${path}: the caller stopped waiting`)
    if (!(await budget.acquire(init.urgent, init.signal))) return gaveUp()
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    const callerAbort = () => controller.abort()
    init.signal?.addEventListener('abort', callerAbort, { once: true })
    let status: number
    let text: string
    let retryAfter: string | null
    try {
      const res = await fetchImpl(url, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: controller.signal,
      })
      status = res.status
      retryAfter = res.headers.get('retry-after')
      text = await res.text()
    } catch (err) {
      if (init.signal?.aborted) return gaveUp()
      if (controller.signal.aborted)
        return tronError('timeout', `no answer from ${path} within ${timeoutMs} ms`)
      return tronError('network', `request to ${path} failed: ${errorText(err)}`)
    } finally {
      clearTimeout(timer)
      init.signal?.removeEventListener('abort', callerAbort)
    }

    if (status === 403 || status === 429 || status === 503) return rateLimited(path, status, text, retryAfter)
    if (status < 200 || status >= 300) {
      if (RATE_LIMIT_BODY.test(text)) return rateLimited(path, status, text, retryAfter)
      return tronError('http', `HTTP ${status} from ${path}: ${text.slice(0, 200)}`, { httpStatus: status })
    }
    let json: unknown
    try {
      json = JSON.parse(init.quoteAmounts ? quoteLargeAmounts(text) : text)
    } catch {
      return tronError('malformed', `invalid JSON from ${path}: ${text.slice(0, 100)}`, {
        httpStatus: status,
      })
    }
    // java-tron refuses with 200 {"Error": "..."}, v1 with {"success": false, "error": "..."}. Only that
    // top-level message is searched for rate-limit wording: list data holds attacker-chosen text such as
    // token names, which must not be able to pause the follower.
    if (isObject(json) && (typeof json.Error === 'string' || json.success === false)) {
      const message = String(json.Error ?? json.error ?? 'request refused')
      if (RATE_LIMIT_BODY.test(message)) return rateLimited(path, status, message, retryAfter)
      consecutiveRateLimits = 0
      return tronError('http', `${path} refused: ${message.slice(0, 200)}`, { httpStatus: status })
    }
    consecutiveRateLimits = 0
    return { status: 'success', json }
  }

  return { request, pausedUntil: budget.pausedUntil }
}
