import { asc, inArray } from 'drizzle-orm'
import type { Locale } from '../../shared/locale'
import type { Db } from '../db/client'
import { orderLinkAsks } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import { sendOrderLinks } from './order-links'

// Answers "e-mail me my orders" after the buyer has had the answer: the request only records the
// ask (recordOrderLinkAsk); this worker takes the asks in order and, per ask in one transaction,
// finds the address's paid orders, stores a link and queues the mail, and deletes the ask. Two
// processes skip each other's asks (FOR UPDATE SKIP LOCKED); an ask whose pass fails stays for the
// next one.

/** The one write the request makes: the same for an address that bought and one that did not. */
export async function recordOrderLinkAsk(db: Db, email: string, locale: Locale): Promise<void> {
  await db.insert(orderLinkAsks).values({ email, locale })
}

const BATCH = 20

/** Answers the waiting asks; answers how many mails were queued. */
export async function answerOrderLinkAsks(db: Db, publicUrl: string): Promise<number> {
  let queued = 0
  for (;;) {
    const taken = await db.transaction(async (tx) => {
      const asks = await tx
        .select()
        .from(orderLinkAsks)
        .orderBy(asc(orderLinkAsks.id))
        .limit(BATCH)
        .for('update', { skipLocked: true })
      for (const ask of asks) {
        if (await sendOrderLinks(tx, ask.email, publicUrl, ask.locale)) queued += 1
      }
      if (asks.length > 0) {
        await tx.delete(orderLinkAsks).where(
          inArray(
            orderLinkAsks.id,
            asks.map((a) => a.id),
          ),
        )
      }
      return asks.length
    })
    if (taken < BATCH) return queued
  }
}

export interface OrderLinksWorker {
  start(): void
  stop(): Promise<void>
  /** An ask was recorded in this process: answer it now rather than at the next poll. */
  wake(): void
}

export function createOrderLinksWorker(opts: {
  db: Db
  publicUrl: string
  /** Mails were queued: the mail worker can send them. */
  onQueued: () => void
  pollMs?: number
  logger?: WorkerLogger
}): OrderLinksWorker {
  const loop = createPollLoop({
    pollMs: opts.pollMs ?? 5000,
    pass: async () => {
      if ((await answerOrderLinkAsks(opts.db, opts.publicUrl)) > 0) opts.onQueued()
    },
    logger: opts.logger ?? quietLogger,
    name: 'order-links worker',
  })
  return loop
}
