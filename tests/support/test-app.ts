import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/server/app'
import { type Env, parseEnv } from '../../src/server/env'
import { createTestDatabase, type Engine, type TestDatabase } from './test-db'

export interface TestApp {
  app: FastifyInstance
  database: TestDatabase
  env: Env
  close(): Promise<void>
}

/** The real app on a fresh database; env overrides are given as environment strings, as in production. */
export async function createTestApp(
  engine: Engine,
  envOverrides: Record<string, string> = {},
  opts: { database?: TestDatabase } = {},
): Promise<TestApp> {
  // No internet in tests: a fixed TRX rate unless a test points PRICE_SOURCE at the devchain.
  const env = parseEnv({
    DATA_DIR: '.tmp/test-data',
    LOG_LEVEL: 'silent',
    PRICE_SOURCE: 'fixed:0.25',
    // Every request of a test comes from one client; tests of the checkout limits set their own.
    CHECKOUT_PENDING_PER_CLIENT: '100000',
    CHECKOUT_PENDING_PER_EMAIL: '100000',
    CHECKOUT_CREATIONS_PER_MINUTE: '100000',
    CHECKOUT_HELD_PER_NETWORK: '100000',
    CHECKOUT_RESERVE_PERCENT: '0',
    ...envOverrides,
  })
  const database = opts.database ?? (await createTestDatabase(engine))
  const app = await buildApp({ env, database })
  await app.ready()
  return {
    app,
    database,
    env,
    async close() {
      await app.close()
      await database.close()
    },
  }
}

/** POST /rpc/<name> through app.inject. */
export async function rpc(
  app: FastifyInstance,
  name: string,
  payload: unknown = {},
  headers: Record<string, string> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: `/rpc/${name}`,
    payload: payload as object,
    headers,
  })
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown>,
    headers: response.headers,
  }
}

const ADMIN_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36'

/**
 * The one admin login of the server tests: creates the first admin from ADMIN_USERNAME /
 * ADMIN_PASSWORD, logs in as a browser on PUBLIC_URL would, and answers the headers an admin call
 * sends (session cookie, browser, origin).
 */
export async function adminSession(t: TestApp): Promise<Record<string, string>> {
  const { ensureFirstAdmin } = await import('../../src/server/admin/admin-auth')
  await ensureFirstAdmin(t.database.db, t.env)
  // A browser on the shop's own origin; without PUBLIC_URL the origin check has nothing to compare.
  const headers: Record<string, string> = {
    'user-agent': ADMIN_BROWSER,
    ...(t.env.PUBLIC_URL ? { origin: new URL(t.env.PUBLIC_URL).origin } : {}),
  }
  const login = await t.app.inject({
    method: 'POST',
    url: '/rpc/secure_admin_login',
    payload: { p_username: t.env.ADMIN_USERNAME, p_password: t.env.ADMIN_PASSWORD },
    headers,
  })
  if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.body}`)
  return { ...headers, cookie: String(login.headers['set-cookie']).split(';')[0] as string }
}
