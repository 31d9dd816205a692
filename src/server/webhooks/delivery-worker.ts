import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { webhookDeliveries, webhookEndpoints } from '../db/schema'
import { signedCallbackBody } from '../invoices/epusdt-protocol'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { drainOutbox, type OutboxTable, type OutboxWorker, retryPlan } from '../lib/outbox'
import { createPollLoop } from '../lib/poll-loop'
import { checkTargetUrl, guardedLookup } from './safe-target'
import { BTCPAY_SIGNATURE_HEADER, btcpaySignature, SIGNATURE_HEADER, signBody } from './signature'

// Sends the webhook outbox through the shared outbox loop (lib/outbox.ts): a 2xx marks a row
// delivered. A process that dies mid-post leaves the claim to run out and the row is sent again: at
// least once, with the same event id for the receiver to de-duplicate. Failures retry with the
// shared back-off until a day has passed since the event, then it is failed (the admin can resend it).

export interface WebhookWorkerOptions {
  db: Db
  /** WEBHOOK_ALLOW_PRIVATE: let targets on loopback and private networks through (tests, intranets). */
  allowPrivate: boolean
  /** EPUSDT_TOKEN: signs the epusdt paid callbacks when they are sent (unset: they wait, then fail). */
  epusdtToken?: string
  logger?: WorkerLogger
  /** Looks for due rows this often when nobody wakes it. Default 5000. */
  pollMs?: number
  /** A claimed row stays claimed this long while it is posted. Default 60 000. */
  claimMs?: number
  /** First retry delay; doubles per attempt up to 2 h (lib/outbox.ts). Default 10 000. */
  backoffBaseMs?: number
  /** Retries stop this long after the event. Default one day. */
  retryForMs?: number
  /** Per attempt, connect to last byte. Default 10 000. */
  timeoutMs?: number
  /** Bytes of the answer read at most; the rest is dropped. Default 64 KiB. */
  maxResponseBytes?: number
}

export type WebhookWorker = OutboxWorker

const WEBHOOK_OUTBOX: OutboxTable = {
  table: webhookDeliveries,
  status: 'status',
  attempts: 'attempts',
  nextAt: 'next_attempt_at',
  returning: ['endpoint_id', 'body', 'attempts', 'created_at'],
}

interface Claimed {
  id: number
  endpoint_id: number
  body: string
  attempts: number
  created_at: string | Date
}

export interface PostResult {
  status: number | null
  response: string
}

const MAX_BACKOFF_MS = 2 * 60 * 60_000
const KEPT_ANSWER_CHARS = 1000

/** One signed POST; never throws, never follows redirects. */
export function postSigned(
  target: string,
  body: string,
  secret: string,
  opts: {
    allowPrivate: boolean
    timeoutMs: number
    maxResponseBytes: number
    eventId: string
    /** 'greenfield': BTCPay's BTCPay-Sig header instead of the shop's own signature; 'epusdt': signed in the body. */
    kind?: 'stablecart' | 'greenfield' | 'epusdt'
  },
): Promise<PostResult> {
  return new Promise((resolve) => {
    let url: URL
    try {
      url = checkTargetUrl(target, opts.allowPrivate)
    } catch (error) {
      resolve({ status: null, response: `refused: ${(error as Error).message}` })
      return
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const signed =
      opts.kind === 'epusdt'
        ? {}
        : opts.kind === 'greenfield'
          ? { [BTCPAY_SIGNATURE_HEADER]: btcpaySignature(secret, body) }
          : {
              [SIGNATURE_HEADER]: signBody(secret, body, Math.floor(Date.now() / 1000)),
              'Stablecart-Event-Id': opts.eventId,
            }
    let settled = false
    const finish = (result: PostResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Stablecart-Webhooks/1',
          ...signed,
        },
        lookup: guardedLookup(opts.allowPrivate) as never,
        timeout: opts.timeoutMs,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > opts.maxResponseBytes) {
            // Enough: the status is known, the rest of the answer is not worth reading.
            chunks.push(chunk.subarray(0, Math.max(0, opts.maxResponseBytes - (size - chunk.length))))
            res.destroy()
            finish({
              status: res.statusCode ?? null,
              response: Buffer.concat(chunks).toString('utf8').slice(0, KEPT_ANSWER_CHARS),
            })
            return
          }
          chunks.push(chunk)
        })
        res.on('end', () =>
          finish({
            status: res.statusCode ?? null,
            response: Buffer.concat(chunks).toString('utf8').slice(0, KEPT_ANSWER_CHARS),
          }),
        )
        res.on('error', (error) =>
          finish({ status: res.statusCode ?? null, response: `error: ${error.message}` }),
        )
      },
    )
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)))
    req.on('error', (error) => finish({ status: null, response: `error: ${error.message}` }))
    req.on('close', () => clearTimeout(deadline))
    req.end(body)
  })
}

export function createWebhookWorker(opts: WebhookWorkerOptions): WebhookWorker {
  const { db } = opts
  const log = opts.logger ?? quietLogger
  const pollMs = opts.pollMs ?? 5000
  const claimMs = opts.claimMs ?? 60_000
  const retry = {
    baseMs: opts.backoffBaseMs ?? 10_000,
    maxMs: MAX_BACKOFF_MS,
    retryForMs: opts.retryForMs ?? 24 * 60 * 60_000,
  }
  const postOpts = {
    allowPrivate: opts.allowPrivate,
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxResponseBytes: opts.maxResponseBytes ?? 64 * 1024,
  }

  async function deliver(row: Claimed): Promise<boolean> {
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, row.endpoint_id))
    if (!endpoint) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastResponse: 'endpoint deleted' })
        .where(eq(webhookDeliveries.id, row.id))
      return false
    }
    const parsed = JSON.parse(row.body) as { id?: string; deliveryId?: string; trade_id?: string }
    const eventId = parsed.id ?? parsed.deliveryId ?? parsed.trade_id ?? ''
    const epusdt = endpoint.kind === 'epusdt'
    // An epusdt callback is signed with the token as it is sent (decision 056); without one it waits.
    const result =
      epusdt && !opts.epusdtToken
        ? { status: null, response: 'EPUSDT_TOKEN is not set: the callback cannot be signed' }
        : await postSigned(
            endpoint.url,
            epusdt ? signedCallbackBody(row.body, opts.epusdtToken as string) : row.body,
            endpoint.secret,
            { ...postOpts, eventId, kind: endpoint.kind },
          )
    // epusdt's sellers confirm a callback by answering ok (or success); anything else is sent again.
    const ok =
      result.status !== null &&
      result.status >= 200 &&
      result.status < 300 &&
      (!epusdt || /^(ok|success)$/i.test(result.response.trim()))
    if (ok) {
      await db
        .update(webhookDeliveries)
        .set({
          status: 'delivered',
          deliveredAt: new Date(),
          lastStatusCode: result.status,
          lastResponse: result.response,
        })
        .where(eq(webhookDeliveries.id, row.id))
      log.info({ deliveryId: row.id, eventId, url: endpoint.url, status: result.status }, 'webhook delivered')
      return true
    }
    const ageMs = Date.now() - new Date(row.created_at).getTime()
    const { delayMs: delay, final: giveUp } = retryPlan(row.attempts, retry, { ageMs })
    await db
      .update(webhookDeliveries)
      .set({
        status: giveUp ? 'failed' : 'pending',
        lastStatusCode: result.status,
        lastResponse: result.response,
        nextAttemptAt: sql`now() + ${delay} * interval '1 millisecond'`,
      })
      .where(eq(webhookDeliveries.id, row.id))
    log.warn(
      { deliveryId: row.id, eventId, url: endpoint.url, status: result.status, attempts: row.attempts },
      giveUp ? 'webhook failed for good; resend it from the admin' : 'webhook refused; will retry',
    )
    return false
  }

  const drain = () => drainOutbox<Claimed>(db, WEBHOOK_OUTBOX, claimMs, deliver)

  const loop = createPollLoop({ pollMs, pass: drain, logger: log, name: 'webhook worker' })

  return {
    start: loop.start,
    stop: loop.stop,
    wake: loop.wake,
    drain,
  }
}
