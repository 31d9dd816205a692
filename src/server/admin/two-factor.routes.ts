import type { FastifyRequest } from 'fastify'
import { adminMessages } from '../../shared/admin'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import {
  confirmTwoFactorInputSchema,
  disableTwoFactorInputSchema,
  twoFactorMessages,
} from '../../shared/two-factor'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { AppError } from '../errors'
import { defineRpc } from '../rpc'
import {
  checkCurrentPassword,
  clearAttempts,
  clearPasswordAttempts,
  endOtherSessions,
  sessionOf,
  takeAttempt,
} from './admin-auth'
import {
  beginSetup,
  checkSecondFactor,
  confirmSetup,
  disableTwoFactor,
  otpauthUri,
  twoFactorStatus,
} from './two-factor'

const LOCK_MS = 15 * 60_000

/** Codes are limited per account, whatever the client's address: a stolen password from many IPs. */
const codeKey = (userId: number) => `totp|${userId}`

/**
 * The second step of a login whose password matched, for a user with two-factor login on.
 * Answers null when the code is good (the caller opens the session), else the refusal to send.
 * `passwordKey` is the login's attempt key: its attempt stays counted when the code is wrong.
 */
export async function loginSecondFactor(
  db: Db,
  request: FastifyRequest,
  user: { id: number; username: string },
  passwordKey: string,
  code: string | undefined,
): Promise<null | { success: false; error: string; two_factor_required: true }> {
  if (code === undefined) {
    // The password was right; only the code is missing. That attempt is no failure.
    await clearAttempts(db, passwordKey)
    return { success: false, error: twoFactorMessages.codeRequired, two_factor_required: true }
  }
  if (!(await takeAttempt(db, codeKey(user.id)))) {
    request.log.warn({ ip: request.ip, username: user.username }, 'admin two-factor locked out')
    throw AppError.rateLimited(adminMessages.tooManyAttempts, LOCK_MS)
  }
  const factor = await checkSecondFactor(db, user.id, code)
  if (!factor.ok) {
    request.log.warn({ ip: request.ip, username: user.username }, 'admin two-factor code refused')
    return { success: false, error: twoFactorMessages.invalidCode, two_factor_required: true }
  }
  if (factor.kind === 'recovery')
    request.log.warn({ ip: request.ip, username: user.username }, 'admin logged in with a recovery code')
  await clearAttempts(db, codeKey(user.id))
  return null
}

/** Security tab: status, setup with a QR code and confirmation, and switching off. */
export function twoFactorRpcs(db: Db, issuer = 'Stablecart') {
  return [
    defineRpc({
      name: 'secure_admin_2fa_status',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async (_input, { request }) => {
        const status = await twoFactorStatus(db, sessionOf(request).userId)
        return { success: true, enabled: status.enabled, recovery_codes_left: status.recoveryCodesLeft }
      },
    }),
    defineRpc({
      name: 'secure_admin_2fa_begin',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async (_input, { request }) => {
        const session = sessionOf(request)
        const status = await twoFactorStatus(db, session.userId)
        if (status.enabled) return { success: false, error: twoFactorMessages.alreadyEnabled }
        const secret = await beginSetup(db, session.userId)
        return { success: true, secret, otpauth_uri: otpauthUri(secret, issuer, session.username) }
      },
    }),
    defineRpc({
      name: 'secure_admin_2fa_enable',
      input: confirmTwoFactorInputSchema,
      admin: true,
      audit: { entries: onSuccess(({ actor }) => ({ action: 'two_factor_enable', actor })) },
      handler: async (input, { request }) => {
        const session = sessionOf(request)
        // A session alone must not be able to lock the owner out (decision 019).
        const user = await checkCurrentPassword(db, session.userId, input.p_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        if (!(await takeAttempt(db, codeKey(session.userId))))
          throw AppError.rateLimited(adminMessages.tooManyAttempts, LOCK_MS)
        if (user.totpSecret) return { success: false, error: twoFactorMessages.alreadyEnabled }
        if (!user.totpPendingSecret) return { success: false, error: twoFactorMessages.noSetup }
        const codes = await confirmSetup(db, session.userId, input.p_code)
        if (!codes) return { success: false, error: twoFactorMessages.invalidCode }
        await clearAttempts(db, codeKey(session.userId))
        await clearPasswordAttempts(db, session.userId)
        await endOtherSessions(db, session.userId, session.tokenHash)
        request.log.info({ ip: request.ip, username: session.username }, 'admin two-factor enabled')
        return { success: true, recovery_codes: codes }
      },
    }),
    defineRpc({
      name: 'secure_admin_2fa_disable',
      input: disableTwoFactorInputSchema,
      admin: true,
      audit: { entries: onSuccess(({ actor }) => ({ action: 'two_factor_disable', actor })) },
      handler: async (input, { request }) => {
        const session = sessionOf(request)
        const user = await checkCurrentPassword(db, session.userId, input.p_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        if (!user.totpSecret) return { success: false, error: twoFactorMessages.disabled }
        const factor = await checkSecondFactor(db, user.id, input.p_code)
        if (!factor.ok) return { success: false, error: twoFactorMessages.invalidCode }
        await clearPasswordAttempts(db, user.id)
        await disableTwoFactor(db, user.id)
        request.log.info({ ip: request.ip, username: session.username }, 'admin two-factor disabled')
        return { success: true }
      },
    }),
  ]
}
