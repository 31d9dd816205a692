import { createHash, randomBytes } from 'node:crypto'
import { and, count, eq, gt, lt, ne, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { adminMessages } from '../../shared/admin'
import type { Db } from '../db/client'
import { adminSessions, adminUsers, loginAttempts } from '../db/schema'
import type { Env } from '../env'
import { AppError } from '../errors'
import { rateLimitKey } from '../lib/client-address'
import type { AdminGuard, RpcContext } from '../rpc'
import { dummyPasswordHash, generatePassword, hashPassword, verifyPassword } from './passwords'

export const SESSION_COOKIE = 'stablecart_admin'
/** A session ends after this long without a call... */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000
/** ...and after this long in any case. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000
// lastSeenAt is written at most this often, so the 5 s order refresh does not write every time.
const TOUCH_EVERY_MS = 60 * 1000

export const LOGIN_WINDOW_MS = 15 * 60 * 1000
export const LOGIN_MAX_FAILURES = 5

export interface AdminSession {
  tokenHash: string
  userId: number
  username: string
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/**
 * Creates the first admin from ADMIN_USERNAME / ADMIN_PASSWORD when there is none. With no password
 * configured a random one is generated and answered, so the caller can print it once.
 */
export async function ensureFirstAdmin(
  db: Db,
  env: Pick<Env, 'ADMIN_USERNAME' | 'ADMIN_PASSWORD'>,
): Promise<{ created: boolean; username: string; generatedPassword?: string }> {
  const [existing] = await db.select({ n: count() }).from(adminUsers)
  if ((existing?.n ?? 0) > 0) return { created: false, username: env.ADMIN_USERNAME }
  const generatedPassword = env.ADMIN_PASSWORD ? undefined : generatePassword()
  const passwordHash = await hashPassword(env.ADMIN_PASSWORD ?? (generatedPassword as string))
  // Two processes starting together: the unique username lets only one insert win.
  const rows = await db
    .insert(adminUsers)
    .values({ username: env.ADMIN_USERNAME, passwordHash })
    .onConflictDoNothing()
    .returning({ id: adminUsers.id })
  if (rows.length === 0) return { created: false, username: env.ADMIN_USERNAME }
  return { created: true, username: env.ADMIN_USERNAME, generatedPassword }
}

/** The user-agent allow-list (empty allows every browser), enforced here rather than in the browser. */
export function checkUserAgent(request: FastifyRequest, env: Env): void {
  const allowed = env.ADMIN_ALLOWED_USER_AGENTS
  if (allowed.length === 0) return
  const ua = request.headers['user-agent'] ?? ''
  if (!allowed.some((entry) => ua.includes(entry)))
    throw new AppError('forbidden', adminMessages.accessDenied)
}

/**
 * Refuses a request another site's page made: its Origin must be this host (or PUBLIC_URL's).
 * Requests without Origin (curl, the CLI) pass unless the browser says they are cross-site;
 * the SameSite=Strict cookie is the second lock.
 */
export function checkOrigin(request: FastifyRequest, env: Env): void {
  const origin = request.headers.origin
  const fetchSite = request.headers['sec-fetch-site']
  if (fetchSite === 'cross-site') throw new AppError('forbidden', adminMessages.foreignOrigin)
  if (origin === undefined) return
  try {
    // Parsed with the Origin's own scheme so default ports compare equal (:80, :443).
    const from = new URL(origin)
    if (request.headers.host && from.host === new URL(`${from.protocol}//${request.headers.host}`).host)
      return
  } catch {
    throw new AppError('forbidden', adminMessages.foreignOrigin)
  }
  if (env.PUBLIC_URL && new URL(env.PUBLIC_URL).origin === origin) return
  throw new AppError('forbidden', adminMessages.foreignOrigin)
}

function cookieOptions(env: Env) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: env.PUBLIC_URL?.startsWith('https:') ?? false,
    path: '/',
  }
}

export function clientKey(request: FastifyRequest, username: string): string {
  return `${rateLimitKey(request)}|${username.trim().toLowerCase()}`
}

/**
 * Takes one attempt for a key before the password is checked: the row is written first and the
 * window counted after, so a burst of parallel guesses cannot slip past the limit. Answers false
 * (and takes nothing) when the key has used up its attempts. A failed attempt keeps its row;
 * call clearAttempts after a success.
 */
export async function takeAttempt(db: Db, key: string): Promise<boolean> {
  const [row] = await db.insert(loginAttempts).values({ key }).returning({ id: loginAttempts.id })
  const since = new Date(Date.now() - LOGIN_WINDOW_MS)
  const [counted] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.key, key), gt(loginAttempts.at, since)))
  if ((counted?.n ?? 0) > LOGIN_MAX_FAILURES) {
    // Refused attempts don't count, so the lock lifts when the window passes.
    await db.delete(loginAttempts).where(eq(loginAttempts.id, row!.id))
    return false
  }
  // Old attempts are worthless; drop them as we go so the table stays small.
  await db.delete(loginAttempts).where(lt(loginAttempts.at, since))
  return true
}

export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key))
}

/**
 * The one check of every call that changes who can log in (credentials, two-factor on or off): the
 * session's own password, limited per account like login, so a stolen session cannot guess it.
 * Answers the user when it matches, else null; throws 429 once the account has used its attempts.
 * The attempt stays counted until the caller's whole change succeeds and calls
 * clearPasswordAttempts: a right password with a wrong code is still a spent attempt.
 */
export async function checkCurrentPassword(db: Db, userId: number, password: string) {
  if (!(await takeAttempt(db, credentialsKey(userId))))
    throw AppError.rateLimited(adminMessages.tooManyAttempts, LOGIN_WINDOW_MS)
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.id, userId))
  return user && (await verifyPassword(password, user.passwordHash)) ? user : null
}

export async function clearPasswordAttempts(db: Db, userId: number): Promise<void> {
  await clearAttempts(db, credentialsKey(userId))
}

const credentialsKey = (userId: number) => `credentials|${userId}`

/** Answers the user when username and password match; always spends one scrypt. */
export async function verifyLogin(db: Db, username: string, password: string) {
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.username, username.trim()))
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()))
  return ok && user ? user : null
}

export async function startSession(db: Db, env: Env, reply: FastifyReply, userId: number): Promise<void> {
  const token = randomBytes(32).toString('base64url')
  const now = Date.now()
  await db.insert(adminSessions).values({
    tokenHash: sha256(token),
    userId,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
  })
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(env), maxAge: SESSION_ABSOLUTE_MS / 1000 })
}

export function clearSessionCookie(env: Env, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(env))
}

const sessions = new WeakMap<FastifyRequest, AdminSession>()

/** The session the guard found for this request. */
export function sessionOf(request: FastifyRequest): AdminSession {
  const session = sessions.get(request)
  if (!session) throw new AppError('unauthorized', adminMessages.unauthorized)
  return session
}

/** The live session of the request's cookie, or null; refreshes its idle clock. */
export async function findSession(db: Db, request: FastifyRequest): Promise<AdminSession | null> {
  const token = request.cookies?.[SESSION_COOKIE]
  if (!token || token.length > 200) return null
  const tokenHash = sha256(token)
  const now = Date.now()
  const [row] = await db
    .select({
      tokenHash: adminSessions.tokenHash,
      userId: adminSessions.userId,
      lastSeenAt: adminSessions.lastSeenAt,
      username: adminUsers.username,
    })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(
      and(
        eq(adminSessions.tokenHash, tokenHash),
        gt(adminSessions.expiresAt, new Date(now)),
        gt(adminSessions.lastSeenAt, new Date(now - SESSION_IDLE_MS)),
      ),
    )
  if (!row) return null
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(adminSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(adminSessions.tokenHash, tokenHash))
  }
  return { tokenHash, userId: row.userId, username: row.username }
}

export async function endSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash))
}

/** After a credentials change: every session of the user but this one ends. */
export async function endOtherSessions(db: Db, userId: number, keepTokenHash: string): Promise<void> {
  await db
    .delete(adminSessions)
    .where(and(eq(adminSessions.userId, userId), ne(adminSessions.tokenHash, keepTokenHash)))
  await db.delete(adminSessions).where(lt(adminSessions.expiresAt, new Date()))
}

/** Every admin call: allowed user agent, same origin, live session — in that order. */
export function createAdminGuard(db: Db, env: Env): AdminGuard {
  return async ({ request }) => {
    checkUserAgent(request, env)
    checkOrigin(request, env)
    const session = await findSession(db, request)
    if (!session) throw new AppError('unauthorized', adminMessages.unauthorized)
    sessions.set(request, session)
  }
}

/** Who made an admin call, for the audit log: the session's admin, or 'unknown'. */
export function adminActorOf({ request }: RpcContext): string {
  return sessions.get(request)?.username ?? 'unknown'
}

/** A new name and password for an admin (the password already hashed). */
export async function changeCredentials(db: Db, userId: number, username: string, passwordHash: string) {
  await db
    .update(adminUsers)
    .set({ username, passwordHash, updatedAt: new Date() })
    .where(eq(adminUsers.id, userId))
}
