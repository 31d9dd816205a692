import type { I18n } from '@lingui/core'
import { MutationCache, type QueryClient } from '@tanstack/react-query'
import { adminMessages } from '../../../../shared/admin'
import type { AdminMessageId } from '../../../i18n/i18n'
import { createQueryClient } from '../../../lib/query-client'
import { RpcError } from '../../../lib/rpc-client'
import { toast } from '../../../lib/toast'

// The admin panel's one error-toast policy: every failed admin write is told once, here, and no
// component adds its own error toast. A component says only what its failure is called (meta).

export interface AdminMutationMeta extends Record<string, unknown> {
  /** The toast when the server gave no words of its own (5xx, an answer that could not be read). */
  failure?: AdminMessageId
  /**
   * Toast options (an id that replaces an earlier toast of the same kind, a duration), or false
   * when the component shows the failure where it happened instead (a read made on request).
   */
  toast?: { id?: string; duration?: number } | false
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: AdminMutationMeta
  }
}

/** The server said no (`{ success: false, error }`): its words are the toast. */
export class Refused extends Error {
  override name = 'Refused'
}

/** An answer's success, or its refusal thrown for the policy to tell. */
export function accepted<T extends { success: boolean }>(answer: T): Exclude<T, { success: false }> {
  if (!answer.success) throw new Refused((answer as { error?: string }).error ?? '')
  return answer as Exclude<T, { success: false }>
}

/**
 * What a failed admin write shows: nothing when someone else already said it (the RPC client's
 * connection toast for a network failure; the layout's session-expired toast for a 401; the login
 * page's "Access Restricted" for a refused browser), else the server's own words (a refusal, a
 * 4xx message), else the mutation's `meta.failure` (or "The request failed").
 */
export function adminErrorToast(error: unknown): string | null {
  if (error instanceof RpcError) {
    if (error.network || error.status === 401) return null
    if (error.status === 403 && error.message === adminMessages.accessDenied) return null
    if (error.status < 500 && error.message) return error.message
    return ''
  }
  if (error instanceof Refused && error.message) return error.message
  return ''
}

export function createAdminQueryClient(i18n: I18n): QueryClient {
  const mutationCache = new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      const meta = mutation.meta
      if (meta?.toast === false) return
      const text = adminErrorToast(error)
      if (text === null) return
      toast.error(text || i18n._(meta?.failure ?? 'admin.requestFailed'), meta?.toast)
    },
  })
  return createQueryClient({ mutationCache })
}
