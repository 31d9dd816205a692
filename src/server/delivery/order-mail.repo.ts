import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { mailOutbox } from '../db/schema'

// The delivery module's mail outbox: queuing a mail (the only writer of new mail_outbox rows: the
// order e-mail, the order links, the operator's alerts) and the admin's actions on an order's mail.

export interface QueuedMail {
  /** The order the mail is about; one mail of a kind per order. */
  orderId?: string | null
  kind: string
  to: string
  subject: string
  html: string
  text: string
}

/**
 * Queues a mail in the caller's transaction; the mail worker sends it after commit. A second mail
 * of the same kind for the same order is not queued. Answers whether it was.
 */
export async function queueMail(tx: Db, mail: QueuedMail): Promise<boolean> {
  const rows = await tx
    .insert(mailOutbox)
    .values({
      orderId: mail.orderId ?? null,
      kind: mail.kind,
      toEmail: mail.to,
      subject: mail.subject,
      html: mail.html,
      textBody: mail.text,
    })
    .onConflictDoNothing()
    .returning({ id: mailOutbox.id })
  return rows.length > 0
}

/** Queues the order's e-mails again: the outbox worker sends them on its next pass. */
export async function requeueOrderMail(db: Db, orderId: string): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(eq(mailOutbox.orderId, orderId))
    .returning({ id: mailOutbox.id })
  return rows.length
}

/** An e-mail not sent yet goes with its deleted order; a sent one stays with the buyer anyway. */
export async function dropUnsentMail(tx: Db, orderId: string): Promise<void> {
  await tx.delete(mailOutbox).where(and(eq(mailOutbox.orderId, orderId), sql`${mailOutbox.status} <> 'sent'`))
}

/** An order's e-mails and their sending state, oldest first (the admin's order detail). */
export async function mailsOfOrder(db: Db, orderId: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId)).orderBy(mailOutbox.id)
}

export interface FailingMails {
  /** Mails written in the last day that failed for good or were refused at least three times. */
  count: number
  /** The last error of one of them (for the operator's alert); null when none fails. */
  lastError: string | null
}

/**
 * "Mail failing", the one definition the sales view and the operator's alert share: a mail of the
 * last day that failed for good, or is still pending after three refusals (one refusal is a
 * hiccup the retries take care of; an older failure was already reported).
 */
export async function failingMails(db: Db): Promise<FailingMails> {
  const result = (await db.execute(sql`
    select count(*)::int as n, max(last_error) as error from ${mailOutbox}
    where created_at > now() - interval '1 day' and (status = 'failed' or (status = 'pending' and attempts >= 3))`)) as unknown as {
    rows: { n: number; error: string | null }[]
  }
  const row = result.rows[0]
  return { count: Number(row?.n ?? 0), lastError: row?.n ? (row.error ?? null) : null }
}
