import { callRpc } from '../../../lib/rpc-client'

// How the admin panel calls the server; each area's calls and hooks are in <area>/api/. Reads are
// safe to retry; writes are sent once unless repeating one changes nothing (the call says so).
// Retrying is the RPC client's job alone (network errors and 5xx).

export type Outcome = { success: true } | { success: false; error: string }

export const read = <T>(name: string, payload: unknown = {}) =>
  callRpc<T>(name, payload, { idempotent: true })
export const write = <T = Outcome>(name: string, payload: unknown = {}) => callRpc<T>(name, payload)

/** The panel's keys start with 'admin': logging out forgets them all. */
export const adminKeys = {
  all: ['admin'] as const,
  session: ['admin', 'session'] as const,
}
