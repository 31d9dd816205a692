import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import type { Env } from '../env'
import { AppError } from '../errors'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { chooseNetwork } from '../payments/order-network'
import { checkTargetUrl, TargetRefused } from '../webhooks/safe-target'
import {
  centsAsAmount,
  createAnswer,
  decimalE8,
  type EpusdtCreateRequest,
  type EpusdtTerms,
  epusdtCreateSchema,
  epusdtSignatureMatches,
  epusdtTradeTypes,
  fiatToTokenCents,
  tradeTypeOf,
} from './epusdt-protocol'
import type { FiatRateSource } from './epusdt-rate'
import { InvoiceRefused, type InvoiceService, localeOf, networkOf, parseMethod } from './invoice-service'
import { checkoutLinkOf, paymentMethodId } from './invoice-view'
import { findInvoice, latestInvoiceOf } from './invoices.repo'

// The epusdt order protocol (decision 056): POST /api/v1/order/create-transaction as the shops
// that speak it send it, signed with the shared token (MD5), off unless EPUSDT_TOKEN is set. An
// epusdt order is an invoice (its order placed by the orders module's placer, its page the
// invoice's hosted page); its paid callback goes through the webhook outbox. Every refusal is
// epusdt's envelope with its codes, and a 4xx (epusdt answers 200; carts read status_code).

export interface EpusdtOptions {
  db: Db
  chains: ChainRegistry
  invoices: InvoiceService
  rate: FiatRateSource
  env: Pick<Env, 'EPUSDT_TOKEN' | 'EPUSDT_FIAT' | 'API_RATE_PER_CLIENT' | 'WEBHOOK_ALLOW_PRIVATE'>
  publicUrl: string
}

/** A refusal in epusdt's envelope: the HTTP status, epusdt's status_code and its message. */
class EpusdtError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** The largest order an epusdt request may make: 100 000 000 in the token, as an invoice's. */
const MAX_TOKEN_CENTS = 10_000_000_000n
const MAX_FIELDS = 40

const requestIdOf = (request: FastifyRequest) => {
  const header = request.headers['x-request-id']
  return typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : String(request.id)
}

function envelope(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  code: number,
  message: string,
) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ status_code: code, message, data: null, request_id: requestIdOf(request) })
}

function errorHandler(
  error: FastifyError | EpusdtError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof EpusdtError) return envelope(reply, request, error.status, error.code, error.message)
  if (error instanceof InvoiceRefused) {
    const code = error.status === 503 ? 10003 : 400
    return envelope(reply, request, error.status, code, error.message)
  }
  if (error instanceof AppError) {
    // The shop's own checks before any handler: text PostgreSQL cannot keep, a body not JSON.
    const message = error.message.replace(/^Invalid request: /, '')
    return envelope(reply, request, error.status, error.status === 429 ? 429 : 10009, message)
  }
  const status = (error as FastifyError).statusCode ?? 500
  if (status < 500) return envelope(reply, request, status, 10009, 'the request could not be read: send JSON')
  request.log.error({ err: error }, 'epusdt request failed')
  return envelope(reply, request, 500, 400, 'system error')
}

/** The network of a trade type (or the shop's first, as epusdt's default usdt.trc20 is its first). */
function networkOfTradeType(chains: ChainRegistry, tradeType: string | null | undefined) {
  if (!tradeType) {
    try {
      return networkOf(chains, undefined)
    } catch (error) {
      if (error instanceof InvoiceRefused) throw new EpusdtError(503, 10003, error.message)
      throw error
    }
  }
  const wanted = parseMethod(epusdtTradeTypes[tradeType.toLowerCase()] ?? '')
  const choice = wanted && chooseNetwork(chains, wanted.chain, wanted.token)
  if (choice?.ok) return { chain: choice.chain, token: choice.token }
  const taken = chains
    .enabled()
    .flatMap((c) => c.tokens.map((t) => tradeTypeOf(paymentMethodId(c.chain, t.symbol))))
    .filter((t): t is string => t !== null)
  throw new EpusdtError(
    400,
    10005,
    `trade_type: ${tradeType} is not taken by this shop; it takes ${taken.join(', ') || 'none'}`,
  )
}

function checkUrls(input: EpusdtCreateRequest, allowPrivate: boolean): void {
  for (const field of ['notify_url', 'redirect_url'] as const) {
    const value = input[field]
    if (!value) continue
    try {
      // The callback goes to notify_url: the same guard as every webhook target.
      if (field === 'notify_url') checkTargetUrl(value, allowPrivate)
      else if (!/^https?:$/.test(new URL(value).protocol)) throw new TargetRefused('only http and https URLs')
    } catch (error) {
      const why = error instanceof TargetRefused ? error.message : 'not a valid URL'
      throw new EpusdtError(400, 400, `${field}: ${why}`)
    }
  }
}

export async function registerEpusdtApi(app: FastifyInstance, opts: EpusdtOptions): Promise<void> {
  const token = opts.env.EPUSDT_TOKEN
  const perClient = createWindowLimiter({ limit: opts.env.API_RATE_PER_CLIENT, windowMs: 60_000 })

  /** The answer for an invoice made (or found) for an epusdt order. */
  async function answerFor(invoiceId: string, orderId: string, request: FastifyRequest): Promise<string> {
    const found = await findInvoice(opts.db, invoiceId)
    const terms = (found?.invoice.checkout as { epusdt?: EpusdtTerms } | undefined)?.epusdt
    if (!found || !terms) throw new EpusdtError(409, 10002, `order_id ${orderId} belongs to another invoice`)
    return createAnswer(
      {
        tradeId: found.invoice.id,
        orderId,
        amount: terms.amount,
        actualAmount: centsAsAmount(found.order.totalCents),
        token: found.order.walletAddress,
        expirationTime: Math.floor(found.order.windowEndsAt.getTime() / 1000),
        paymentUrl: checkoutLinkOf(opts.publicUrl, found.invoice.id),
      },
      requestIdOf(request),
    )
  }

  async function createTransaction(request: FastifyRequest): Promise<string> {
    if (!token) throw new EpusdtError(404, 404, 'the epusdt protocol is not enabled on this shop')
    const wait = perClient.hit(rateLimitKey(request))
    if (wait > 0) throw new EpusdtError(429, 429, 'too many requests: slow down')
    const body = request.body
    if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > MAX_FIELDS) {
      throw new EpusdtError(400, 10009, 'the request could not be read: send a JSON object')
    }
    const params = body as Record<string, unknown>
    // The signature first, as epusdt checks it: an unsigned request learns nothing of the fields.
    if (!epusdtSignatureMatches(params, token)) throw new EpusdtError(401, 401, 'signature check failed')
    const parsed = epusdtCreateSchema.safeParse(params)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new EpusdtError(400, 400, `${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`)
    }
    const input = parsed.data
    checkUrls(input, opts.env.WEBHOOK_ALLOW_PRIVATE)
    const network = networkOfTradeType(opts.chains, input.trade_type)

    // The same order_id again: its open order is answered, an ended one refused (never a second order).
    const externalOrderId = `epusdt:${input.order_id}`
    const earlier = await latestInvoiceOf(opts.db, externalOrderId)
    if (earlier && earlier.orderStatus !== 'pending') {
      throw new EpusdtError(409, 10002, `order_id ${input.order_id} was used by an order that has ended`)
    }
    if (earlier) return answerFor(earlier.id, input.order_id, request)

    const rate = await opts.rate.getRate()
    if (!rate.ok) throw new EpusdtError(503, 10006, `no ${opts.env.EPUSDT_FIAT} rate now: ${rate.reason}`)
    const cents = fiatToTokenCents(decimalE8(input.amount), rate.rateE8)
    if (cents < 1n || cents > MAX_TOKEN_CENTS) {
      throw new EpusdtError(
        400,
        10004,
        `amount: ${input.amount} ${opts.env.EPUSDT_FIAT} is outside what one order can take`,
      )
    }
    const terms: EpusdtTerms = {
      notifyUrl: input.notify_url,
      fiat: opts.env.EPUSDT_FIAT,
      amount: input.amount,
      rate: rate.rate,
      tradeType: input.trade_type ?? null,
    }
    const id = await opts.invoices.placeAmount({
      cents: Number(cents),
      email: '',
      locale: localeOf(opts.env.EPUSDT_FIAT === 'CNY' ? 'zh' : opts.env.EPUSDT_FIAT === 'RUB' ? 'ru' : 'en'),
      network,
      windowMs: input.timeout ? input.timeout * 1000 : undefined,
      row: {
        externalOrderId,
        currency: network.token,
        metadata: { orderId: input.order_id, source: 'epusdt' },
        checkout: { redirectURL: input.redirect_url ?? null, epusdt: terms },
        apiKeyId: null,
      },
    })
    return answerFor(id, input.order_id, request)
  }

  await app.register(
    async (scope) => {
      scope.setErrorHandler(errorHandler)
      // Some carts post the parameters as a form; they are signed the same way.
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, text, done) => done(null, Object.fromEntries(new URLSearchParams(String(text)))),
      )
      scope.post('/create-transaction', { bodyLimit: 64 * 1024 }, async (request, reply) => {
        const answer = await createTransaction(request)
        return reply.type('application/json; charset=utf-8').send(answer)
      })
    },
    { prefix: '/api/v1/order' },
  )
}
