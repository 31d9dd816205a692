import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import { type ChainId, firstChain, type TokenSymbol } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import { type ChainAdapter, type ReceivedInPeriod, stableUnitsToMicros } from '../chains/chain'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { orders, payments } from '../db/schema'
import { allPoolAddresses } from '../wallets/wallets.repo'

// Reconciliation of one chain: for a period, per address and token, what the chain says our
// addresses received, what the ledger holds, how much of it is credited to orders and how much sits
// unmatched, and whether the orders' recorded amounts agree with the ledger. The chain side is the
// chain adapter's receivedInPeriod (decision 047): TRON's explorer account index, an EVM chain's
// Transfer logs of the accepted tokens over the period's blocks; a transfer the follower missed (or
// a ledger row lost) shows up as a difference. Amounts are base units of each token at its decimals
// on the chain (the token table).

export interface ReconcileRow {
  chain: ChainId
  address: string
  token: TokenSymbol
  /** The token's decimals on the chain (the token table): the amounts are base units of it. */
  decimals: number
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
  chain: ChainId
  fromMs: number
  toMs: number
  rows: ReconcileRow[]
  /** Orders whose recorded amounts differ from what the ledger credits to them. */
  orderMismatches: { orderId: string; token: TokenSymbol; recorded: bigint; credited: bigint }[]
  /** Addresses the chain could not be asked about, when it was asked (narrow: the period is too long). */
  chainErrors: { address: string; message: string; narrow: boolean }[]
  ties: boolean
}

/** What reconciliation needs of a chain: its adapter. */
export type ReconcileChain = Pick<ChainAdapter, 'chain' | 'family' | 'tokens' | 'receivedInPeriod'>

export interface ReconcileOptions {
  fromMs: number
  toMs: number
  /** Only these addresses (the chain's normal form); default every address of its family ever in the pool. */
  addresses?: readonly string[]
  /** The chain whose ledger rows are reconciled; default the adapter's, else TRON. */
  chain?: ChainId
  /** Also ask this chain what the addresses received. */
  adapter?: ReconcileChain
}

type Key = string
const keyOf = (address: string, token: string): Key => `${address}|${token}`

export async function reconcile(db: Db, opts: ReconcileOptions): Promise<ReconcileReport> {
  const chain = opts.adapter?.chain ?? opts.chain ?? firstChain
  if (opts.adapter && opts.chain && opts.chain !== opts.adapter.chain)
    throw new TypeError(`reconcile: chain ${opts.chain} asked through the ${opts.adapter.chain} adapter`)
  const rows = new Map<Key, ReconcileRow>()
  const row = (address: string, token: TokenSymbol) => {
    const k = keyOf(address, token)
    let r = rows.get(k)
    if (!r) {
      r = {
        chain,
        address,
        token,
        decimals: decimalsOf(chain, token),
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

  // Ledger side, grouped in the database (by source too: the chain side may not list every source).
  const inPeriod = [
    eq(payments.chain, chain),
    gte(payments.blockTimestamp, opts.fromMs),
    lt(payments.blockTimestamp, opts.toMs),
  ]
  if (opts.addresses) inPeriod.push(inArray(payments.toAddress, [...opts.addresses]))
  const ledger = await db
    .select({
      address: payments.toAddress,
      token: payments.token,
      status: payments.status,
      source: payments.source,
      units: sql<string>`sum(${payments.amountUnits})::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(payments)
    .where(and(...inPeriod))
    .groupBy(payments.toAddress, payments.token, payments.status, payments.source)
  const bySource = new Map<Key, Map<string, bigint>>()
  for (const l of ledger) {
    const r = row(l.address, l.token)
    const units = BigInt(l.units)
    r.ledgerUnits += units
    r.ledgerCount += l.count
    if (l.status === 'credited') r.creditedUnits += units
    else r.unmatchedUnits += units
    const sources = bySource.get(keyOf(l.address, l.token)) ?? new Map<string, bigint>()
    sources.set(l.source, (sources.get(l.source) ?? 0n) + units)
    bySource.set(keyOf(l.address, l.token), sources)
  }

  // Chain side, from the chain's adapter.
  const asked = opts.adapter ? await askChain(db, opts.adapter, opts, row) : null
  const chainErrors = asked?.unread ?? []
  const unlisted = asked?.unlisted ?? []

  for (const r of rows.values()) {
    const split = r.creditedUnits + r.unmatchedUnits === r.ledgerUnits
    // The ledger's rows of sources the chain side cannot see are not compared (TRON: internal TRX).
    let unseen = 0n
    for (const source of unlisted) unseen += bySource.get(keyOf(r.address, r.token))?.get(source) ?? 0n
    const fromChain = r.chainUnits === null ? true : r.chainUnits === r.ledgerUnits - unseen
    r.ties = split && fromChain
  }

  const orderMismatches = await orderMismatchesIn(db, chain, opts)

  const sorted = [...rows.values()].sort(
    (a, b) => a.address.localeCompare(b.address) || a.token.localeCompare(b.token),
  )
  return {
    chain,
    fromMs: opts.fromMs,
    toMs: opts.toMs,
    rows: sorted,
    orderMismatches,
    chainErrors,
    ties: sorted.every((r) => r.ties) && orderMismatches.length === 0 && chainErrors.length === 0,
  }
}

/** The chain side: what the adapter says the addresses received, into their rows. */
async function askChain(
  db: Db,
  adapter: ReconcileChain,
  opts: ReconcileOptions,
  row: (address: string, token: TokenSymbol) => ReconcileRow,
): Promise<Pick<ReceivedInPeriod, 'unread' | 'unlisted'>> {
  const addresses = opts.addresses ? [...opts.addresses] : await allPoolAddresses(db, adapter.family)
  const read = await adapter.receivedInPeriod(addresses, { fromMs: opts.fromMs, toMs: opts.toMs })
  const failed = new Set(read.unread.map((u) => u.address))
  for (const address of addresses) {
    if (failed.has(address)) continue
    for (const token of adapter.tokens) {
      const r = row(address, token.symbol)
      r.chainUnits = 0n
      r.chainCount = 0
    }
  }
  for (const t of read.transfers) {
    const r = row(t.to, t.token)
    r.chainUnits = (r.chainUnits ?? 0n) + t.value
    r.chainCount = (r.chainCount ?? 0) + 1
  }
  return read
}

/**
 * Each order credited in the period on the chain: its recorded amounts against its credited ledger
 * rows on any chain (an EVM order may be paid on another chain of its family): stablecoins in
 * micro-dollars at each token's decimals on its chain (reported as USDT), TRX in sun.
 */
async function orderMismatchesIn(
  db: Db,
  chain: ChainId,
  opts: { fromMs: number; toMs: number },
): Promise<ReconcileReport['orderMismatches']> {
  const period = sql`select order_id from ${payments}
    where chain = ${chain} and status = 'credited'
      and block_timestamp >= ${opts.fromMs} and block_timestamp < ${opts.toMs}`
  const recorded = (await db.execute(sql`
    select id as order_id, amount_received_units::text as stable, native_received_units::text as trx
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
  const mismatches: ReconcileReport['orderMismatches'] = []
  for (const m of recorded.rows) {
    if (mismatches.length >= 500) break
    const c = credited.get(m.order_id) ?? { stable: 0n, trx: 0n }
    if (BigInt(m.stable) !== c.stable)
      mismatches.push({
        orderId: m.order_id,
        token: 'USDT',
        recorded: BigInt(m.stable),
        credited: c.stable,
      })
    if (BigInt(m.trx) !== c.trx)
      mismatches.push({ orderId: m.order_id, token: 'TRX', recorded: BigInt(m.trx), credited: c.trx })
  }

  return mismatches
}

/** Base units as an exact decimal string with `decimals` decimals (default 6: micro-dollars, sun). */
export function formatUnits(units: bigint, decimals = 6): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const unit = 10n ** BigInt(decimals)
  const fraction = decimals > 0 ? `.${(abs % unit).toString().padStart(decimals, '0')}` : ''
  return `${negative ? '-' : ''}${abs / unit}${fraction}`
}

/** The report as text for the terminal. */
export function formatReport(report: ReconcileReport): string {
  const lines: string[] = []
  lines.push(
    `Reconciliation of ${chainNames[report.chain]} ${new Date(report.fromMs).toISOString()} .. ${new Date(report.toMs).toISOString()}`,
  )
  const header = ['address', 'token', 'chain', 'ledger', 'credited', 'unmatched', 'ties']
  const table = report.rows
    .filter((r) => r.ledgerCount > 0 || (r.chainCount ?? 0) > 0)
    .map((r) => [
      r.address,
      r.token,
      r.chainUnits === null ? '-' : `${formatUnits(r.chainUnits, r.decimals)} (${r.chainCount})`,
      `${formatUnits(r.ledgerUnits, r.decimals)} (${r.ledgerCount})`,
      formatUnits(r.creditedUnits, r.decimals),
      formatUnits(r.unmatchedUnits, r.decimals),
      r.ties ? 'yes' : 'NO',
    ])
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] ?? '').length)))
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')
  lines.push(fmt(header))
  for (const t of table) lines.push(fmt(t))
  if (table.length === 0) lines.push('(no transfers in this period)')
  for (const m of report.orderMismatches) {
    lines.push(
      `order ${m.orderId}: recorded ${formatUnits(m.recorded)} ${m.token === 'TRX' ? 'TRX' : 'USD'}, ledger credits ${formatUnits(m.credited)}`,
    )
  }
  for (const e of report.chainErrors) lines.push(`could not check ${e.address} on the chain: ${e.message}`)
  lines.push(report.ties ? 'TIES OUT' : 'DOES NOT TIE OUT')
  return lines.join('\n')
}
