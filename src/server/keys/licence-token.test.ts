import { activateLicense, deactivateLicense, validateLicense } from '@lemonsqueezy/lemonsqueezy.js'
import { sql } from 'drizzle-orm'
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buyKeys, licensedProduct } from '../../../tests/support/licence-fixture'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { rotateSigningKey } from './licence-signing'

describe.each(engines)('licence tokens and Lemon Squeezy clients on %s', (engine) => {
  let t: TestApp
  let base: string
  const issuer = 'https://shop.example'

  beforeAll(async () => {
    t = await createTestApp(engine, {
      PUBLIC_URL: issuer,
      LICENCE_RATE_PER_CLIENT: '100000',
      LICENCE_RATE_PER_KEY: '100000',
    })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const address = t.app.server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }, 120_000)
  afterAll(() => t.close())

  const post = async (verb: string, fields: Record<string, string>) => {
    const response = await fetch(`${base}/v1/licenses/${verb}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
    return (await response.json()) as Record<string, unknown>
  }
  // A verifier as a seller's app has one: the shop's published keys, fetched afresh.
  const verify = (token: string, at?: Date) =>
    jwtVerify(token, createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`)), {
      issuer,
      algorithms: ['EdDSA'],
      ...(at ? { currentDate: at } : {}),
    })

  it('the token verifies against the published keys, names key, product, instance and expiry, and fails when tampered with', async () => {
    const productId = await licensedProduct(t, { limit: 2, days: 10, name: 'Signed App' })
    const { keys, orderId } = await buyKeys(t, productId)
    const answer = await post('activate', { license_key: keys[0]!, instance_name: 'Laptop' })
    const token = answer.license_token as string
    const instance = answer.instance as { id: string }
    const { payload, protectedHeader } = await verify(token)
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'JWT' })
    expect(payload).toMatchObject({
      iss: issuer,
      license_key: keys[0],
      product_id: productId,
      product_name: 'Signed App',
      order_id: orderId,
      instance_id: instance.id,
      instance_name: 'Laptop',
      status: 'active',
      activation_limit: 2,
    })
    // The licence ends in 10 days, before a token's 30: the token ends with it.
    const licenceEnd = Date.parse((answer.license_key as { expires_at: string }).expires_at)
    expect(payload.exp).toBe(Math.floor(licenceEnd / 1000))
    expect(payload.license_expires_at).toBe(new Date(licenceEnd).toISOString())
    await expect(verify(token, new Date(licenceEnd + 1000))).rejects.toBeInstanceOf(errors.JWTExpired)

    const [header, body, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...claims, activation_limit: 1000 })).toString('base64url')
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    )
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`
    await expect(verify(`${header}.${body}.${flipped}`)).rejects.toThrow()

    // Validate answers a token too; one without an instance names none.
    const validated = await post('validate', { license_key: keys[0]! })
    expect((await verify(validated.license_token as string)).payload.instance_id).toBeNull()
  })

  it('after a rotation new tokens use the new key and old tokens verify until they expire', async () => {
    const productId = await licensedProduct(t, { limit: null, days: null })
    const { keys } = await buyKeys(t, productId)
    const before = (await post('validate', { license_key: keys[0]! })).license_token as string
    const oldKid = decodeProtectedHeader(before).kid
    await rotateSigningKey(t.database.db)
    t.app.services.licenceSigner.invalidate()
    const after = (await post('validate', { license_key: keys[0]! })).license_token as string
    const newKid = decodeProtectedHeader(after).kid
    expect(newKid).not.toBe(oldKid)
    const published = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[]
    }
    expect(published.keys.map((k) => k.kid)).toEqual([newKid, oldKid])
    expect((await verify(before)).payload.license_key).toBe(keys[0])
    expect((await verify(after)).payload.license_key).toBe(keys[0])
    // A token lives 30 days at most: a key retired longer ago is no longer published.
    await t.database.db.execute(
      sql`update license_signing_keys set retired_at = now() - interval '31 days' where kid = ${oldKid as string}`,
    )
    t.app.services.licenceSigner.invalidate()
    await expect(verify(before)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey)
    expect((await verify(after)).payload.license_key).toBe(keys[0])
  })

  it("Lemon Squeezy's JavaScript SDK, pointed at the shop, activates, validates and deactivates", async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null, name: 'SDK App' })
    const { keys, email } = await buyKeys(t, productId)
    // The SDK always calls https://api.lemonsqueezy.com through the global fetch: an app moves to
    // the shop by sending those requests to its host, which is what this does.
    const realFetch = globalThis.fetch
    globalThis.fetch = (input, init) =>
      realFetch(
        String(input instanceof Request ? input.url : input).replace('https://api.lemonsqueezy.com', base),
        init,
      )
    try {
      const activated = await activateLicense(keys[0]!, 'CI runner')
      expect(activated.error).toBeNull()
      expect(activated.statusCode).toBe(200)
      expect(activated.data).toMatchObject({
        activated: true,
        error: null,
        license_key: { key: keys[0], status: 'active', activation_limit: 1, activation_usage: 1 },
        instance: { name: 'CI runner' },
        meta: { product_id: productId, product_name: 'SDK App', customer_email: email },
      })
      const instanceId = activated.data!.instance!.id
      const validated = await validateLicense(keys[0]!, instanceId)
      expect(validated.error).toBeNull()
      expect(validated.data).toMatchObject({ valid: true, instance: { id: instanceId } })
      const plain = await validateLicense(keys[0]!)
      expect(plain.error).toBeNull()
      expect(plain.data).toMatchObject({ valid: true, instance: null })
      // The limit is 1: a second machine is refused, as Lemon Squeezy refuses it.
      const refused = await activateLicense(keys[0]!, 'Second')
      expect(refused.statusCode).toBe(400)
      expect(refused.data).toMatchObject({
        activated: false,
        error: 'This license key has reached the activation limit.',
      })
      expect((refused.error as Error).cause).toBe('This license key has reached the activation limit.')
      const deactivated = await deactivateLicense(keys[0]!, instanceId)
      expect(deactivated.error).toBeNull()
      expect(deactivated.data).toMatchObject({ deactivated: true, license_key: { activation_usage: 0 } })
      const unknown = await validateLicense('NO-SUCH-KEY')
      expect(unknown.statusCode).toBe(404)
      expect(unknown.data).toMatchObject({ valid: false, error: 'license_key not found.' })
    } finally {
      globalThis.fetch = realFetch
    }
  })
})
