import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import type { PaymentRules } from '../payments/payment-rules'
import { recordListedTransaction } from './address-sweep'
import type { AccountItem, ChainAdapter } from './chain'
import { readFollowerStatus } from './chain-follower'

// The account reads (decision 054): the follower reads a block's receipts only where a contract call
// names one of our addresses (decision 045), so a contract that takes its recipient from storage or
// from its own logic pays us unseen. These reads close that gap from the provider's account index:
// - while an order is open, its address is read on a pace the key's day allows (`openReadEveryMs`);
// - every pool address, idle ones included, at least once a day (and at once after a start for any
//   address not read in the last day).
// Each read lists what reached the address since the stored `read_to` (final or not yet); what the
// ledger lacks is read from its block once the follower has passed it and recorded through the one
// ledger path: the block time decides the order (or `no_order`, which raises the operator's alert).
// How far each address was read is stored (`account_reads`), so a restart neither reads again what it
// read nor misses what it did not.

/** Requests one read costs on TRON: the USDT list and the transactions list (internal TRX included). */
export const REQUESTS_PER_READ = 2
/** The account index lags the chain: a read's `read_to` stays this far behind the follower's checkpoint. */
export const INDEX_LAG_MS = 60_000
/** A listed transaction no node knows this long (block time) behind the checkpoint was dropped. */
const DROPPED_AFTER_MS = 60_000
/** Idle addresses read in one pass at most, oldest read first: spreads a start-up's reads out. */
const IDLE_PER_PASS = 10

export interface AccountReadPace {
  /** The shortest time between two reads of an open order's address. */
  openEveryMs: number
  /** Requests a day the open-order reads may spend; the pace stretches past it with more orders. */
  openPerDay: number
  /** Every pool address is read at least this often. */
  idleEveryMs: number
}

export const DEFAULT_ACCOUNT_READ_PACE: AccountReadPace = {
  openEveryMs: 60_000,
  openPerDay: 17_280,
  idleEveryMs: 86_400_000,
}

/**
 * How often each open order's address is read with `open` orders open: every `openEveryMs`, until
 * the day's share would be spent; then the share is spread over them (decision 054's formula).
 */
export function openReadEveryMs(open: number, pace: AccountReadPace): number {
  const spread = Math.ceil((Math.max(1, open) * REQUESTS_PER_READ * 86_400_000) / pace.openPerDay)
  return Math.max(pace.openEveryMs, spread)
}

export interface AccountReads {
  /** One pass; answers the number of transfers it recorded. */
  run(): Promise<number>
}

type Row = {
  address: string
  added: number
  open_since: number | null
  read_to: number | null
  read_at: number | null
}

export function createAccountReads(opts: {
  db: Db
  chain: Pick<ChainAdapter, 'chain' | 'family' | 'lookupTransaction' | 'readAccount'>
  rules: PaymentRules
  pace?: Partial<AccountReadPace>
  /** A read recorded transfers (the buyer's page and the worker wake up). */
  onCommitted?: () => void
  onPaid?: (orderId: string) => void
  now?: () => number
  /** How far behind the checkpoint a read's `read_to` stays (default INDEX_LAG_MS). */
  indexLagMs?: number
  logger?: WorkerLogger
}): AccountReads {
  const { db, chain, rules } = opts
  const pace = { ...DEFAULT_ACCOUNT_READ_PACE, ...opts.pace }
  const now = opts.now ?? Date.now
  const log = opts.logger ?? quietLogger
  /** Listed but beyond the follower when read (`${txId}|${address}`): recorded once it passes them. */
  const waiting = new Map<string, { txId: string; address: string; blockTimestamp: number }>()

  /**
   * The transfers recorded; 'later' when not final or beyond the follower (or, while the follower
   * has not passed its block time, not known yet); null on a failure.
   */
  async function record(
    address: string,
    item: AccountItem,
    checkpoint: { block: number; time: number },
  ): Promise<number | 'later' | null> {
    const got = await recordListedTransaction(db, chain, rules, {
      address,
      txId: item.txId,
      checkpoint: checkpoint.block,
    })
    if (got === null || got === 'later') return got
    // Unknown to the node once the follower has passed its block time: dropped, nothing to record.
    if (got === 'gone') return item.blockTimestamp <= checkpoint.time - DROPPED_AFTER_MS ? 0 : 'later'
    if (got.recorded > 0) {
      log.warn(
        { chain: chain.chain, address, txId: item.txId, recorded: got.recorded },
        'account read recorded transfers',
      )
      opts.onCommitted?.()
      for (const id of got.paid) opts.onPaid?.(id)
    }
    return got.recorded
  }

  /** Reads one address from its stored point; answers the transfers recorded, or null on a failure. */
  async function readOne(row: Row, checkpoint: { block: number; time: number }): Promise<number | null> {
    const read = chain.readAccount
    if (!read) return 0
    const fromMs = row.read_to ?? Math.min(row.added, row.open_since ?? row.added)
    const got = await read(row.address, { fromMs })
    if (got.status === 'error') return null
    let recorded = 0
    let readTo = Math.max(fromMs, checkpoint.time - (opts.indexLagMs ?? INDEX_LAG_MS))
    const later = (item: AccountItem) => {
      waiting.set(`${item.txId}|${row.address}`, { ...item, address: row.address })
      readTo = Math.max(fromMs, Math.min(readTo, item.blockTimestamp - 1))
    }
    for (const item of got.items) {
      if (item.blockTimestamp > checkpoint.time) {
        later(item)
        continue
      }
      const done = await record(row.address, item, checkpoint)
      if (done === null) return null
      if (done === 'later') later(item)
      else recorded += done
    }
    await db.execute(sql`
      insert into account_reads (chain, address, read_to, read_at)
      values (${chain.chain}, ${row.address}, to_timestamp(${readTo} / 1000.0), to_timestamp(${now()} / 1000.0))
      on conflict (chain, address) do update set read_to = excluded.read_to, read_at = excluded.read_at`)
    return recorded
  }

  /** What was listed before the follower reached it, now that it has. */
  async function recordWaiting(checkpoint: { block: number; time: number }): Promise<number> {
    let recorded = 0
    for (const [key, item] of waiting) {
      if (item.blockTimestamp > checkpoint.time) continue
      const done = await record(item.address, item, checkpoint)
      if (done === null) break
      if (done !== 'later') {
        waiting.delete(key)
        recorded += done
      }
    }
    return recorded
  }

  async function run(): Promise<number> {
    if (!chain.readAccount) return 0
    const status = await readFollowerStatus(db, chain.chain)
    if (status.checkpointBlock === null || status.checkpointTime === null) return 0
    const checkpoint = { block: status.checkpointBlock, time: status.checkpointTime }
    let recorded = await recordWaiting(checkpoint)
    // The pool's addresses (its size bounds this, not the orders): the open lease by its partial
    // index, the stored read by its key.
    const result = (await db.execute(sql`
      select w.address,
        (extract(epoch from w.created_at) * 1000)::float8 as added,
        (select (extract(epoch from l.started_at) * 1000)::float8 from address_leases l
          where l.address = w.address and l.ended_at is null order by l.started_at desc limit 1) as open_since,
        (extract(epoch from r.read_to) * 1000)::float8 as read_to,
        (extract(epoch from r.read_at) * 1000)::float8 as read_at
      from wallet_addresses w
      left join account_reads r on r.chain = ${chain.chain} and r.address = w.address
      where w.family = ${chain.family} and w.removed_at is null`)) as unknown as { rows: Row[] }
    const rows = result.rows.map((r) => ({
      address: r.address,
      added: Number(r.added),
      open_since: r.open_since === null ? null : Number(r.open_since),
      read_to: r.read_to === null ? null : Number(r.read_to),
      read_at: r.read_at === null ? null : Number(r.read_at),
    }))
    const at = now()
    const open = rows.filter((r) => r.open_since !== null)
    const openEvery = openReadEveryMs(open.length, pace)
    const oldestFirst = (a: Row, b: Row) => (a.read_at ?? 0) - (b.read_at ?? 0)
    const due = [
      ...open.filter((r) => r.read_at === null || at - r.read_at >= openEvery).sort(oldestFirst),
      ...rows
        .filter((r) => r.open_since === null && (r.read_at === null || at - r.read_at >= pace.idleEveryMs))
        .sort(oldestFirst)
        .slice(0, IDLE_PER_PASS),
    ]
    for (const row of due) {
      const got = await readOne(row, checkpoint)
      if (got === null) break // the provider failed: the next pass reads it
      recorded += got
    }
    if (waiting.size > 10_000) waiting.clear() // the stored read_to brings them back
    return recorded
  }

  return { run }
}
