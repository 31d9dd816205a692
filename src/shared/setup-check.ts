// The production self-check (npm run doctor, `doctor` in the container, the admin's Setup card):
// what each check found. The server says which check, its state and the figures; each reader words
// it (the CLI in English, the admin in the operator's language).

export const setupCheckIds = [
  'demo_wallets',
  'provider_key',
  'chain',
  'mail',
  'public_url',
  'backups',
  'admin_password',
  'two_factor',
  'clock',
] as const
export type SetupCheckId = (typeof setupCheckIds)[number]

/** ok: nothing to do; warn: fix before long; fail: a sale or money can be lost now (doctor exits 1). */
export type SetupCheckState = 'ok' | 'warn' | 'fail'

export interface SetupCheck {
  id: SetupCheckId
  state: SetupCheckState
  /** Why this state, as a short code the readers word (e.g. 'unset', 'not_https', 'unreachable'). */
  reason: string
  /** The chain of a 'chain' check; null otherwise. */
  chain: string | null
  /** Figures for the wording (counts, seconds, hours, percentages, addresses, error text). */
  facts: Record<string, string | number>
}

export interface SetupReport {
  checkedAt: string
  checks: SetupCheck[]
  /** Whether any check failed: something would lose a sale or money. */
  failing: boolean
}

/** Test mail: sent on demand only (the admin's button, doctor --send-test-mail). */
export interface SetupTestMailResult {
  success: boolean
  to: string | null
  error: string | null
}
