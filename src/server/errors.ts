// Application errors carry a code from a closed list; one handler maps codes to HTTP statuses.

import type { Refusal } from './i18n/refusals'

export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
} as const
export type ErrorCode = keyof typeof errorStatus

export class AppError extends Error {
  /** 429 with Retry-After (rounded up to whole seconds). */
  static rateLimited(message: string | Refusal, waitMs: number): AppError {
    return new AppError('rate_limited', message, {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    })
  }

  /** A buyer-facing refusal made by id: the RPC layer writes it in the buyer's language. */
  readonly refusal?: Refusal

  constructor(
    readonly code: ErrorCode,
    message: string | Refusal,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof message === 'string' ? message : message.text)
    this.name = 'AppError'
    if (typeof message !== 'string') this.refusal = message
  }

  get status(): number {
    return errorStatus[this.code]
  }
}

/** Whether a database error (or one it caused) is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true
  }
  return false
}
