import { toast } from './toast'

// Browser HTTP: 15 s timeout; 3 retries with 1 s × attempt
// delay on network errors and 5xx answers, for calls that are safe to repeat.
const TIMEOUT_MS = 15_000
const RETRIES = 3
const RETRY_DELAY_MS = 1_000

export class RpcError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly network = false,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

export const UNAUTHORIZED_EVENT = 'stablecart:unauthorized'

export interface RpcOptions {
  /** Safe to repeat: reads, and writes carrying an idempotency key. */
  idempotent?: boolean
  /** Don't show the connection-error toast (callers with their own message). */
  quiet?: boolean
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function attempt(name: string, payload: unknown): Promise<Response> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS)
  try {
    return await fetch(`/rpc/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload ?? {}),
      credentials: 'same-origin',
      signal: controller.signal,
    })
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A POST whose answer is read as it arrives (the payment page's stream of server-sent events): no
 * timeout and no retries, the caller opens it again.
 */
export function openStream(path: string, payload: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    credentials: 'same-origin',
    signal,
  })
}

export async function callRpc<T>(name: string, payload?: unknown, options: RpcOptions = {}): Promise<T> {
  const attempts = options.idempotent ? RETRIES + 1 : 1
  let lastError: RpcError | undefined
  for (let i = 1; i <= attempts; i++) {
    let response: Response
    try {
      response = await attempt(name, payload)
    } catch {
      lastError = new RpcError('Connection error. Please check your internet and try again.', 0, true)
      if (i < attempts) await sleep(RETRY_DELAY_MS * i)
      continue
    }
    if (response.status >= 500 && i < attempts) {
      lastError = new RpcError(`Server error (${response.status})`, response.status)
      await sleep(RETRY_DELAY_MS * i)
      continue
    }
    const body = (await response.json().catch(() => null)) as { error?: string } | null
    if (response.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT))
    if (!response.ok) {
      throw new RpcError(body?.error ?? `Request failed (${response.status})`, response.status)
    }
    return body as T
  }
  if (lastError?.network && !options.quiet) {
    toast.error(lastError.message, { id: 'api-error', duration: 3000 })
  }
  throw lastError ?? new RpcError('Request failed', 0, true)
}
