import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { ChainId, TokenSymbol } from '../../shared/chains'
import type { Db } from '../db/client'
import { orders, payments } from '../db/schema'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { stableUnitsToMicros } from './chain'
import { decimalsOf } from './token-table'
import type { TronClient } from './tron/tron-client'

// Reconciliation: for a period, per address and token, what the chain says our addresses received,
// what the ledger holds, how much of it is credited to orders and how much sits unmatched, and
// whether the orders' recorded amounts agree with the ledger. Chain figures come from the explorer's
// per-account history (an independent index, not the blocks the follower read), so a transfer the
// follower missed shows up as a difference.

export interface ReconcileRow {
  address: string
  token: TokenSymbol
  /** Base units; null when the chain was not asked (ledger-only view) or did not answer. */
  chainUnits: bigint | null
  chainCount: number | null
  ledgerUnits: bigint
  ledgerCount: number
  creditedUnits: bigint
  unmatchedUnits: bigint
  /** The ledger's rows split into credited and unmatched add up, and match the chain when asked. */
  ties: boolean
}

export interface ReconcileReport {
  fromMs: number
  toMs: number
  rows: ReconcileRow[]
  /** Orders whose recorded amounts differ from what the ledger credits to them. */
  orderMismatches: { orderId: string; token: TokenSymbol; recorded: bigint; credited: bigint }[]
  /** Addresses the explorer could not be asked about (errors), when the chain was asked. */
  chainErrors: { address: string; message: string }[]
  ties: boolean
}

export interface ReconcileOptions {
  fromMs: number
  toMs: number
  /** Only these addresses; default every address ever in the pool. */
  addresses?: readonly string[]
  /** Ask the explorer for each address's history (two requests per address; TRON only). */
  client?: TronClient
  /** The chain whose ledger rows are reconciled; default TRON. */
  chain?: ChainId
}

export async function reconcile(db: Db, opts: ReconcileOptions): Promise<ReconcileReport> {
  const addresses = opts.addresses ? [...opts.addresses] : await allPoolAddresses(db)
  const key = (address: string, token: string) => `${address}|${token}`
  const rows = new Map<string, ReconcileRow>()
  const row = (address: string, token: TokenSymbol) => {
    const k = key(address, token)
    let r = rows.get(k)
    if (!r) {
      r = {
        address,
        token,
        chainUnits: null,
        chainCount: null,
        ledgerUnits: 0n,
        ledgerCount: 0,
        creditedUnits: 0n,
        unmatchedUnits: 0n,
        ties: true,
      }
      rows.set(k, r)
    }
    return r
  }

  // Ledger side, grouped in the database.
  const chain = opts.chain ?? 'tron'
  const conditions = [
    eq(payments.chain, chain),
    gte(payments.blockTimestamp, opts.fromMs),
    lt(payments.blockTimestamp, opts.toMs),
  ]
  if (opts.addresses) conditions.push(inArray(payments.toAddress, [...opts.addresses]))
  const ledger = await db
    .select({
      address: payments.toAddress,
      token: payments.token,
      status: payments.status,
      units: sql<string>`sum(${payments.amountUnits})::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(payments)
    .where(and(...conditions))
    .groupBy(payments.toAddress, payments.token, payments.status)
  for (const l of ledger) {
    const r = row(l.address, l.token)
    const units = BigInt(l.units)
    r.ledgerUnits += units
    r.ledgerCount += l.count
    if (l.status === 'credited') r.creditedUnits += units
    else r.unmatchedUnits += units
  }

  // Chain side, from the explorer's account history.
  const chainErrors: ReconcileReport['chainErrors'] = []
  if (opts.client && chain === 'tron') {
    const client = opts.client
    for (const address of addresses) {
      const range = { minTimestamp: opts.fromMs, maxTimestamp: opts.toMs - 1 }
      const usdt = await client.listTrc20Incoming(address, range)
      const trx = await client.listTrxIncoming(address, range)
      if (usdt.status === 'error' || trx.status === 'error') {
        const failed = usdt.status === 'error' ? usdt : trx.status === 'error' ? trx : null
        chainErrors.push({ address, message: failed?.message ?? 'explorer error' })
        continue
      }
      if (!usdt.complete || !trx.complete) {
        chainErrors.push({
          address,
          message: 'more history than one look can page through; narrow the period',
        })
        continue
      }
      const u = row(address, 'USDT')
      const genuine = usdt.transfers.filter(
        (t) => t.contract === client.usdtContract && t.type === 'Transfer' && t.to === address,
      )
      u.chainUnits = genuine.reduce((sum, t) => sum + t.value, 0n)
      u.chainCount = genuine.length
      const t = row(address, 'TRX')
      const incoming = trx.transfers.filter((x) => x.to === address)
      t.chainUnits = incoming.reduce((sum, x) => sum + x.value, 0n)
      t.chainCount = incoming.length
    }
  }

  // The TRX history lists plain transfers only; TRX sent by contract code is in the ledger alone.
  const internal = await db
    .select({ address: payments.toAddress, units: sql<string>`sum(${payments.amountUnits})::text` })
    .from(payments)
    .where(and(...conditions, sql`${payments.source} = 'internal'`))
    .groupBy(payments.toAddress)
  const internalBy = new Map(internal.map((i) => [i.address, BigInt(i.units)]))

  for (const r of rows.values()) {
    const split = r.creditedUnits + r.unmatchedUnits === r.ledgerUnits
    const fromChain =
      r.chainUnits === null
        ? true
        : r.chainUnits === r.ledgerUnits - (r.token === 'TRX' ? (internalBy.get(r.address) ?? 0n) : 0n)
    r.ties = split && fromChain
  }

  // Each order's recorded amounts against its credited ledger rows (on any chain): stablecoins in
  // micro-dollars at each token's decimals (reported as USDT), TRX in sun.
  const period = sql`select order_id from ${payments}
    where chain = ${chain} and status = 'credited'
      and block_timestamp >= ${opts.fromMs} and block_timestamp < ${opts.toMs}`
  const recorded = (await db.execute(sql`
    select id as order_id, amount_received_units::text as stable, trx_received_sun::text as trx
    from ${orders} where id in (${period})`)) as unknown as {
    rows: { order_id: string; stable: string; trx: string }[]
  }
  const sums = (await db.execute(sql`
    select order_id, chain, token, sum(amount_units)::text as units
    from ${payments} where status = 'credited' and order_id in (${period})
    group by order_id, chain, token`)) as unknown as {
    rows: { order_id: string; chain: ChainId; token: TokenSymbol; units: string }[]
  }
  const credited = new Map<string, { stable: bigint; trx: bigint }>()
  for (const r of sums.rows) {
    const c = credited.get(r.order_id) ?? { stable: 0n, trx: 0n }
    if (r.token === 'TRX') c.trx += BigInt(r.units)
    else c.stable += stableUnitsToMicros(BigInt(r.units), decimalsOf(r.chain, r.token))
    credited.set(r.order_id, c)
  }
  const orderMismatches: ReconcileReport['orderMismatches'] = []
  for (const m of recorded.rows) {
    if (orderMismatches.length >= 500) break
    const c = credited.get(m.order_id) ?? { stable: 0n, trx: 0n }
    if (BigInt(m.stable) !== c.stable)
      orderMismatches.push({
        orderId: m.order_id,
        token: 'USDT',
        recorded: BigInt(m.stable),
        credited: c.stable,
      })
    if (BigInt(m.trx) !== c.trx)
      orderMismatches.push({ orderId: m.order_id, token: 'TRX', recorded: BigInt(m.trx), credited: c.trx })
  }

  const sorted = [...rows.values()].sort(
    (a, b) => a.address.localeCompare(b.address) || a.token.localeCompare(b.token),
  )
  return {
    fromMs: opts.fromMs,
    toMs: opts.toMs,
    rows: sorted,
    orderMismatches,
    chainErrors,
    ties: sorted.every((r) => r.ties) && orderMismatches.length === 0 && chainErrors.length === 0,
  }
}

/** Base units as a decimal string with 6 decimals (USDT and TRX both have 6). */
export function formatUnits(units: bigint): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  return `${negative ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`
}

/** The report as text for the terminal. */
export function formatReport(report: ReconcileReport): string {
  const lines: string[] = []
  lines.push(
    `Reconciliation ${new Date(report.fromMs).toISOString()} .. ${new Date(report.toMs).toISOString()}`,
  )
  const header = ['address', 'token', 'chain', 'ledger', 'credited', 'unmatched', 'ties']
  const table = report.rows
    .filter((r) => r.ledgerCount > 0 || (r.chainCount ?? 0) > 0)
    .map((r) => [
      r.address,
      r.token,
      r.chainUnits === null ? '-' : `${formatUnits(r.chainUnits)} (${r.chainCount})`,
      `${formatUnits(r.ledgerUnits)} (${r.ledgerCount})`,
      formatUnits(r.creditedUnits),
      formatUnits(r.unmatchedUnits),
      r.ties ? 'yes' : 'NO',
    ])
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] ?? '').length)))
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')
  lines.push(fmt(header))
  for (const t of table) lines.push(fmt(t))
  if (table.length === 0) lines.push('(no transfers in this period)')
  for (const m of report.orderMismatches) {
    lines.push(
      `order ${m.orderId}: recorded ${formatUnits(m.recorded)} ${m.token}, ledger credits ${formatUnits(m.credited)}`,
    )
  }
  for (const e of report.chainErrors) lines.push(`could not check ${e.address} on the chain: ${e.message}`)
  lines.push(report.ties ? 'TIES OUT' : 'DOES NOT TIE OUT')
  return lines.join('\n')
}
