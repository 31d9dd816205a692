import type { ChainError, ChainResult } from '../chain'
import type { KeyClient } from '../provider-failover'

// One key of one Solana JSON-RPC provider: a call is an expected failure as a value, never a
// throw. A rate limit (HTTP 429) holds this key back for the time the provider names, or a few
// seconds. Answers are checked for the fields the family reads (solana-types.ts).

const PAUSE_AFTER_RATE_LIMIT_MS = 5_000

export interface SolanaRpc extends KeyClient {
  call<T>(method: string, params: unknown[], signal?: AbortSignal): Promise<ChainResult<{ result: T }>>
}

export function createSolanaRpc(opts: {
  url: string
  fetch: typeof globalThis.fetch
  timeoutMs?: number
}): SolanaRpc {
  let pausedUntil = 0
  let id = 0
  async function call<T>(
    method: string,
    params: unknown[],
    signal?: AbortSignal,
  ): Promise<ChainResult<{ result: T }>> {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 10_000)
    let res: Response
    try {
      res = await opts.fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
    } catch (err) {
      if (timeout.aborted) return fail('timeout', `${method}: no answer in time`)
      return fail('network', `${method}: ${(err as Error).message}`)
    }
    if (res.status === 429) {
      const after = Number(res.headers.get('retry-after'))
      const ms = Number.isFinite(after) && after > 0 ? after * 1000 : PAUSE_AFTER_RATE_LIMIT_MS
      pausedUntil = Date.now() + ms
      await res.body?.cancel()
      return { status: 'error', kind: 'rate_limited', message: 'HTTP 429', retryAfterMs: ms, httpStatus: 429 }
    }
    if (!res.ok) {
      await res.body?.cancel()
      return {
        status: 'error',
        kind: 'http',
        message: `${method}: HTTP ${res.status}`,
        httpStatus: res.status,
      }
    }
    let body: { result?: T; error?: { code?: number; message?: string } }
    try {
      body = (await res.json()) as typeof body
    } catch {
      return fail('malformed', `${method}: the answer is not JSON`)
    }
    if (body.error) {
      // -32005 / -32429: a node's own "too many requests".
      if (body.error.code === -32429) {
        pausedUntil = Date.now() + PAUSE_AFTER_RATE_LIMIT_MS
        return {
          status: 'error',
          kind: 'rate_limited',
          message: body.error.message ?? 'rate limited',
          retryAfterMs: PAUSE_AFTER_RATE_LIMIT_MS,
        }
      }
      return fail('http', `${method}: ${body.error.message ?? 'error'} (${body.error.code ?? '?'})`)
    }
    if (!('result' in body)) return fail('malformed', `${method}: the answer has no result`)
    return { status: 'success', result: body.result as T }
  }
  return { pausedUntil: () => (pausedUntil > Date.now() ? pausedUntil : 0), call }
}

function fail(kind: ChainError['kind'], message: string): ChainError {
  return { status: 'error', kind, message }
}
