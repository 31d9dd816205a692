import { randomUUID } from 'node:crypto'
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ChainId } from '../../shared/chains'
import type { SetupCheck, SetupReport, SetupTestMailResult } from '../../shared/setup-check'
import { verifyPassword } from '../admin/passwords'
import type { ChainAdapter } from '../chains/chain'
import { FAMILIES, type FamilySettings, familyOf } from '../chains/families'
import type { Db } from '../db/client'
import { adminUsers } from '../db/schema'
import { countDemoWallets } from '../db/seed'
import type { MailTransport } from '../delivery/mail-worker'
import { failingMails } from '../delivery/order-mail.repo'
import type { Env } from '../env'
import { loadSettings } from '../settings/settings'

// The production self-check (decision 057): what a shop still lacks before real money, each finding
// with its fix. One list of checks, read by `npm run doctor` (and `doctor` in the container) and by
// the admin's Setup card. A 'fail' is something that loses a sale or money now; doctor exits 1 on one.

export interface DoctorDeps {
  db: Db
  env: Pick<
    Env,
    | keyof FamilySettings
    | 'SMTP_URL'
    | 'DATA_DIR'
    | 'PUBLIC_URL'
    | 'BACKUP_DIR'
    | 'BACKUP_MAX_AGE_HOURS'
    | 'ADMIN_PASSWORD'
    | 'FOLLOWER_LAG_ALERT_MINUTES'
  >
  /** The enabled chains. */
  chains: readonly ChainAdapter[]
  /** This server's clock (epoch ms); the tests move it. */
  now?: () => number
  fetch?: typeof fetch
}

/** Passwords an attacker tries first: an admin holding one of these can lose the shop's money. */
const WEAK_PASSWORDS = [
  'admin',
  'admin123',
  'password',
  'password1',
  'changeme',
  'stablecart',
  '12345678',
  '123456789',
  '1234567890',
  'qwerty123',
]

/** A server's clock may run at most this far behind the chains' block time. */
const CLOCK_BEHIND_LIMIT_S = 60
/** Share of a day's request budget from which the check warns. */
const BUDGET_WARN_SHARE = 0.8
const REQUEST_TIMEOUT_MS = 5000

type Found = Omit<SetupCheck, 'chain'> & { chain?: string | null }
const found = (c: Found): SetupCheck => ({ ...c, chain: c.chain ?? null })

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300)

async function demoWallets(db: Db): Promise<SetupCheck> {
  const count = await countDemoWallets(db)
  return found({
    id: 'demo_wallets',
    state: count > 0 ? 'fail' : 'ok',
    reason: count > 0 ? 'present' : 'none',
    facts: { count },
  })
}

function providerKey(deps: DoctorDeps): SetupCheck {
  // Each family names its providers used without a key where keyless clients are rationed hard.
  const keyless = FAMILIES.flatMap((f) => f.keylessProviders?.(deps.env) ?? [])
  // The day's request budget of each chain's providers (those with a daily limit).
  let worst: { chain: string; used: number; perDay: number } | null = null
  for (const chain of deps.chains) {
    const budget = chain.providers.requestBudget()
    if (budget.perDay === null || budget.perDay <= 0) continue
    if (!worst || budget.usedToday / budget.perDay > worst.used / worst.perDay)
      worst = { chain: chain.chain, used: budget.usedToday, perDay: budget.perDay }
  }
  if (worst) {
    const share = worst.used / worst.perDay
    // The advice names the settings of the chain whose day is spent (EVM_BSC_…, not TRON's).
    const names = familyOf(worst.chain as ChainId).providerSettings
    const chainKey = worst.chain.toUpperCase()
    const facts = {
      used: worst.used,
      perDay: worst.perDay,
      percent: Math.floor(share * 100),
      keySetting: names.key.replace('<CHAIN>', chainKey),
      providersSetting: names.providers.replace('<CHAIN>', chainKey),
    }
    if (share >= 1)
      return found({ id: 'provider_key', state: 'fail', reason: 'day_spent', chain: worst.chain, facts })
    if (share >= BUDGET_WARN_SHARE)
      return found({
        id: 'provider_key',
        state: 'warn',
        reason: 'day_nearly_spent',
        chain: worst.chain,
        facts,
      })
  }
  if (keyless.length > 0) {
    return found({
      id: 'provider_key',
      state: 'warn',
      reason: 'no_key',
      facts: { providers: keyless.join(', ') },
    })
  }
  return found({
    id: 'provider_key',
    state: 'ok',
    reason: 'keyed',
    facts: worst
      ? { used: worst.used, perDay: worst.perDay, percent: Math.floor((worst.used / worst.perDay) * 100) }
      : {},
  })
}

/** Each enabled chain: its newest final block, and how old it is by this server's clock. */
async function chainChecks(
  deps: DoctorDeps,
  now: number,
): Promise<{ checks: SetupCheck[]; heads: number[] }> {
  const staleS = deps.env.FOLLOWER_LAG_ALERT_MINUTES * 60 + 120
  const heads: number[] = []
  const checks = await Promise.all(
    deps.chains.map(async (chain) => {
      try {
        const head = await withTimeout(chain.finalHead(), REQUEST_TIMEOUT_MS * 2, `${chain.chain}'s provider`)
        if (head.status !== 'success') {
          return found({
            id: 'chain',
            chain: chain.chain,
            state: 'fail',
            reason: 'unreachable',
            facts: { error: head.message },
          })
        }
        heads.push(head.timestamp)
        const ageSeconds = Math.round((now - head.timestamp) / 1000)
        const facts = { block: head.number, ageSeconds }
        return ageSeconds > staleS
          ? found({
              id: 'chain',
              chain: chain.chain,
              state: 'fail',
              reason: 'stale',
              facts: { ...facts, limitSeconds: staleS },
            })
          : found({ id: 'chain', chain: chain.chain, state: 'ok', reason: 'current', facts })
      } catch (error) {
        return found({
          id: 'chain',
          chain: chain.chain,
          state: 'fail',
          reason: 'unreachable',
          facts: { error: messageOf(error) },
        })
      }
    }),
  )
  return { checks, heads }
}

/** The server's clock against the newest final block time of the chains that answered. */
function clock(heads: number[], now: number): SetupCheck {
  if (heads.length === 0) return found({ id: 'clock', state: 'warn', reason: 'no_chain', facts: {} })
  const newest = Math.max(...heads)
  const behindSeconds = Math.round((newest - now) / 1000)
  if (behindSeconds > CLOCK_BEHIND_LIMIT_S)
    return found({
      id: 'clock',
      state: 'fail',
      reason: 'behind',
      facts: { seconds: behindSeconds, limitSeconds: CLOCK_BEHIND_LIMIT_S },
    })
  return found({
    id: 'clock',
    state: 'ok',
    reason: 'in_step',
    facts: { seconds: Math.max(0, Math.round((now - newest) / 1000)) },
  })
}

async function mail(deps: DoctorDeps): Promise<SetupCheck> {
  const failing = await failingMails(deps.db)
  if (failing.count > 0)
    return found({
      id: 'mail',
      state: 'fail',
      reason: 'failing',
      facts: { count: failing.count, error: failing.lastError ?? '' },
    })
  if (!deps.env.SMTP_URL)
    return found({
      id: 'mail',
      state: 'warn',
      reason: 'no_smtp',
      facts: { outbox: join(deps.env.DATA_DIR, 'outbox') },
    })
  const { operatorEmail } = await loadSettings(deps.db)
  if (!operatorEmail) return found({ id: 'mail', state: 'warn', reason: 'no_operator_email', facts: {} })
  return found({ id: 'mail', state: 'ok', reason: 'configured', facts: { to: operatorEmail } })
}

async function publicUrl(deps: DoctorDeps): Promise<SetupCheck> {
  const url = deps.env.PUBLIC_URL
  if (!url) return found({ id: 'public_url', state: 'warn', reason: 'unset', facts: {} })
  const health = new URL('/api/health', url).href
  try {
    const res = await (deps.fetch ?? fetch)(health, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: 'manual',
    })
    if (!res.ok)
      return found({
        id: 'public_url',
        state: 'warn',
        reason: 'unreachable',
        facts: { url, error: `HTTP ${res.status}` },
      })
  } catch (error) {
    return found({
      id: 'public_url',
      state: 'warn',
      reason: 'unreachable',
      facts: { url, error: messageOf(error) },
    })
  }
  if (new URL(url).protocol !== 'https:')
    return found({ id: 'public_url', state: 'warn', reason: 'not_https', facts: { url } })
  return found({ id: 'public_url', state: 'ok', reason: 'reachable', facts: { url } })
}

/** Backup files as npm run backup names them, newest first. */
export function listBackups(dir: string): { file: string; mtimeMs: number }[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .filter((n) => /^stablecart-(pglite|postgres)-.+\.(tar\.gz|dump)$/.test(n))
    .flatMap((n) => {
      try {
        const s = statSync(join(dir, n))
        return s.isFile() && s.size > 0 ? [{ file: join(dir, n), mtimeMs: s.mtimeMs }] : []
      } catch {
        return []
      }
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
}

function backups(deps: DoctorDeps, now: number): SetupCheck {
  const dir = resolve(deps.env.BACKUP_DIR)
  const [newest] = listBackups(dir)
  const maxHours = deps.env.BACKUP_MAX_AGE_HOURS
  if (!newest) return found({ id: 'backups', state: 'warn', reason: 'none', facts: { dir, maxHours } })
  const hours = Math.max(0, Math.floor((now - newest.mtimeMs) / 3_600_000))
  const facts = { dir, file: newest.file, hours, maxHours }
  return hours >= maxHours
    ? found({ id: 'backups', state: 'warn', reason: 'old', facts })
    : found({ id: 'backups', state: 'ok', reason: 'recent', facts })
}

/**
 * Whether a password hash is one of the common passwords (or the username), or ADMIN_PASSWORD.
 * A dozen scrypt hashes a look: kept per hash, so checking again costs nothing until it changes.
 */
const verdicts = new Map<string, 'weak' | 'from_env' | 'own'>()
async function passwordVerdict(username: string, hash: string, envPassword: string | undefined) {
  const key = `${username}\u0000${hash}\u0000${envPassword ?? ''}`
  const known = verdicts.get(key)
  if (known) return known
  let verdict: 'weak' | 'from_env' | 'own' = 'own'
  for (const guess of [...WEAK_PASSWORDS, username]) {
    if (await verifyPassword(guess, hash)) {
      verdict = 'weak'
      break
    }
  }
  if (verdict === 'own' && envPassword && (await verifyPassword(envPassword, hash))) verdict = 'from_env'
  if (verdicts.size > 100) verdicts.clear()
  verdicts.set(key, verdict)
  return verdict
}

async function adminAccounts(deps: DoctorDeps): Promise<SetupCheck[]> {
  const admins = await deps.db
    .select({
      username: adminUsers.username,
      passwordHash: adminUsers.passwordHash,
      totp: adminUsers.totpSecret,
    })
    .from(adminUsers)
  const weak: string[] = []
  const fromEnv: string[] = []
  for (const admin of admins) {
    const verdict = await passwordVerdict(admin.username, admin.passwordHash, deps.env.ADMIN_PASSWORD)
    if (verdict === 'weak') weak.push(admin.username)
    else if (verdict === 'from_env') fromEnv.push(admin.username)
  }
  const password =
    weak.length > 0
      ? found({ id: 'admin_password', state: 'fail', reason: 'weak', facts: { admins: weak.join(', ') } })
      : fromEnv.length > 0
        ? found({
            id: 'admin_password',
            state: 'warn',
            reason: 'from_env',
            facts: { admins: fromEnv.join(', ') },
          })
        : found({ id: 'admin_password', state: 'ok', reason: 'own', facts: { count: admins.length } })
  const without = admins.filter((a) => a.totp === null).map((a) => a.username)
  const twoFactor =
    without.length > 0
      ? found({ id: 'two_factor', state: 'warn', reason: 'off', facts: { admins: without.join(', ') } })
      : found({ id: 'two_factor', state: 'ok', reason: 'on', facts: { count: admins.length } })
  return [password, twoFactor]
}

/** Every check, in the order the operator reads them. */
export async function runSetupChecks(deps: DoctorDeps): Promise<SetupReport> {
  const now = (deps.now ?? Date.now)()
  const [demo, chains, mailCheck, url, admin] = await Promise.all([
    demoWallets(deps.db),
    chainChecks(deps, now),
    mail(deps),
    publicUrl(deps),
    adminAccounts(deps),
  ])
  // After the chains were asked: their requests count in the day's budget.
  const checks = [
    demo,
    providerKey(deps),
    ...chains.checks,
    clock(chains.heads, now),
    mailCheck,
    url,
    backups(deps, now),
    ...admin,
  ]
  return { checkedAt: new Date(now).toISOString(), checks, failing: checks.some((c) => c.state === 'fail') }
}

/** A test mail to the operator's address (the admin's Settings), through the configured transport. */
export async function sendSetupTestMail(
  db: Db,
  transport: MailTransport | null,
  from: string,
): Promise<SetupTestMailResult> {
  const { operatorEmail } = await loadSettings(db)
  if (!operatorEmail)
    return { success: false, to: null, error: 'No operator e-mail is set (admin Settings).' }
  if (!transport)
    return {
      success: false,
      to: operatorEmail,
      error: 'No SMTP_URL is set: mail is written to the outbox folder.',
    }
  try {
    await withTimeout(
      transport.send({
        from,
        to: operatorEmail,
        subject: 'Stablecart test mail',
        text: "This test mail was sent by the shop's self-check: the shop can send mail to you and to buyers.",
        html: "<p>This test mail was sent by the shop's self-check: the shop can send mail to you and to buyers.</p>",
        messageId: `<setup-check-${randomUUID()}@stablecart>`,
      }),
      REQUEST_TIMEOUT_MS * 3,
      'The SMTP server',
    )
    return { success: true, to: operatorEmail, error: null }
  } catch (error) {
    return { success: false, to: operatorEmail, error: messageOf(error) }
  }
}
