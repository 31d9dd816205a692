import { createHash, randomBytes } from 'node:crypto'
import { base58 } from '@scure/base'
import { normalizeTronAddress, tronAddressToAbiWord, tronBase58ToHex } from '../../src/shared/tron-address'

// In-memory block chain behind the devchain: blocks produced one after another, the transactions in
// them, their TRC20 logs and internal TRX moves, and the JSON shapes java-tron and TronGrid answer
// with. Knows nothing about HTTP or timers: the devchain decides when a block is produced.

export const MAINNET_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
/** Index 1 of the project's test mnemonic: the default sender. */
export const DEFAULT_SENDER = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'
/** Default spender of transferFrom calls (an exchange or payment contract moving a holder's tokens). */
export const DEFAULT_SPENDER = 'TFEh87ZWJkK3nNf3haQQ8U2Hzmca1Qqdi9'
/** Default contract for batch payouts (`logs` without `via_contract`). */
export const DEFAULT_PAYOUT_CONTRACT = 'TEhyGfaHMqZkmE5Q5BHFXm1SNj2uFhzZd6'
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const APPROVAL_TOPIC = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const TRANSFER_SELECTOR = 'a9059cbb'
const TRANSFER_FROM_SELECTOR = '23b872dd'
const APPROVE_SELECTOR = '095ea7b3'
// Selectors of made-up payout/router functions: only the call's shape matters to a chain follower.
const ROUTER_SELECTOR = 'c5ebeaec'
const PAYOUT_SELECTOR = '1e83409a'
const WITHDRAW_SELECTOR = '2e1a7d4d'
const SWAP_SELECTOR = '38ed1739'
const CALL_NOTE = Buffer.from('call').toString('hex')
const TOKEN_DECIMALS = 6
const TRX_DECIMALS = 6
const UINT256_MAX = (1n << 256n) - 1n
const INT64_MAX = (1n << 63n) - 1n
const USDT_ENERGY = 14_650
/** Energy a USDT transfer got before running out (a fee limit of about 3 TRX at 210 sun). */
const OUT_OF_ENERGY_USAGE = 14_285
const ENERGY_PRICE_SUN = 210
const WITNESS = '41b2f713d57dbcec679d93a8849fa0cd0e4db594ba'
const BLOCK_VERSION = 31
export const GENESIS_BLOCK = 60_000_000

export class SimInputError extends Error {}

export type EventType = 'Transfer' | 'Approval'

export interface SimLog {
  contract: string
  from: string
  to: string
  value: bigint
  type: EventType
}

export interface SimInternalTransfer {
  hash: string
  caller: string
  to: string
  value: bigint
  rejected: boolean
}

export interface SimInternalRow {
  tx: SimTransaction
  move: SimInternalTransfer
}

/** How a contract call fails on chain: a revert, or the energy paid for ran out. */
export type FailureKind = 'REVERT' | 'OUT_OF_ENERGY'

export interface SimTransaction {
  seq: number
  txid: string
  kind: 'trx' | 'trigger'
  failed: boolean
  /** The chain's result of a failed call (ret[0].contractRet and receipt.result); null when it succeeded. */
  failure: FailureKind | null
  /** The block the transaction is (or will be) in. */
  blockNumber: number
  blockTimestamp: number
  rawDataHex: string
  signature: string
  /** Signer: TRX sender, or the caller of the contract. */
  owner: string
  /** TransferContract only: recipient and sun amount. */
  to: string | null
  amount: bigint
  /** TriggerSmartContract only: the called contract and its call data. */
  contract: string | null
  data: string | null
  logs: SimLog[]
  internals: SimInternalTransfer[]
}

export interface SimEvent {
  seq: number
  tx: SimTransaction
  log: SimLog
}

export interface SimBlock {
  number: number
  id: string
  parentHash: string
  timestamp: number
  txs: SimTransaction[]
  /** Unrelated transfers generated on demand from the block number, so they cost no memory. */
  noise: number
}

export interface LogInput {
  to: string
  amount: string | number
  from?: string
  contract?: string
  type?: EventType
}

export interface TransferInput {
  to?: string
  amount?: string | number
  token: 'USDT' | 'TRX'
  from?: string
  spender?: string
  method?: 'transfer' | 'transferFrom'
  via_contract?: string
  logs?: LogInput[]
  contract?: string
  type: EventType
  txid?: string
  /** true is a revert; or the failure by name. */
  failed: boolean | FailureKind
  rejected?: boolean
  /** via_contract only: the call data names no recipient. */
  unnamed?: boolean
  /** USDT via_contract with unnamed only: internal TRX legs of the same call, a swap-like payout. */
  swap_trx?: { to: string; amount: string | number }[]
}

export interface ListQuery {
  address: string
  onlyConfirmed: boolean
  onlyUnconfirmed: boolean
  onlyTo: boolean
  onlyFrom: boolean
  limit: number
  contract?: string
  minTimestamp?: number
  maxTimestamp?: number
  ascending: boolean
  fingerprint?: string
}

export interface Page<T> {
  items: T[]
  fingerprint?: string
}

/** Parses a token amount ("12.5", 12.5) into base units with BigInt; floats never touch the value. */
export function parseTokenAmount(amount: string | number, decimals = TOKEN_DECIMALS): bigint {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : amount.trim()
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) {
    throw new SimInputError(
      `amount must be a non-negative decimal number in token units such as "12.5", got ${JSON.stringify(amount)}`,
    )
  }
  const whole = match[1] ?? '0'
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) {
    throw new SimInputError(`amount has more than ${decimals} decimals: ${JSON.stringify(amount)}`)
  }
  return BigInt(whole + fraction.padEnd(decimals, '0'))
}

// java-tron prints int64 fields as JSON numbers, which JSON.stringify cannot do for values above 2^53:
// bodies carry them as bigint and toNodeJson writes the digits verbatim.
const INT64_MARK = '\u0001int64:'
export function toNodeJson(body: unknown): string {
  const text = JSON.stringify(body, (_key, value) =>
    typeof value === 'bigint' ? `${INT64_MARK}${value.toString()}` : value,
  )
  return text.replace(/"\\u0001int64:(-?\d+)"/g, '$1')
}

function word(value: bigint): string {
  return value.toString(16).padStart(64, '0')
}

function bareHex(address: string): string {
  return tronBase58ToHex(address).slice(2)
}

function sha256Hex(hex: string): string {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex')
}

function sha256Text(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function requireAddress(value: string | undefined, field: string): string {
  const address = value === undefined ? null : normalizeTronAddress(value)
  if (!address) throw new SimInputError(`${field} is not a valid TRON address: ${JSON.stringify(value)}`)
  return address
}

function blockIdOf(number: number, seed: string): string {
  return number.toString(16).padStart(16, '0') + sha256Text(seed).slice(16)
}

export interface SimChainOptions {
  usdtContract: string
  blockIntervalMs: number
  /** Blocks between the head and the solidified head. */
  solidifyLag: number
  /** Unrelated USDT transfers added to every produced block. */
  noisePerBlock?: number
  now?: () => number
}

export class SimChain {
  readonly usdtContract: string
  readonly blockIntervalMs: number
  readonly solidifyLag: number
  noisePerBlock: number
  private readonly now: () => number
  private seq = 0
  private blocks: SimBlock[] = []
  private pending: SimTransaction[] = []
  /** Fixed when the first transfer for the next block arrives, so its answer can name the block time. */
  private pendingTimestamp: number | null = null
  private txs = new Map<string, SimTransaction>()
  private events: SimEvent[] = []

  constructor(opts: SimChainOptions) {
    this.usdtContract = requireAddress(opts.usdtContract, 'usdtContract')
    if (!(opts.blockIntervalMs > 0)) throw new SimInputError('blockIntervalMs must be positive')
    if (!(Number.isInteger(opts.solidifyLag) && opts.solidifyLag >= 0)) {
      throw new SimInputError('solidifyLag must be a non-negative integer')
    }
    this.blockIntervalMs = opts.blockIntervalMs
    this.solidifyLag = opts.solidifyLag
    this.noisePerBlock = opts.noisePerBlock ?? 0
    this.now = opts.now ?? Date.now
    this.reset()
  }

  /** A fresh chain whose head is "now" and whose solidified head is its first block. */
  reset(): void {
    this.blocks = []
    this.pending = []
    this.pendingTimestamp = null
    this.txs = new Map()
    this.events = []
    // A random seed per chain: a restarted devchain never repeats block ids a chain follower has recorded.
    const seed = randomBytes(8).toString('hex')
    const now = this.now()
    for (let i = 0; i <= this.solidifyLag; i++) {
      const number = GENESIS_BLOCK + i
      const parentHash = this.blocks[i - 1]?.id ?? blockIdOf(number - 1, `${seed}:parent`)
      this.blocks.push({
        number,
        id: blockIdOf(number, `${seed}:${parentHash}`),
        parentHash,
        timestamp: now - (this.solidifyLag - i) * this.blockIntervalMs,
        txs: [],
        noise: 0,
      })
    }
  }

  private get last(): SimBlock {
    return this.blocks[this.blocks.length - 1] as SimBlock
  }

  headBlock(): number {
    return this.last.number
  }

  solidBlock(): number {
    return this.last.number - this.solidifyLag
  }

  /** The produced block with this number, if any (solidOnly: and it is solidified). */
  getBlock(number: number, solidOnly = false): SimBlock | undefined {
    const index = number - GENESIS_BLOCK
    if (!Number.isSafeInteger(index) || index < 0) return undefined
    const block = this.blocks[index]
    if (!block || (solidOnly && block.number > this.solidBlock())) return undefined
    return block
  }

  getBlockById(id: string, solidOnly = false): SimBlock | undefined {
    const number = Number.parseInt(id.slice(0, 16), 16)
    const block = this.getBlock(number, solidOnly)
    return block?.id === id.toLowerCase() ? block : undefined
  }

  private nextTimestamp(): number {
    return Math.max(this.last.timestamp + this.blockIntervalMs, this.now())
  }

  /** Produces one block holding every submitted transaction plus the configured noise. */
  produceBlock(): SimBlock {
    const parent = this.last
    const number = parent.number + 1
    const timestamp = this.pendingTimestamp ?? this.nextTimestamp()
    const txs = this.pending
    const block: SimBlock = {
      number,
      id: blockIdOf(number, `${parent.id}:${timestamp}:${txs.map((t) => t.txid).join(',')}`),
      parentHash: parent.id,
      timestamp,
      txs,
      noise: this.noisePerBlock,
    }
    this.blocks.push(block)
    this.pending = []
    this.pendingTimestamp = null
    return block
  }

  /** Number of the block the next submitted transfer lands in. */
  pendingBlock(): number {
    return this.headBlock() + 1
  }

  /** The block of the latest submitted transfer (pending or mined), or null before any. */
  lastTransferBlock(): number | null {
    let last: number | null = null
    for (const tx of this.txs.values()) last = Math.max(last ?? tx.blockNumber, tx.blockNumber)
    return last
  }

  /** True when transfers are waiting for the next block. */
  hasPending(): boolean {
    return this.pending.length > 0
  }

  counts() {
    const txs = [...this.txs.values()]
    const solid = this.solidBlock()
    const head = this.headBlock()
    return {
      transactions: txs.length,
      confirmed: txs.filter((t) => t.blockNumber <= solid).length,
      unconfirmed: txs.filter((t) => t.blockNumber > solid && t.blockNumber <= head).length,
      pending: this.pending.length,
      trx_transfers: txs.filter((t) => t.kind === 'trx').length,
      trc20_events: this.events.length,
      head_block: head,
      solid_block: solid,
      block_interval_ms: this.blockIntervalMs,
      solidify_lag: this.solidifyLag,
      noise_per_block: this.noisePerBlock,
    }
  }

  /** A transaction already in a block (pending ones are not on chain yet). */
  getTransaction(txid: string, solidOnly = false): SimTransaction | undefined {
    const tx = this.txs.get(txid.toLowerCase())
    if (!tx) return undefined
    const limit = solidOnly ? this.solidBlock() : this.headBlock()
    return tx.blockNumber <= limit ? tx : undefined
  }

  isConfirmed(tx: SimTransaction): boolean {
    return tx.blockNumber <= this.solidBlock()
  }

  addTransfer(input: TransferInput): SimTransaction {
    if (input.txid !== undefined && this.txs.has(input.txid.toLowerCase())) {
      throw new SimInputError('txid is already used by another transaction')
    }
    const from = input.from === undefined ? DEFAULT_SENDER : requireAddress(input.from, 'from')
    const via = input.via_contract === undefined ? null : requireAddress(input.via_contract, 'via_contract')
    if (input.rejected !== undefined && !(input.token === 'TRX' && via)) {
      throw new SimInputError('rejected applies to TRX sent by a contract (token TRX with via_contract) only')
    }
    if (input.unnamed !== undefined && !via) {
      throw new SimInputError('unnamed applies to transfers made by a contract (via_contract) only')
    }
    if (input.swap_trx !== undefined && !(via && input.unnamed && input.token === 'USDT')) {
      throw new SimInputError('swap_trx applies to a USDT payout by a contract with unnamed: true only')
    }
    if (input.logs !== undefined) return this.addBatch(input, from, via)
    if (input.to === undefined) throw new SimInputError('to is required: a TRON address')
    if (input.amount === undefined)
      throw new SimInputError('amount is required: a decimal string such as "12.5"')
    const to = requireAddress(input.to, 'to')

    if (input.token === 'TRX') {
      for (const field of ['contract', 'method', 'spender'] as const) {
        if (input[field] !== undefined) throw new SimInputError(`${field} applies to USDT transfers only`)
      }
      if (input.type !== 'Transfer') throw new SimInputError('type Approval applies to TRC20 transfers only')
      const value = parseTokenAmount(input.amount, TRX_DECIMALS)
      if (value <= 0n || value > INT64_MAX) {
        throw new SimInputError('a TRX amount must be above 0 and fit in int64 sun')
      }
      if (!via) {
        if (input.failed)
          throw new SimInputError('failed applies to contract calls only (USDT or TRX via_contract)')
        return this.submit(input, { kind: 'trx', owner: from, to, amount: value })
      }
      // A contract paying out TRX: the call is on the contract, the TRX move only in internal_transactions.
      // A reverted call rejects every internal transfer it made.
      const tx = this.submit(input, {
        kind: 'trigger',
        owner: from,
        contract: via,
        data: input.unnamed
          ? unnamedCall(input)
          : `${PAYOUT_SELECTOR}${tronAddressToAbiWord(to)}${word(value)}`,
      })
      tx.internals.push({
        hash: sha256Text(`${tx.txid}:internal:0`),
        caller: via,
        to,
        value,
        rejected: input.rejected === true || input.failed !== false,
      })
      return tx
    }

    const value = parseTokenAmount(input.amount)
    if (value > UINT256_MAX) throw new SimInputError('amount does not fit in uint256')
    const token =
      input.contract === undefined ? this.usdtContract : requireAddress(input.contract, 'contract')
    const method = input.method ?? 'transfer'
    if (method === 'transferFrom' && via) {
      throw new SimInputError('method transferFrom and via_contract cannot be combined')
    }
    if (input.spender !== undefined && method !== 'transferFrom') {
      throw new SimInputError('spender applies to method transferFrom only')
    }
    if (method === 'transferFrom' && input.type === 'Approval') {
      throw new SimInputError('type Approval applies to method transfer only')
    }
    const log: SimLog = { contract: token, from, to, value, type: input.type }
    let tx: SimTransaction
    if (via) {
      tx = this.submit(input, {
        kind: 'trigger',
        owner: from,
        contract: via,
        data: input.swap_trx
          ? swapCall(value)
          : input.unnamed
            ? unnamedCall(input)
            : `${ROUTER_SELECTOR}${tronAddressToAbiWord(to)}${word(value)}`,
      })
      // The swap's inner legs: TRX moved by the contract's code, in the receipt only.
      for (const [i, leg] of (input.swap_trx ?? []).entries()) {
        const trx = parseTokenAmount(leg.amount, TRX_DECIMALS)
        if (trx <= 0n || trx > INT64_MAX)
          throw new SimInputError('a TRX amount must be above 0 and fit in int64 sun')
        tx.internals.push({
          hash: sha256Text(`${tx.txid}:internal:${i}`),
          caller: via,
          to: requireAddress(leg.to, 'swap_trx.to'),
          value: trx,
          rejected: input.failed !== false,
        })
      }
    } else if (method === 'transferFrom') {
      const spender = input.spender === undefined ? DEFAULT_SPENDER : requireAddress(input.spender, 'spender')
      tx = this.submit(input, {
        kind: 'trigger',
        owner: spender,
        contract: token,
        data: `${TRANSFER_FROM_SELECTOR}${tronAddressToAbiWord(from)}${tronAddressToAbiWord(to)}${word(value)}`,
      })
    } else {
      const selector = input.type === 'Approval' ? APPROVE_SELECTOR : TRANSFER_SELECTOR
      tx = this.submit(input, {
        kind: 'trigger',
        owner: from,
        contract: token,
        data: `${selector}${tronAddressToAbiWord(to)}${word(value)}`,
      })
    }
    this.addLogs(tx, [log])
    return tx
  }

  private addBatch(input: TransferInput, from: string, via: string | null): SimTransaction {
    if (input.token !== 'USDT') throw new SimInputError('logs applies to USDT (token) transfers only')
    for (const field of ['to', 'amount', 'contract', 'method', 'spender'] as const) {
      if (input[field] !== undefined) {
        throw new SimInputError(`${field} cannot be combined with logs: give it on each log instead`)
      }
    }
    if (input.type !== 'Transfer')
      throw new SimInputError('type cannot be combined with logs: give it on each log')
    const logInputs = input.logs ?? []
    if (logInputs.length === 0 || logInputs.length > 100)
      throw new SimInputError('logs must hold 1 to 100 logs')
    const caller = via ?? DEFAULT_PAYOUT_CONTRACT
    const logs = logInputs.map((l, i): SimLog => {
      const value = parseTokenAmount(l.amount)
      if (value > UINT256_MAX) throw new SimInputError(`logs.${i}.amount does not fit in uint256`)
      return {
        // A payout contract pays from its own balance unless the log names another holder.
        from: l.from === undefined ? caller : requireAddress(l.from, `logs.${i}.from`),
        to: requireAddress(l.to, `logs.${i}.to`),
        contract:
          l.contract === undefined ? this.usdtContract : requireAddress(l.contract, `logs.${i}.contract`),
        value,
        type: l.type ?? 'Transfer',
      }
    })
    const tx = this.submit(input, {
      kind: 'trigger',
      owner: from,
      contract: caller,
      // payout(address[] to, uint256[] values): every recipient is an ABI word of the call data.
      data: batchPayoutCall(
        logs.map((l) => l.to),
        logs.map((l) => l.value),
      ),
    })
    this.addLogs(tx, logs)
    return tx
  }

  private addLogs(tx: SimTransaction, logs: SimLog[]) {
    for (const log of logs) {
      tx.logs.push(log)
      // A reverted call emits no logs, so it never shows up as a TRC20 transfer.
      if (!tx.failed) this.events.push({ seq: ++this.seq, tx, log })
    }
  }

  private submit(
    input: TransferInput,
    body: Partial<Pick<SimTransaction, 'to' | 'amount' | 'contract' | 'data'>> &
      Pick<SimTransaction, 'kind' | 'owner'>,
  ): SimTransaction {
    if (this.pendingTimestamp === null) this.pendingTimestamp = this.nextTimestamp()
    const rawDataHex = `0a02${randomBytes(2).toString('hex')}2208${randomBytes(8).toString('hex')}40${randomBytes(40).toString('hex')}`
    // A generated txID is sha256(raw_data) as on the real chain; random so a restarted devchain never
    // hands out a transaction id a shop database has already recorded.
    const txid = input.txid?.toLowerCase() ?? sha256Hex(rawDataHex)
    const failure: FailureKind | null =
      input.failed === false ? null : input.failed === true ? 'REVERT' : input.failed
    const tx: SimTransaction = {
      seq: ++this.seq,
      txid,
      failed: failure !== null,
      failure,
      blockNumber: this.pendingBlock(),
      blockTimestamp: this.pendingTimestamp,
      rawDataHex,
      signature: randomBytes(65).toString('hex'),
      to: null,
      amount: 0n,
      contract: null,
      data: null,
      logs: [],
      internals: [],
      ...body,
    }
    this.txs.set(txid, tx)
    this.pending.push(tx)
    return tx
  }

  /**
   * Makes a transaction vanish before its block is solidified, as a fork that did not include it
   * would: it leaves its block, and that block and every later one get new ids (each linked to the
   * one before). A transfer still waiting for its block just leaves the queue.
   */
  dropTransaction(txid: string): { block_number: number; reorganised_blocks: number } {
    const tx = this.txs.get(txid.toLowerCase())
    if (!tx) throw new SimInputError('txid names no transaction of this chain')
    if (tx.blockNumber <= this.solidBlock()) {
      throw new SimInputError('the transaction is in a solidified block: solidified blocks never change')
    }
    this.txs.delete(tx.txid)
    this.events = this.events.filter((e) => e.tx !== tx)
    const waiting = this.pending.indexOf(tx)
    if (waiting >= 0) {
      this.pending.splice(waiting, 1)
      return { block_number: tx.blockNumber, reorganised_blocks: 0 }
    }
    const first = tx.blockNumber - GENESIS_BLOCK
    const block = this.blocks[first] as SimBlock
    block.txs = block.txs.filter((t) => t !== tx)
    const salt = randomBytes(4).toString('hex')
    for (let i = first; i < this.blocks.length; i++) {
      const b = this.blocks[i] as SimBlock
      b.parentHash = (this.blocks[i - 1] as SimBlock).id
      b.id = blockIdOf(b.number, `${b.parentHash}:fork:${salt}:${b.txs.map((t) => t.txid).join(',')}`)
    }
    return { block_number: tx.blockNumber, reorganised_blocks: this.blocks.length - first }
  }

  listTrc20(q: ListQuery): Page<SimEvent> {
    const head = this.headBlock()
    const rows = this.events.filter((e) => {
      if (e.tx.blockNumber > head) return false
      if (q.contract !== undefined && e.log.contract !== q.contract) return false
      return this.matches(q, e.tx, e.log.from, e.log.to)
    })
    return paginate(rows, q, (e) => [e.tx.blockTimestamp, e.seq])
  }

  /**
   * The address's transactions, and the TRX contract code moved to or from it: TronGrid lists those
   * internal transfers in the same list (search_internal, on by default) as items of their own.
   */
  listTransactions(q: ListQuery): Page<SimTransaction | SimInternalRow> {
    const head = this.headBlock()
    const rows: (SimTransaction | SimInternalRow)[] = []
    for (const tx of this.txs.values()) {
      if (tx.blockNumber > head) continue
      // A contract call lists its caller as owner and the contract as its counterpart.
      const to = tx.kind === 'trx' ? (tx.to ?? '') : (tx.contract ?? '')
      if (this.matches(q, tx, tx.owner, to)) rows.push(tx)
      for (const move of tx.internals) {
        if (this.matches(q, tx, move.caller, move.to)) rows.push({ tx, move })
      }
    }
    return paginate(rows, q, (r) =>
      'move' in r ? [r.tx.blockTimestamp, r.tx.seq * 2 + 1] : [r.blockTimestamp, r.seq * 2],
    )
  }

  /** One internal item of /v1/accounts/{address}/transactions, as TronGrid prints it. */
  v1Internal(r: SimInternalRow) {
    return {
      internal_tx_id: r.move.hash,
      data: { note: '63616c6c', rejected: r.move.rejected, call_value: { _: Number(r.move.value) } },
      block_timestamp: r.tx.blockTimestamp,
      to_address: tronBase58ToHex(r.move.to),
      tx_id: r.tx.txid,
      from_address: tronBase58ToHex(r.move.caller),
    }
  }

  private matches(q: ListQuery, tx: SimTransaction, from: string, to: string): boolean {
    const confirmed = this.isConfirmed(tx)
    if (q.onlyConfirmed && !confirmed) return false
    if (q.onlyUnconfirmed && confirmed) return false
    if (q.minTimestamp !== undefined && tx.blockTimestamp < q.minTimestamp) return false
    if (q.maxTimestamp !== undefined && tx.blockTimestamp > q.maxTimestamp) return false
    // Both only_to and only_from set is the same as neither.
    const wantTo = q.onlyTo && !q.onlyFrom
    const wantFrom = q.onlyFrom && !q.onlyTo
    if (wantTo) return to === q.address
    if (wantFrom) return from === q.address
    return to === q.address || from === q.address
  }

  // ---- noise ----

  /** The i-th unrelated USDT transfer of a block, rebuilt identically on every call. */
  private noiseTx(block: SimBlock, i: number): SimTransaction {
    const seed = sha256Text(`${block.id}:noise:${i}`)
    const more = sha256Text(seed)
    const from = normalizeTronAddress(`41${seed.slice(0, 40)}`) as string
    const to = normalizeTronAddress(`41${more.slice(0, 40)}`) as string
    const value = BigInt(`0x${more.slice(40, 48)}`)
    return {
      seq: 0,
      txid: sha256Text(`${seed}:tx`),
      kind: 'trigger',
      failed: false,
      failure: null,
      blockNumber: block.number,
      blockTimestamp: block.timestamp,
      rawDataHex: `0a02${seed.slice(0, 4)}2208${seed.slice(4, 20)}40${more}`,
      signature: (seed + more).padEnd(130, '0').slice(0, 130),
      owner: from,
      to: null,
      amount: 0n,
      contract: this.usdtContract,
      data: `${TRANSFER_SELECTOR}${tronAddressToAbiWord(to)}${word(value)}`,
      logs: [{ contract: this.usdtContract, from, to, value, type: 'Transfer' }],
      internals: [],
    }
  }

  /** Every transaction of a block in block order: submitted ones first, then noise. */
  blockTransactions(block: SimBlock): SimTransaction[] {
    const noise = Array.from({ length: block.noise }, (_, i) => this.noiseTx(block, i))
    return [...block.txs, ...noise]
  }

  // ---- JSON shapes ----

  trc20Item(e: SimEvent) {
    return {
      transaction_id: e.tx.txid,
      token_info: { symbol: 'USDT', address: e.log.contract, decimals: TOKEN_DECIMALS, name: 'Tether USD' },
      block_timestamp: e.tx.blockTimestamp,
      from: e.log.from,
      to: e.log.to,
      type: e.log.type,
      value: e.log.value.toString(),
    }
  }

  /** A transaction as printed in blocks and by gettransactionbyid. */
  transactionBody(tx: SimTransaction) {
    const refBlock = (tx.blockNumber - 1).toString(16).padStart(8, '0')
    const createdAt = tx.blockTimestamp - 2_000
    const rawData: Record<string, unknown> = { contract: [this.contractOf(tx)] }
    rawData.ref_block_bytes = refBlock.slice(-4)
    rawData.ref_block_hash = sha256Hex(refBlock).slice(0, 16)
    rawData.expiration = createdAt + 60_000
    if (tx.kind === 'trigger') rawData.fee_limit = 100_000_000
    rawData.timestamp = createdAt
    return {
      ret: [{ contractRet: tx.failure ?? 'SUCCESS' }],
      signature: [tx.signature],
      txID: tx.txid,
      raw_data: rawData,
      raw_data_hex: tx.rawDataHex,
    }
  }

  /** One item of /v1/accounts/{address}/transactions. */
  v1Transaction(tx: SimTransaction) {
    const body = this.transactionBody(tx)
    const energy = tx.kind === 'trigger' ? USDT_ENERGY : 0
    return {
      ret: [{ contractRet: body.ret[0]?.contractRet, fee: energy * ENERGY_PRICE_SUN }],
      signature: body.signature,
      txID: body.txID,
      net_usage: tx.kind === 'trigger' ? 345 : 268,
      raw_data_hex: body.raw_data_hex,
      net_fee: 0,
      energy_usage: 0,
      energy_fee: energy * ENERGY_PRICE_SUN,
      energy_usage_total: energy,
      blockNumber: tx.blockNumber,
      block_timestamp: tx.blockTimestamp,
      raw_data: body.raw_data,
      internal_transactions: [],
    }
  }

  private contractOf(tx: SimTransaction) {
    if (tx.kind === 'trx') {
      return {
        parameter: {
          value: {
            amount: tx.amount,
            owner_address: tronBase58ToHex(tx.owner),
            to_address: tronBase58ToHex(tx.to ?? tx.owner),
          },
          type_url: 'type.googleapis.com/protocol.TransferContract',
        },
        type: 'TransferContract',
      }
    }
    return {
      parameter: {
        value: {
          data: tx.data ?? '',
          owner_address: tronBase58ToHex(tx.owner),
          contract_address: tronBase58ToHex(tx.contract ?? this.usdtContract),
        },
        type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
      },
      type: 'TriggerSmartContract',
    }
  }

  /** A TransactionInfo as gettransactioninfobyid prints it; zero-valued fields are left out. */
  transactionInfo(tx: SimTransaction) {
    if (tx.kind === 'trx') {
      return {
        id: tx.txid,
        blockNumber: tx.blockNumber,
        blockTimeStamp: tx.blockTimestamp,
        contractResult: [''],
        receipt: { net_usage: 268 },
      }
    }
    // Out of energy: the call burns the TRX it was allowed (its fee limit) for the energy it got and
    // pays its bandwidth in TRX too, as a wallet without staked resources does.
    const outOfEnergy = tx.failure === 'OUT_OF_ENERGY'
    const energyUsed = outOfEnergy ? OUT_OF_ENERGY_USAGE : USDT_ENERGY
    const energyFee = energyUsed * ENERGY_PRICE_SUN
    const receipt: Record<string, unknown> = outOfEnergy
      ? { energy_fee: energyFee, energy_usage_total: energyUsed, net_fee: 345_000, result: 'OUT_OF_ENERGY' }
      : {
          energy_fee: energyFee,
          energy_usage_total: energyUsed,
          net_usage: 345,
          result: tx.failure ?? 'SUCCESS',
        }
    const info: Record<string, unknown> = {
      id: tx.txid,
      fee: BigInt(energyFee + (outOfEnergy ? 345_000 : 0)),
      blockNumber: tx.blockNumber,
      blockTimeStamp: tx.blockTimestamp,
      contractResult: [tx.failed ? '' : word(1n)],
      contract_address: tronBase58ToHex(tx.contract ?? this.usdtContract),
      receipt,
    }
    if (!tx.failed && tx.logs.length > 0) {
      info.log = tx.logs.map((l) => ({
        address: bareHex(l.contract),
        topics: [
          l.type === 'Approval' ? APPROVAL_TOPIC : TRANSFER_TOPIC,
          tronAddressToAbiWord(l.from),
          tronAddressToAbiWord(l.to),
        ],
        data: word(l.value),
      }))
    }
    if (tx.failed) {
      info.result = 'FAILED'
      // java-tron's messages: Program.OutOfEnergyException and the REVERT opcode's.
      info.resMessage = Buffer.from(
        outOfEnergy
          ? `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${energyUsed}], curOpEnergy[20000], usedEnergy[${energyUsed - 1_650}]`
          : 'REVERT opcode executed',
      ).toString('hex')
    }
    if (tx.internals.length > 0) {
      info.internal_transactions = tx.internals.map((t) => ({
        hash: t.hash,
        caller_address: tronBase58ToHex(t.caller),
        transferTo_address: tronBase58ToHex(t.to),
        callValueInfo: [{ callValue: t.value }],
        note: CALL_NOTE,
        ...(t.rejected ? { rejected: true } : {}),
      }))
    }
    return info
  }

  /** A block as java-tron prints it: no `transactions` key at all when it has none (or detail is off). */
  blockBody(block: SimBlock, detail = true) {
    const body: Record<string, unknown> = {
      blockID: block.id,
      block_header: {
        raw_data: {
          number: block.number,
          txTrieRoot: block.txs.length + block.noise === 0 ? '0'.repeat(64) : sha256Text(`${block.id}:trie`),
          witness_address: WITNESS,
          parentHash: block.parentHash,
          version: BLOCK_VERSION,
          timestamp: block.timestamp,
        },
        witness_signature: sha256Text(`${block.id}:sig`).repeat(3).slice(0, 130),
      },
    }
    if (detail) {
      const txs = this.blockTransactions(block)
      if (txs.length > 0) body.transactions = txs.map((tx) => this.transactionBody(tx))
    }
    return body
  }

  blockInfos(block: SimBlock) {
    return this.blockTransactions(block).map((tx) => this.transactionInfo(tx))
  }
}

type SortKey = [timestamp: number, seq: number]

function encodeFingerprint(key: SortKey, ascending: boolean): string {
  return base58.encode(new TextEncoder().encode(JSON.stringify({ t: key[0], s: key[1], a: ascending })))
}

function decodeFingerprint(fingerprint: string, ascending: boolean): SortKey {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(base58.decode(fingerprint)))
    if (Number.isSafeInteger(parsed.t) && Number.isSafeInteger(parsed.s) && parsed.a === ascending) {
      return [parsed.t, parsed.s]
    }
  } catch {}
  throw new SimInputError('invalid fingerprint')
}

function compare(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || a[1] - b[1]
}

// The cursor is the sort key of the last item served, so transfers arriving between two page requests
// neither repeat nor shift items across pages.
function paginate<T>(rows: T[], q: ListQuery, key: (row: T) => SortKey): Page<T> {
  const direction = q.ascending ? 1 : -1
  let sorted = rows.map((row) => ({ row, key: key(row) })).sort((a, b) => direction * compare(a.key, b.key))
  if (q.fingerprint !== undefined) {
    const after = decodeFingerprint(q.fingerprint, q.ascending)
    sorted = sorted.filter((r) => direction * compare(r.key, after) > 0)
  }
  const page = sorted.slice(0, q.limit)
  const last = page[page.length - 1]
  return {
    items: page.map((r) => r.row),
    fingerprint: sorted.length > q.limit && last ? encodeFingerprint(last.key, q.ascending) : undefined,
  }
}

/** withdraw(uint256 ticket): a contract paying from its own books; the recipient is nowhere in the call. */
function unnamedCall(input: TransferInput): string {
  return `${WITHDRAW_SELECTOR}${sha256Text(`${input.to}:${input.amount}:${Math.random()}`)}`
}

/** swapExactTokensForTokens-like (uint256 amountIn, uint256 amountOutMin, uint256 deadline): no address in it. */
function swapCall(value: bigint): string {
  return `${SWAP_SELECTOR}${word(value)}${word(0n)}${word(BigInt(Math.floor(Date.now() / 1000) + 600))}`
}

/** payout(address[] to, uint256[] values), ABI-encoded. */
function batchPayoutCall(to: string[], values: bigint[]): string {
  const n = BigInt(to.length)
  const head = word(64n) + word(64n + 32n * (n + 1n))
  return `${PAYOUT_SELECTOR}${head}${word(n)}${to.map(tronAddressToAbiWord).join('')}${word(n)}${values.map(word).join('')}`
}
