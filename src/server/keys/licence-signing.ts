import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { desc, eq, gt, isNull, or } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseSigningKeys } from '../db/schema'
import { cachedValue } from '../lib/cached-value'

// The Ed25519 keys that sign licence tokens (JWTs, alg EdDSA). The first is made on first start and
// kept in the database, so it travels with the shop's data and its backups. The operator rotates:
// the current key is retired and a new one signs from then on; a retired key stays published at
// /.well-known/jwks.json until every token it signed has expired.

export interface PublicJwk {
  kty: string
  crv: string
  x: string
  kid: string
  alg: 'EdDSA'
  use: 'sig'
}

interface Signer {
  kid: string
  key: KeyObject
}

function newKeyRow() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const jwk = publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string }
  // RFC 7638 thumbprint of the public key: the same key always has the same id.
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
    .digest('base64url')
  return {
    kid: thumbprint,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
  }
}

/** Makes the first signing key when there is none in use (first start). Safe to call from several processes. */
export async function ensureSigningKey(db: Db): Promise<void> {
  const [current] = await db
    .select({ kid: licenseSigningKeys.kid })
    .from(licenseSigningKeys)
    .where(isNull(licenseSigningKeys.retiredAt))
    .limit(1)
  if (!current) await db.insert(licenseSigningKeys).values(newKeyRow()).onConflictDoNothing()
}

/** Retires the signing key in use and makes a new one; answers the new key's id. */
export async function rotateSigningKey(db: Db): Promise<string> {
  return db.transaction(async (tx) => {
    await tx
      .update(licenseSigningKeys)
      .set({ retiredAt: new Date() })
      .where(isNull(licenseSigningKeys.retiredAt))
    const row = newKeyRow()
    await tx.insert(licenseSigningKeys).values(row)
    return row.kid
  })
}

export interface LicenceSigner {
  /** Signs the claims as a compact JWT (EdDSA, Ed25519) with the key in use. */
  sign(claims: Record<string, unknown>): Promise<string>
  /** The public keys a verifier needs: the one in use and those retired less than a token's life ago. */
  jwks(): Promise<{ keys: PublicJwk[] }>
  /** After a rotation in this process: the next token is signed with the new key. */
  invalidate(): void
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

export function createLicenceSigner(db: Db, opts: { tokenLifeMs: number; cacheMs: number }): LicenceSigner {
  const signer = cachedValue<Signer>(async () => {
    await ensureSigningKey(db)
    const [row] = await db
      .select()
      .from(licenseSigningKeys)
      .where(isNull(licenseSigningKeys.retiredAt))
      .orderBy(desc(licenseSigningKeys.createdAt))
      .limit(1)
    if (!row) throw new Error('no licence signing key')
    return { kid: row.kid, key: createPrivateKey(row.privateKeyPem) }
  }, opts.cacheMs)
  const published = cachedValue(async () => {
    await ensureSigningKey(db)
    const rows = await db
      .select({ kid: licenseSigningKeys.kid, jwk: licenseSigningKeys.publicJwk })
      .from(licenseSigningKeys)
      .where(
        or(
          isNull(licenseSigningKeys.retiredAt),
          gt(licenseSigningKeys.retiredAt, new Date(Date.now() - opts.tokenLifeMs)),
        ),
      )
      .orderBy(desc(licenseSigningKeys.createdAt))
    return {
      keys: rows.map((row) => ({
        kty: row.jwk.kty as string,
        crv: row.jwk.crv as string,
        x: row.jwk.x as string,
        kid: row.kid,
        alg: 'EdDSA' as const,
        use: 'sig' as const,
      })),
    }
  }, opts.cacheMs)
  return {
    async sign(claims) {
      const { kid, key } = await signer.get()
      const input = `${b64({ alg: 'EdDSA', typ: 'JWT', kid })}.${b64(claims)}`
      return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`
    },
    jwks: () => published.get(),
    invalidate() {
      signer.invalidate()
      published.invalidate()
    },
  }
}

/** A signing key's row, for tests and the operator's view. */
export async function signingKeyOf(db: Db, kid: string) {
  const [row] = await db.select().from(licenseSigningKeys).where(eq(licenseSigningKeys.kid, kid))
  return row
}
