import { adminMessages, loginInputSchema, updateCredentialsInputSchema } from '../../shared/admin'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { AppError } from '../errors'
import { defineRpc } from '../rpc'
import type { AdminDeps } from './admin.routes'
import {
  changeCredentials,
  checkCurrentPassword,
  checkOrigin,
  checkUserAgent,
  clearAttempts,
  clearPasswordAttempts,
  clearSessionCookie,
  clientKey,
  endOtherSessions,
  endSession,
  findSession,
  sessionOf,
  startSession,
  takeAttempt,
  verifyLogin,
} from './admin-auth'
import { hashPassword } from './passwords'
import { loginSecondFactor, twoFactorRpcs } from './two-factor.routes'

// The admin's session and credentials: login (two factors when enabled), logout, who is logged in,
// a new name and password, and the two-factor set-up calls (two-factor.routes.ts).

export function sessionRpcs({ database, env }: Pick<AdminDeps, 'database' | 'env'>) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_admin_login',
      input: loginInputSchema,
      audit: {
        // The name typed, never the password; a lock-out and a refusal are recorded too.
        entries: ({ input, outcome }) => {
          const actor = input.p_username.trim()
          if (outcome.ok) {
            return [
              outcome.result.success === true
                ? { action: 'login', actor: String(outcome.result.username ?? actor) }
                : { action: 'login_failed', actor },
            ]
          }
          if (outcome.error instanceof AppError && outcome.error.code === 'rate_limited')
            return [{ action: 'login_locked', actor }]
          if (outcome.error instanceof AppError)
            return [{ action: 'login_failed', actor, details: { reason: outcome.error.message } }]
          return []
        },
      },
      handler: async (input, { request, reply }) => {
        checkUserAgent(request, env)
        checkOrigin(request, env)
        const key = clientKey(request, input.p_username)
        if (!(await takeAttempt(db, key))) {
          request.log.warn(
            { ip: request.ip, username: input.p_username.slice(0, 100) },
            'admin login locked out',
          )
          throw AppError.rateLimited(adminMessages.tooManyAttempts, 15 * 60_000)
        }
        const user = await verifyLogin(db, input.p_username, input.p_password)
        if (!user) {
          request.log.warn({ ip: request.ip, username: input.p_username.slice(0, 100) }, 'admin login failed')
          return { success: false, error: adminMessages.invalidCredentials }
        }
        if (user.totpSecret) {
          const refusal = await loginSecondFactor(db, request, user, key, input.p_code)
          if (refusal) return refusal
        }
        request.log.info({ ip: request.ip, username: user.username }, 'admin logged in')
        await clearAttempts(db, key)
        await startSession(db, env, reply, user.id)
        return { success: true, username: user.username }
      },
    }),
    defineRpc({
      name: 'secure_admin_logout',
      input: adminOnlyPayloadSchema,
      audit: {
        before: (db, _input, request) => findSession(db, request),
        entries: ({ outcome, before }) =>
          outcome.ok && before ? [{ action: 'logout', actor: before.username }] : [],
      },
      handler: async (_input, { request, reply }) => {
        // Logging out needs no live session: a stale cookie is cleared all the same.
        checkOrigin(request, env)
        const session = await findSession(db, request)
        if (session) await endSession(db, session.tokenHash)
        clearSessionCookie(env, reply)
        return { success: true }
      },
    }),
    defineRpc({
      name: 'secure_admin_session',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async (_input, { request }) => ({ success: true, username: sessionOf(request).username }),
    }),

    defineRpc({
      name: 'secure_update_admin_credentials',
      input: updateCredentialsInputSchema,
      admin: true,
      audit: {
        entries: ({ input, outcome, actor }) => {
          const newUsername = input.p_new_username.trim()
          if (!outcome.ok) {
            return outcome.error instanceof AppError
              ? [{ action: 'credentials_change_failed', actor, details: { reason: outcome.error.message } }]
              : []
          }
          if (outcome.result.success !== true) {
            const reason = String(outcome.result.error ?? '')
            return [{ action: 'credentials_change_failed', actor, details: { reason } }]
          }
          return [
            {
              action: 'credentials_change',
              actor,
              details: { username_changed: newUsername !== actor, new_username: newUsername },
            },
          ]
        },
      },
      handler: async (input, { request }) => {
        const session = sessionOf(request)
        if (input.p_confirm_password !== undefined && input.p_confirm_password !== input.p_new_password) {
          return { success: false, error: adminMessages.passwordsDoNotMatch }
        }
        const user = await checkCurrentPassword(db, session.userId, input.p_current_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        await clearPasswordAttempts(db, user.id)
        await changeCredentials(db, user.id, input.p_new_username, await hashPassword(input.p_new_password))
        await endOtherSessions(db, user.id, session.tokenHash)
        request.log.info({ ip: request.ip, username: input.p_new_username }, 'admin credentials changed')
        return { success: true }
      },
    }),
    ...twoFactorRpcs(db),
  ]
}
