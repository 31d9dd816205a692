import { createHash, randomBytes } from 'node:crypto'
import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib'
import type { Db } from '../db/client'
import { adminRecoveryCodes, adminUsers } from '../db/schema'

// Two-factor login with TOTP (RFC 6238): 30-second steps, 6 digits, HMAC-SHA-1, one step of clock
// drift either way, the parameters every authenticator app uses. The arithmetic is otplib's.

export const TOTP_PERIOD_S = 30
export const TOTP_DIGITS = 6
/** Seconds of drift accepted either way: one step. */
const TOLERANCE_S = TOTP_PERIOD_S
export const RECOVERY_CODE_COUNT = 10

export function newTotpSecret(): string {
  // 20 random bytes (160 bits, the HMAC-SHA-1 block-friendly size RFC 4226 recommends), base32.
  return generateSecret({ length: 20 })
}

export function otpauthUri(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_S })
}

/** The code of `secret` (base32) at `epochSeconds`; `digits` other than 6 only for test vectors. */
export function totpAt(secret: string, epochSeconds: number, digits: 6 | 7 | 8 = TOTP_DIGITS): string {
  return generateSync({ secret, epoch: epochSeconds, digits, algorithm: 'sha1', period: TOTP_PERIOD_S })
}

/**
 * The time step `code` belongs to (within ±1 step of now), or null. `afterStep` refuses that step
 * and every earlier one, so a code that was accepted once cannot be replayed within its window.
 */
export function matchTotp(
  secret: string,
  code: string,
  opts: { now?: number; afterStep?: number | null } = {},
): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const epoch = Math.floor((opts.now ?? Date.now()) / 1000)
  const result = verifySync({
    secret,
    token: code,
    epoch,
    epochTolerance: TOLERANCE_S,
    period: TOTP_PERIOD_S,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    ...(opts.afterStep != null ? { afterTimeStep: opts.afterStep } : {}),
  })
  return result.valid ? Math.floor(epoch / TOTP_PERIOD_S) + result.delta : null
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase()
}

/** `xxxxx-xxxxx` from a 50-bit random value in an alphabet without look-alikes. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const bytes = randomBytes(10)
  let out = ''
  for (const byte of bytes) out += alphabet[byte % alphabet.length]
  return `${out.slice(0, 5)}-${out.slice(5)}`
}

export type SecondFactor = { ok: true; kind: 'totp' | 'recovery' } | { ok: false }

/**
 * Checks a code for a user with two-factor login on: a TOTP code (each step accepted once, also
 * when two requests race: the step is written with a conditional update) or an unused recovery
 * code (spent by the same statement that finds it).
 */
export async function checkSecondFactor(db: Db, userId: number, rawCode: string): Promise<SecondFactor> {
  const code = rawCode.trim().replace(/\s/g, '')
  const [user] = await db
    .select({ secret: adminUsers.totpSecret, lastStep: adminUsers.totpLastStep })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId))
  if (!user?.secret) return { ok: false }
  if (/^\d{6}$/.test(code)) {
    const step = matchTotp(user.secret, code, { afterStep: user.lastStep })
    if (step === null) return { ok: false }
    const taken = await db
      .update(adminUsers)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(adminUsers.id, userId),
          or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, step)),
        ),
      )
      .returning({ id: adminUsers.id })
    return taken.length === 1 ? { ok: true, kind: 'totp' } : { ok: false }
  }
  const normalised = normaliseRecoveryCode(code)
  if (normalised.length !== 10) return { ok: false }
  const spent = await db
    .update(adminRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(adminRecoveryCodes.userId, userId),
        eq(adminRecoveryCodes.codeHash, sha256(normalised)),
        isNull(adminRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: adminRecoveryCodes.id })
  return spent.length === 1 ? { ok: true, kind: 'recovery' } : { ok: false }
}

export async function twoFactorStatus(db: Db, userId: number) {
  const [user] = await db
    .select({ secret: adminUsers.totpSecret })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId))
  const [left] = await db
    .select({ n: count() })
    .from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.userId, userId), isNull(adminRecoveryCodes.usedAt)))
  return { enabled: Boolean(user?.secret), recoveryCodesLeft: user?.secret ? (left?.n ?? 0) : 0 }
}

/** Starts a setup: a new secret waits on the user until a code confirms it. */
export async function beginSetup(db: Db, userId: number): Promise<string> {
  const secret = newTotpSecret()
  await db.update(adminUsers).set({ totpPendingSecret: secret }).where(eq(adminUsers.id, userId))
  return secret
}

/**
 * Confirms the pending secret with a code from the app; answers the recovery codes (shown once,
 * only their hashes are kept) or null when the code does not match.
 */
export async function confirmSetup(db: Db, userId: number, code: string): Promise<string[] | null> {
  const [user] = await db
    .select({ pending: adminUsers.totpPendingSecret })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId))
  if (!user?.pending) return null
  const step = matchTotp(user.pending, code.trim())
  if (step === null) return null
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await db.transaction(async (tx) => {
    await tx
      .update(adminUsers)
      .set({ totpSecret: user.pending, totpPendingSecret: null, totpLastStep: step, updatedAt: new Date() })
      .where(eq(adminUsers.id, userId))
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId))
    await tx
      .insert(adminRecoveryCodes)
      .values(codes.map((c) => ({ userId, codeHash: sha256(normaliseRecoveryCode(c)) })))
  })
  return codes
}

/** Turns two-factor login off (the caller has checked password and code). */
export async function disableTwoFactor(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(adminUsers)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(adminUsers.id, userId))
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId))
  })
}

/** `npm run admin:reset-2fa [username]`: for a lost device; answers how many accounts were reset. */
export async function resetTwoFactor(db: Db, username?: string): Promise<number> {
  const users = await db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(username ? eq(adminUsers.username, username) : undefined)
  for (const user of users) await disableTwoFactor(db, user.id)
  return users.length
}
