import { createHash } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/client'
import { AppError } from '../errors'
import { createWindowLimiter } from '../lib/window-limiter'
import { clientAddressKey } from '../orders/checkout-limits'
import type { LicenceSigner } from './licence-signing'
import {
  instanceWire,
  type LicenceVerb,
  licenceErrors,
  licenseKeyWire,
  metaWire,
  refusalBody,
} from './licence-wire'
import {
  activateKey,
  deactivateInstance,
  type InstanceRow,
  type KeyState,
  validateKey,
} from './licences.repo'

// The public licence API: POST /v1/licenses/activate | validate | deactivate, form-encoded or JSON,
// answered in Lemon Squeezy's shapes; and the public keys that verify its tokens at
// /.well-known/jwks.json. No login: the licence key is the credential, so unknown and wrong keys
// get one identical answer, and both the client and the key are rate limited.

export interface LicenceApiOptions {
  db: Db
  signer: LicenceSigner
  /** The token's issuer: the shop's public URL. */
  issuer: string
  perClientPerMinute: number
  perKeyPerMinute: number
  tokenLifeMs: number
}

class LicenceInputError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MAX_TEXT = 255

/** One field of the body: a string (a form's value, or JSON's), bounded; named in every refusal. */
function textField(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const raw = body[name]
  if (raw === undefined || raw === null || raw === '') {
    if (required) throw new LicenceInputError(`The ${name} field is required.`)
    return undefined
  }
  if (typeof raw !== 'string') throw new LicenceInputError(`The ${name} field must be a string.`)
  const value = raw.trim()
  if (value === '' && required) throw new LicenceInputError(`The ${name} field is required.`)
  if (value.length > MAX_TEXT) {
    throw new LicenceInputError(`The ${name} field must be at most ${MAX_TEXT} characters.`)
  }
  return value === '' ? undefined : value
}

function instanceIdField(body: Record<string, unknown>, required: boolean): string | undefined {
  const value = textField(body, 'instance_id', required)
  if (value !== undefined && !UUID.test(value)) {
    throw new LicenceInputError('The instance_id field must be an instance id (a UUID).')
  }
  return value?.toLowerCase()
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body ?? {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new LicenceInputError('The body must be a form or a JSON object.')
  }
  return body as Record<string, unknown>
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A form body as an object: each name's first value. */
function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text)) if (!(name in out)) out[name] = value
  return out
}

export async function registerLicenceApi(app: FastifyInstance, opts: LicenceApiOptions): Promise<void> {
  const perClient = createWindowLimiter({ limit: opts.perClientPerMinute, windowMs: 60_000 })
  const perKey = createWindowLimiter({ limit: opts.perKeyPerMinute, windowMs: 60_000, maxKeys: 50_000 })

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300')
    return opts.signer.jwks()
  })

  const tokenFor = async (state: KeyState, instance: InstanceRow | null): Promise<string | null> => {
    if (state.status === 'disabled' || state.status === 'expired') return null
    const now = Date.now()
    const end = Math.min(now + opts.tokenLifeMs, state.key.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY)
    return opts.signer.sign({
      iss: opts.issuer,
      sub: String(state.key.id),
      iat: Math.floor(now / 1000),
      exp: Math.floor(end / 1000),
      license_key: state.key.key,
      status: state.status,
      product_id: state.key.productId,
      product_name: state.key.productName,
      order_id: state.key.orderId,
      instance_id: instance?.id ?? null,
      instance_name: instance?.name ?? null,
      activation_limit: state.key.activationLimit,
      license_expires_at: state.key.expiresAt?.toISOString() ?? null,
    })
  }

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, parseForm(String(body))),
    )
    // Lemon Squeezy's JavaScript SDK sends its JSON as JSON:API's media type.
    scope.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, (_req, body, done) => {
      const text = String(body)
      if (text.trim() === '') return done(null, undefined)
      try {
        done(null, JSON.parse(text))
      } catch {
        done(new LicenceInputError('The body is not valid JSON.'), undefined)
      }
    })

    const verbOf = (request: FastifyRequest): LicenceVerb =>
      request.url.includes('/activate')
        ? 'activated'
        : request.url.includes('/deactivate')
          ? 'deactivated'
          : 'valid'

    scope.setErrorHandler((error: FastifyError | AppError | LicenceInputError, request, reply) => {
      const verb = verbOf(request)
      if (error instanceof LicenceInputError) return reply.status(400).send(refusalBody(verb, error.message))
      if (error instanceof AppError) {
        return reply.status(error.status).headers(error.headers).send(refusalBody(verb, error.message))
      }
      const status = error.statusCode ?? 500
      if (status < 500) {
        const message =
          error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type: send application/x-www-form-urlencoded or application/json.'
            : error.message.replace(/^Invalid request: /, '')
        return reply.status(status).send(refusalBody(verb, message))
      }
      request.log.error({ err: error }, 'licence call failed')
      return reply.status(500).send(refusalBody(verb, 'Internal server error'))
    })

    // Every call counts against its client (IPv6 by its /64), malformed ones too.
    scope.addHook('onRequest', async (request) => {
      const wait = perClient.hit(clientAddressKey(request.ip))
      if (wait > 0) throw AppError.rateLimited(licenceErrors.tooMany, wait)
    })

    /** Counts the call against the key; throws 429 with Retry-After when over. */
    const limit = (key: string) => {
      // Every key text is counted, known or not: a 429 says nothing about whether the key exists.
      const wait = perKey.hit(sha256(key))
      if (wait > 0) throw AppError.rateLimited(licenceErrors.tooMany, wait)
    }

    const send = (reply: FastifyReply, status: number, body: unknown) =>
      reply.status(status).header('cache-control', 'no-store').send(body)

    scope.post('/v1/licenses/activate', async (request, reply) => {
      const body = bodyOf(request)
      const key = textField(body, 'license_key', true) as string
      const name = textField(body, 'instance_name', true) as string
      limit(key)
      const outcome = await activateKey(opts.db, key, name)
      if (outcome.kind === 'not_found')
        return send(reply, 404, refusalBody('activated', licenceErrors.notFound))
      if (outcome.kind !== 'activated') {
        const error =
          outcome.kind === 'limit_reached'
            ? licenceErrors.limitReached
            : outcome.kind === 'disabled'
              ? licenceErrors.disabled
              : licenceErrors.expired
        return send(reply, 400, refusalBody('activated', error, outcome.state))
      }
      return send(reply, 200, {
        activated: true,
        error: null,
        license_key: licenseKeyWire(outcome.state),
        instance: instanceWire(outcome.instance),
        meta: metaWire(outcome.state),
        license_token: await tokenFor(outcome.state, outcome.instance),
      })
    })

    scope.post('/v1/licenses/validate', async (request, reply) => {
      const body = bodyOf(request)
      const key = textField(body, 'license_key', true) as string
      const instanceId = instanceIdField(body, false)
      limit(key)
      const outcome = await validateKey(opts.db, key, instanceId)
      if (outcome.kind === 'not_found') return send(reply, 404, refusalBody('valid', licenceErrors.notFound))
      if (outcome.kind === 'instance_not_found') {
        return send(reply, 404, refusalBody('valid', licenceErrors.instanceNotFound, outcome.state))
      }
      const { state, instance } = outcome
      const valid = state.status === 'active' || state.status === 'inactive'
      return send(reply, 200, {
        valid,
        error: valid ? null : state.status === 'disabled' ? licenceErrors.disabled : licenceErrors.expired,
        license_key: licenseKeyWire(state),
        instance: instance ? instanceWire(instance) : null,
        meta: metaWire(state),
        license_token: valid ? await tokenFor(state, instance) : null,
      })
    })

    scope.post('/v1/licenses/deactivate', async (request, reply) => {
      const body = bodyOf(request)
      const key = textField(body, 'license_key', true) as string
      const instanceId = instanceIdField(body, true) as string
      limit(key)
      const outcome = await deactivateInstance(opts.db, { key }, instanceId)
      if (outcome.kind === 'not_found')
        return send(reply, 404, refusalBody('deactivated', licenceErrors.notFound))
      if (outcome.kind === 'disabled') {
        return send(reply, 400, refusalBody('deactivated', licenceErrors.disabled, outcome.state))
      }
      if (outcome.kind === 'instance_not_found') {
        return send(reply, 404, refusalBody('deactivated', licenceErrors.instanceNotFound, outcome.state))
      }
      return send(reply, 200, {
        deactivated: true,
        error: null,
        license_key: licenseKeyWire(outcome.state),
        meta: metaWire(outcome.state),
      })
    })
  })
}
