import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import type { PaymentRules } from '../payments/payment-rules'
import { recordAndSettle } from '../payments/settle-order'
import { allPoolAddresses } from '../wallets/wallets.repo'
import type { ChainAdapter } from './chain'
import { readFollowerStatus } from './chain-follower'

// The safety net under the follower's cheaper read (decision 045). The follower reads a block's
// receipts only where a contract call names one of our addresses; a contract that pays an address
// its call data does not name (USDT or internal TRX) is not seen there. So each address is checked
// against the provider's account index twice per order: once its order has ended (paid, cancelled,
// expired: the chain's clock past the end), and once more before its cool-down ends. Any
// transaction the index lists that the ledger lacks is read from its block, exactly as the buyer's
// hash is, and recorded through the same ledger path: nothing is recorded twice (the ledger's key),
// and a transfer keeps the block time that decides which order it belongs to.

/** The second look comes this long (chain time) before the cool-down ends. */
export const COOLDOWN_SWEEP_LEAD_MS = 15 * 60_000
/** Addresses checked per pass, oldest first: bounds the requests one pass spends. */
const LEASES_PER_PASS = 20

export interface AddressSweep {
  /** One pass; answers the number of transfers it recorded. */
  run(): Promise<number>
}

type Row = { id: number; address: string; started: number; ended: number; cooldown: number | null }

/**
 * One transaction an account list names for `address`: nothing when the ledger has it; else read
 * from its block as the buyer's hash is and recorded through the ledger's one path (its key makes it
 * once; the block time decides the order). 'later' when it is not final or beyond the follower's
 * checkpoint; 'gone' when no node knows it; null when the provider failed.
 */
export async function recordListedTransaction(
  db: Db,
  chain: Pick<ChainAdapter, 'chain' | 'family' | 'lookupTransaction'>,
  rules: PaymentRules,
  at: { address: string; txId: string; checkpoint: number },
): Promise<{ recorded: number; paid: string[] } | 'later' | 'gone' | null> {
  const known = (await db.execute(sql`
    select 1 from payments where chain = ${chain.chain} and tx_id = ${at.txId} and to_address = ${at.address} limit 1`)) as unknown as {
    rows: unknown[]
  }
  if (known.rows.length > 0) return { recorded: 0, paid: [] }
  const watch = new Set(await allPoolAddresses(db, chain.family))
  const view = await chain.lookupTransaction(at.txId, { watch })
  if (view.status === 'error') return null
  // Listed by the index, yet no node knows it: dropped from the chain (or the node lags).
  if (view.state === 'unknown') return 'gone'
  if (view.state !== 'final' || view.blockNumber === null || view.blockNumber > at.checkpoint) return 'later'
  const transfers = view.blockTransfers
  const done = await db.transaction((trx) => recordAndSettle(trx, transfers, rules))
  return { recorded: done.outcomes.filter((o) => o.kind !== 'known').length, paid: done.paid }
}

export function createAddressSweep(opts: {
  db: Db
  chain: Pick<ChainAdapter, 'chain' | 'family' | 'lookupTransaction' | 'listReceived'>
  rules: PaymentRules
  logger?: WorkerLogger
}): AddressSweep {
  const { db, chain, rules } = opts
  const log = opts.logger ?? quietLogger
  const family = chain.family
  /** `${lease}:end` and `${lease}:cool` once looked at (per process: a restart looks again, harmlessly). */
  const done = new Set<string>()

  async function sweepOne(row: Row, toMs: number, checkpoint: number): Promise<number | null> {
    const list = chain.listReceived
    if (!list) return 0
    const got = await list(row.address, { fromMs: row.started, toMs })
    if (got.status === 'error') return null
    let recorded = 0
    for (const txId of got.txIds) {
      const done = await recordListedTransaction(db, chain, rules, { address: row.address, txId, checkpoint })
      if (done === null) return null
      // Not final yet, beyond the follower, or gone: the follower (or the next pass) reads it.
      if (done === 'later' || done === 'gone') continue
      recorded += done.recorded
      if (done.recorded > 0) {
        log.warn(
          { chain: chain.chain, address: row.address, txId, recorded: done.recorded, paid: done.paid },
          'safety net recorded transfers the follower did not see',
        )
      }
    }
    return recorded
  }

  async function run(): Promise<number> {
    if (!chain.listReceived) return 0
    const { checkpointBlock, checkpointTime } = await readFollowerStatus(db, chain.chain)
    if (checkpointBlock === null || checkpointTime === null) return 0
    const result = (await db.execute(sql`
      select l.id, l.address,
        (extract(epoch from l.started_at) * 1000)::float8 as started,
        (extract(epoch from l.ended_at) * 1000)::float8 as ended,
        (extract(epoch from l.cooldown_until) * 1000)::float8 as cooldown
      from address_leases l
      join wallet_addresses w on w.address = l.address and w.family = ${family}
      where l.ended_at is not null
        and l.ended_at <= to_timestamp(${checkpointTime} / 1000.0)
        and (l.cooldown_until is null or l.cooldown_until > to_timestamp(${checkpointTime} / 1000.0))
      order by l.ended_at
      limit 500`)) as unknown as { rows: Row[] }
    let recorded = 0
    let looked = 0
    for (const raw of result.rows) {
      if (looked >= LEASES_PER_PASS) break
      const row = { ...raw, started: Number(raw.started), ended: Number(raw.ended) }
      const cooldown = raw.cooldown === null ? null : Number(raw.cooldown)
      const phase = cooldown !== null && checkpointTime >= cooldown - COOLDOWN_SWEEP_LEAD_MS ? 'cool' : 'end'
      const key = `${row.id}:${phase}`
      if (done.has(key)) continue
      looked += 1
      const got = await sweepOne(row, checkpointTime, checkpointBlock)
      if (got === null) break // the provider failed: the next pass tries again
      recorded += got
      done.add(key)
      if (phase === 'cool') done.add(`${row.id}:end`)
    }
    if (done.size > 100_000) done.clear()
    return recorded
  }

  return { run }
}
