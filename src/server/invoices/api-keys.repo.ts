import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { ApiKeyScope, ApiKeyView } from '../../shared/api-keys'
import type { Db } from '../db/client'
import { apiKeys, apiStore } from '../db/schema'

// The invoice API's keys and its one store: a key is shown once when made and only its sha256 is
// kept (a key is 32 random bytes: a fast hash is enough, no password stretching needed); the last
// use is written at most once a minute per key, so a busy cart does not write on every request.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A new key: 'sc_' and 32 random bytes in base64url. */
export function newApiKey(): string {
  return `sc_${randomBytes(32).toString('base64url')}`
}

export async function createApiKey(
  db: Db,
  label: string,
  scopes: readonly ApiKeyScope[],
): Promise<{ id: number; key: string }> {
  const key = newApiKey()
  const [row] = await db
    .insert(apiKeys)
    .values({ label, keyHash: sha256(key), keyPrefix: key.slice(0, 8), scopes: [...new Set(scopes)] })
    .returning({ id: apiKeys.id })
  if (!row) throw new Error('api key insert answered nothing')
  return { id: row.id, key }
}

/** Revokes a key; false when there is no such key or it was revoked already. */
export async function revokeApiKey(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  return rows.length > 0
}

export async function listApiKeys(db: Db): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(500)
  return rows.map((r) => ({
    id: r.id,
    label: r.label,
    prefix: r.keyPrefix,
    scopes: r.scopes as ApiKeyScope[],
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
  }))
}

export interface ApiCaller {
  keyId: number
  scopes: ReadonlySet<string>
}

/** The live key a request presents, or null (unknown or revoked); notes its use. */
export async function findApiKey(db: Db, key: string): Promise<ApiCaller | null> {
  const [row] = await db
    .select({ id: apiKeys.id, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sha256(key)), isNull(apiKeys.revokedAt)))
  if (!row) return null
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.id))
  }
  return { keyId: row.id, scopes: new Set(row.scopes) }
}

/** The shop's store id in the API (made once by migration 0038). */
export async function storeIdOf(db: Db): Promise<string> {
  const [row] = await db.select({ storeId: apiStore.storeId }).from(apiStore).where(eq(apiStore.id, 1))
  if (!row) throw new Error('api_store has no row: migration 0038 did not run')
  return row.storeId
}
