import { randomBytes } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Db } from '../db/client'
import { mailOutbox } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { drainOutbox, type OutboxTable, type OutboxWorker, retryPlan } from '../lib/outbox'
import { createPollLoop } from '../lib/poll-loop'

// The transactional outbox's sender. The confirming transaction writes the mail row; this worker
// sends it after commit through the shared outbox loop (lib/outbox.ts) and marks it sent afterwards.
// If the process dies after the mail server accepted the message and before the mark, the claim
// runs out and the mail is sent again: at least once, never twice otherwise. The Message-ID stays
// the same across attempts, so mail clients can fold such a duplicate.

export interface OutgoingMail {
  from: string
  to: string
  subject: string
  html: string
  text: string
  messageId: string
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file'
  /** Resolves once the mail is handed over; rejects when the server refuses or is down. */
  send(mail: OutgoingMail): Promise<{ reference: string }>
  close(): void
}

/**
 * nodemailer is loaded with the first mail, not with the server: it is about 6 MB of an idle
 * shop's memory, and a shop sends mail only when something sells (decision 046).
 */
function lazyTransporter(options: Parameters<typeof import('nodemailer').createTransport>[0]): {
  get(): Promise<Transporter>
  close(): void
} {
  let made: Promise<Transporter> | undefined
  return {
    get: () => {
      made ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(options))
      return made
    },
    close: () => {
      made?.then((transporter) => transporter.close()).catch(() => {})
    },
  }
}

export function createSmtpTransport(url: string): MailTransport {
  const transporter = lazyTransporter(url)
  return {
    kind: 'smtp',
    async send(mail) {
      const info = await (await transporter.get()).sendMail(mail)
      return { reference: String(info.messageId ?? mail.messageId) }
    },
    close: () => transporter.close(),
  }
}

/**
 * No SMTP server configured: one .eml file per mail under `dir`, so a new user sees what was sent.
 * The file is named by the mail's Message-ID and written under a temporary name, then renamed: a
 * retry after a crash replaces the file instead of adding a second one, and no reader ever sees a
 * half-written .eml.
 */
export function createFileTransport(dir: string): MailTransport {
  const transporter = lazyTransporter({ streamTransport: true, buffer: true, newline: 'windows' })
  return {
    kind: 'file',
    async send(mail) {
      const info = await (await transporter.get()).sendMail(mail)
      await mkdir(dir, { recursive: true })
      const path = join(dir, emlFileName(mail.messageId))
      const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`
      await writeFile(temporary, info.message as Buffer)
      await rename(temporary, path)
      return { reference: path }
    },
    close() {},
  }
}

/** "<order-abc-1@stablecart>" → "order-abc-1@stablecart.eml" (safe on any file system). */
export function emlFileName(messageId: string): string {
  return `${messageId.replace(/[^A-Za-z0-9.@-]/g, '').replace(/^\.+/, '') || 'mail'}.eml`
}

export interface MailWorkerOptions {
  db: Db
  transport: MailTransport
  from: string
  logger?: WorkerLogger
  /** How often to look for due mail when nobody wakes the worker. Default 5000. */
  pollMs?: number
  /** How long a claimed row stays claimed while it is being sent. Default 120 000. */
  claimMs?: number
  /** First retry delay; doubles per attempt up to maxBackoffMs (lib/outbox.ts). Default 10 000 and 30 min. */
  backoffBaseMs?: number
  maxBackoffMs?: number
  /** Attempts before a row is marked failed (the admin can resend it). Default 12. */
  maxAttempts?: number
}

export type MailWorker = OutboxWorker

const MAIL_OUTBOX: OutboxTable = {
  table: mailOutbox,
  status: 'status',
  attempts: 'attempts',
  nextAt: 'next_attempt_at',
  returning: ['order_id', 'to_email', 'subject', 'html', 'text_body', 'attempts'],
}

interface ClaimedMail {
  id: number
  order_id: string | null
  to_email: string
  subject: string
  html: string
  text_body: string
  attempts: number
}

export function createMailWorker(opts: MailWorkerOptions): MailWorker {
  const { db, transport } = opts
  const log = opts.logger ?? quietLogger
  const pollMs = opts.pollMs ?? 5000
  const claimMs = opts.claimMs ?? 120_000
  const retry = {
    baseMs: opts.backoffBaseMs ?? 10_000,
    maxMs: opts.maxBackoffMs ?? 30 * 60_000,
    maxAttempts: opts.maxAttempts ?? 12,
  }

  async function sendOne(mail: ClaimedMail): Promise<boolean> {
    try {
      const { reference } = await transport.send({
        from: opts.from,
        to: mail.to_email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text_body,
        messageId: `<order-${mail.order_id ?? 'none'}-${mail.id}@stablecart>`,
      })
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: new Date(), lastError: null })
        .where(eq(mailOutbox.id, mail.id))
      log.info(
        { mailId: mail.id, orderId: mail.order_id, to: mail.to_email, reference },
        transport.kind === 'file' ? `order e-mail written to ${reference}` : 'order e-mail sent',
      )
      return true
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const { delayMs: delay, final: failed } = retryPlan(mail.attempts, retry)
      await db
        .update(mailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          lastError: message.slice(0, 1000),
          nextAttemptAt: sql`now() + ${delay} * interval '1 millisecond'`,
        })
        .where(eq(mailOutbox.id, mail.id))
      log.warn(
        { mailId: mail.id, orderId: mail.order_id, attempts: mail.attempts, error: message },
        failed
          ? 'order e-mail failed for good; resend it from the admin'
          : 'order e-mail refused; will retry',
      )
      return false
    }
  }

  const drain = () => drainOutbox<ClaimedMail>(db, MAIL_OUTBOX, claimMs, sendOne)

  const loop = createPollLoop({ pollMs, pass: drain, logger: log, name: 'mail worker' })

  return {
    start: loop.start,
    async stop() {
      await loop.stop()
      transport.close()
    },
    wake: loop.wake,
    drain,
  }
}
