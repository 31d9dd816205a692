import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import type { FulfilContext } from '../delivery/fulfil-order'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { type CreditOutcome, creditTransfers, expireUnpaidOrder, type SeenTransfer } from './credit-order'
import type { TronClient, TronError } from './tron-client'

// The server watches the chain (DESIGN.md §5): every pending order's address is polled, orders whose
// window has ended are polled less often until their grace period is over, and an order whose grace
// has passed gets one last look before it is cancelled. Work is claimed through the database
// (FOR UPDATE SKIP LOCKED), so several processes share it without polling one address twice.

export interface PaymentWatcherOptions {
  db: Db
  client: TronClient
  toleranceMicros: bigint
  fulfil: FulfilContext
  /** Minimum time between two polls of one pending order. Default 3000 (one TRON block). */
  activeIntervalMs?: number
  /** Minimum time between two polls of an order whose window has ended. Default 30 000. */
  graceIntervalMs?: number
  /** Orders polled at the same time; the client's request budget paces them. Default 3. */
  concurrency?: number
  /** Pause when there is nothing due. Default 500. */
  idleMs?: number
  /** First pause after an explorer failure; doubles up to maxBackoffMs. Default 1000. */
  backoffBaseMs?: number
  maxBackoffMs?: number
  logger?: WorkerLogger
  /** Called after each order is paid (tests, the mail worker's wake-up). */
  onPaid?: (orderId: string) => void
}

export interface ClaimedOrder {
  id: string
  walletAddress: string
  createdMs: number
  graceUntilMs: number
  /** The grace period is over: this is the last look before the order is cancelled. */
  final: boolean
  /** TRX is read when the order offered it, and on the last look (kept unmatched when it did not). */
  pollsTrx: boolean
  /** The buyer's payment page is open: its requests go ahead of routine polling. */
  watched?: boolean
}

export interface PollResult {
  /** The explorer answered every request of this poll. */
  ok: boolean
  error?: TronError
  outcome?: CreditOutcome
  expired?: boolean
}

export interface PaymentWatcher {
  start(): void
  /** Stops claiming work and waits for the polls in flight. */
  stop(): Promise<void>
  /** Claims and polls every due order once (tests, benchmarks). Answers how many it polled. */
  drain(): Promise<number>
  /** Polls one order now, whatever its schedule. */
  pollOrder(order: ClaimedOrder): Promise<PollResult>
}

export function createPaymentWatcher(opts: PaymentWatcherOptions): PaymentWatcher {
  const { db, client } = opts
  const activeMs = opts.activeIntervalMs ?? 3000
  const graceMs = opts.graceIntervalMs ?? 30_000
  const concurrency = Math.max(1, opts.concurrency ?? 3)
  const idleMs = opts.idleMs ?? 500
  const backoffBase = opts.backoffBaseMs ?? 1000
  const maxBackoff = opts.maxBackoffMs ?? 30_000
  const log = opts.logger ?? quietLogger
  let running = false
  let loops: Promise<void>[] = []
  let failures = 0
  const sleepers = new Set<() => void>()

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        sleepers.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      sleepers.add(done)
    })

  /** Takes the most urgent due order: the ones a buyer is looking at first, then the longest waiting. */
  async function claim(exclude: readonly string[] = []): Promise<ClaimedOrder | null> {
    const result = (await db.execute(sql`
      update ${orders} o set next_poll_at = now() + case
          when o.expires_at > now() then ${activeMs} * interval '1 millisecond'
          else ${graceMs} * interval '1 millisecond' end
      where o.id = (
        select id from ${orders}
        where status = 'pending' and next_poll_at <= now()
          ${
            exclude.length > 0
              ? sql`and id not in (${sql.join(
                  exclude.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        order by (watched_until is not null and watched_until > now()) desc, next_poll_at asc
        limit 1
        for update skip locked
      )
      returning o.id, o.wallet_address, o.created_at, o.grace_until,
                (o.trx_rate_e8 is not null or o.grace_until <= now()) as polls_trx,
                (o.watched_until is not null and o.watched_until > now()) as watched,
                o.grace_until <= now() as final`)) as unknown as {
      rows: {
        id: string
        wallet_address: string
        created_at: string | Date
        grace_until: string | Date
        polls_trx: boolean
        watched: boolean
        final: boolean
      }[]
    }
    const row = result.rows[0]
    if (!row) return null
    return {
      id: row.id,
      walletAddress: row.wallet_address,
      createdMs: new Date(row.created_at).getTime(),
      graceUntilMs: new Date(row.grace_until).getTime(),
      final: row.final,
      pollsTrx: row.polls_trx,
      watched: row.watched,
    }
  }

  async function pollOrder(order: ClaimedOrder): Promise<PollResult> {
    const seen: SeenTransfer[] = []
    // Only transfers after the order was created can pay it; the explorer filters by block time.
    const minTimestamp = order.createdMs
    const urgent = order.watched === true
    const usdt = await client.listTrc20Incoming(order.walletAddress, { minTimestamp, urgent })
    if (usdt.status === 'error') return { ok: false, error: usdt }
    for (const t of usdt.transfers) {
      // The contract, never the symbol; Transfer rows only (Approval carries a value too).
      if (t.contract !== client.usdtContract || t.type !== 'Transfer' || t.to !== order.walletAddress)
        continue
      seen.push({
        txId: t.transactionId,
        token: 'USDT',
        from: t.from,
        to: t.to,
        value: t.value,
        blockTimestamp: t.blockTimestamp,
      })
    }
    if (order.pollsTrx) {
      const trx = await client.listTrxIncoming(order.walletAddress, { minTimestamp, urgent })
      if (trx.status === 'error') return { ok: false, error: trx }
      for (const t of trx.transfers) {
        if (t.to !== order.walletAddress) continue
        seen.push({
          txId: t.transactionId,
          token: 'TRX',
          from: t.from,
          to: t.to,
          value: t.value,
          blockTimestamp: t.blockTimestamp,
        })
      }
    }
    const fresh = seen.filter((t) => t.blockTimestamp > order.createdMs)
    let outcome: CreditOutcome | undefined
    if (fresh.length > 0) {
      outcome = await creditTransfers(db, order.id, fresh, {
        toleranceMicros: opts.toleranceMicros,
        fulfil: opts.fulfil,
      })
      if (outcome.kind === 'paid') {
        log.info({ orderId: order.id, txHash: outcome.txHash, late: outcome.late }, 'order paid')
        opts.onPaid?.(order.id)
      } else if (outcome.kind === 'pending' && outcome.credited.length > 0) {
        log.info(
          { orderId: order.id, received: outcome.receivedMicros.toString() },
          'partial payment received',
        )
      }
    }
    let expired = false
    if (order.final && outcome?.kind !== 'paid') {
      expired = await expireUnpaidOrder(db, order.id)
      if (expired) log.info({ orderId: order.id }, 'order cancelled: grace period over without payment')
    }
    return { ok: true, outcome, expired }
  }

  /** One claim and poll; answers false when nothing was due. */
  async function step(): Promise<boolean> {
    const order = await claim()
    if (!order) return false
    const result = await pollOrder(order)
    if (result.ok) {
      failures = 0
    } else {
      failures += 1
      const error = result.error
      // Each failure is logged once per streak length that is a power of two: loud at first, then quiet.
      if ((failures & (failures - 1)) === 0) {
        log.warn(
          { kind: error?.kind, failures, message: error?.message },
          'explorer request failed; backing off',
        )
      }
      await sleep(Math.min(maxBackoff, backoffBase * 2 ** Math.min(failures - 1, 16)))
    }
    return true
  }

  async function loop(): Promise<void> {
    while (running) {
      try {
        const worked = await step()
        if (!worked && running) await sleep(idleMs)
      } catch (error) {
        // A database hiccup must not kill the watcher; it tries again after a pause.
        log.error({ err: error }, 'payment watcher step failed')
        if (running) await sleep(Math.min(maxBackoff, backoffBase * 4))
      }
    }
  }

  return {
    start() {
      if (running) return
      running = true
      loops = Array.from({ length: concurrency }, () => loop())
    },
    async stop() {
      running = false
      for (const done of [...sleepers]) done()
      await Promise.all(loops)
      loops = []
    },
    async drain() {
      // Each due order once, even with a zero interval (tests set one to poll on demand).
      const seen: string[] = []
      for (let order = await claim(); order; order = await claim(seen)) {
        seen.push(order.id)
        await pollOrder(order)
      }
      return seen.length
    },
    pollOrder,
  }
}
