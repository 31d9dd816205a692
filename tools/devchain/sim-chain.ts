import { createHash, randomBytes } from 'node:crypto'
import { base58 } from '@scure/base'
import { normalizeTronAddress, tronAddressToAbiWord, tronBase58ToHex } from '../../src/shared/tron-address'

// In-memory chain behind the devchain: transactions, their TRC20 logs, and the JSON shapes TronGrid and
// java-tron answer with (tron-api.md §1–§3). Knows nothing about HTTP.

export const MAINNET_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
/** Index 1 of the tron-api.md §6 test mnemonic: the sender of the worked example. */
export const DEFAULT_SENDER = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const APPROVAL_TOPIC = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const TRANSFER_SELECTOR = 'a9059cbb'
const APPROVE_SELECTOR = '095ea7b3'
const TOKEN_DECIMALS = 6
const UINT256_MAX = (1n << 256n) - 1n
const INT64_MAX = (1n << 63n) - 1n
// A block counts as solidified once 19 later blocks build on it (tron-api.md §5).
const SOLIDIFY_DEPTH = 19
const USDT_ENERGY = 14_650
const ENERGY_PRICE_SUN = 210

export class SimInputError extends Error {}

export type EventType = 'Transfer' | 'Approval'

export interface SimEvent {
  seq: number
  tx: SimTransaction
  contract: string
  from: string
  to: string
  value: bigint
  type: EventType
}

export interface SimTransaction {
  seq: number
  txid: string
  kind: 'trx' | 'trc20'
  confirmed: boolean
  failed: boolean
  blockNumber: number
  blockTimestamp: number
  rawDataHex: string
  signature: string
  /** TRX: sender/recipient/amount. TRC20: owner is the caller; the first event describes the call. */
  owner: string
  to: string
  amount: bigint
  contract: string | null
  events: SimEvent[]
}

export interface TransferInput {
  to: string
  amount: string | number
  token: 'USDT' | 'TRX'
  from?: string
  confirmed: boolean
  contract?: string
  type: EventType
  txid?: string
  block_timestamp?: number
  failed: boolean
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

function word(value: bigint): string {
  return value.toString(16).padStart(64, '0')
}

function bareHex(address: string): string {
  return tronBase58ToHex(address).slice(2)
}

function sha256Hex(hex: string): string {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex')
}

function requireAddress(value: string | undefined, field: string): string {
  const address = value === undefined ? null : normalizeTronAddress(value)
  if (!address) throw new SimInputError(`${field} is not a valid TRON address: ${JSON.stringify(value)}`)
  return address
}

export interface SimChainOptions {
  usdtContract: string
  blockIntervalMs: number
  now?: () => number
}

export class SimChain {
  readonly usdtContract: string
  private readonly blockIntervalMs: number
  private readonly now: () => number
  private readonly genesisTime: number
  private readonly genesisBlock = 60_000_000
  private seq = 0
  private txs = new Map<string, SimTransaction>()
  private events: SimEvent[] = []

  constructor(opts: SimChainOptions) {
    this.usdtContract = requireAddress(opts.usdtContract, 'usdtContract')
    if (!(opts.blockIntervalMs > 0)) throw new SimInputError('blockIntervalMs must be positive')
    this.blockIntervalMs = opts.blockIntervalMs
    this.now = opts.now ?? Date.now
    this.genesisTime = this.now()
  }

  reset(): void {
    this.txs = new Map()
    this.events = []
  }

  blockAt(timestamp: number): number {
    return Math.max(1, this.genesisBlock + Math.floor((timestamp - this.genesisTime) / this.blockIntervalMs))
  }

  headBlock(): number {
    let head = this.blockAt(this.now())
    for (const tx of this.txs.values()) head = Math.max(head, tx.blockNumber)
    return head
  }

  solidBlock(): number {
    let solid = this.blockAt(this.now()) - SOLIDIFY_DEPTH
    for (const tx of this.txs.values()) if (tx.confirmed) solid = Math.max(solid, tx.blockNumber)
    return solid
  }

  counts() {
    const txs = [...this.txs.values()]
    return {
      transactions: txs.length,
      confirmed: txs.filter((t) => t.confirmed).length,
      unconfirmed: txs.filter((t) => !t.confirmed).length,
      trx_transfers: txs.filter((t) => t.kind === 'trx').length,
      trc20_events: this.events.length,
      head_block: this.headBlock(),
      solid_block: this.solidBlock(),
    }
  }

  getTransaction(txid: string): SimTransaction | undefined {
    return this.txs.get(txid.toLowerCase())
  }

  addTransfer(input: TransferInput): SimTransaction {
    const to = requireAddress(input.to, 'to')
    const from = input.from === undefined ? DEFAULT_SENDER : requireAddress(input.from, 'from')
    const value = parseTokenAmount(input.amount)

    if (input.token === 'TRX') {
      if (input.contract !== undefined) throw new SimInputError('contract applies to TRC20 transfers only')
      if (input.type !== 'Transfer') throw new SimInputError('type Approval applies to TRC20 transfers only')
      if (input.failed) throw new SimInputError('failed applies to TRC20 transfers only')
      if (value <= 0n || value > INT64_MAX)
        throw new SimInputError('a TRX amount must be above 0 and fit in int64 sun')
      if (input.txid !== undefined && this.txs.has(input.txid.toLowerCase())) {
        throw new SimInputError('a TRX TransferContract holds exactly one transfer; txid is already used')
      }
      return this.createTransaction(input, { kind: 'trx', owner: from, to, amount: value, contract: null })
    }

    if (value > UINT256_MAX) throw new SimInputError('amount does not fit in uint256')
    const contract =
      input.contract === undefined ? this.usdtContract : requireAddress(input.contract, 'contract')
    const existing = input.txid === undefined ? undefined : this.txs.get(input.txid.toLowerCase())
    // Reusing a txid appends one more log; confirmation, time and outcome stay the transaction's own.
    if (existing && existing.kind !== 'trc20') {
      throw new SimInputError('txid names a TRX transfer, which cannot carry TRC20 logs')
    }
    const tx =
      existing ?? this.createTransaction(input, { kind: 'trc20', owner: from, to, amount: value, contract })
    const event: SimEvent = { seq: ++this.seq, tx, contract, from, to, value, type: input.type }
    tx.events.push(event)
    this.events.push(event)
    return tx
  }

  private createTransaction(
    input: TransferInput,
    body: Pick<SimTransaction, 'kind' | 'owner' | 'to' | 'amount' | 'contract'>,
  ): SimTransaction {
    const blockTimestamp = input.block_timestamp ?? this.now()
    const rawDataHex = `0a02${randomBytes(2).toString('hex')}2208${randomBytes(8).toString('hex')}40${randomBytes(40).toString('hex')}`
    // A generated txID is sha256(raw_data) as on the real chain; random so a restarted devchain never
    // hands out a transaction id a shop database has already recorded.
    const txid = input.txid?.toLowerCase() ?? sha256Hex(rawDataHex)
    const tx: SimTransaction = {
      seq: ++this.seq,
      txid,
      confirmed: input.confirmed,
      failed: input.failed,
      blockNumber: this.blockAt(blockTimestamp),
      blockTimestamp,
      rawDataHex,
      signature: randomBytes(65).toString('hex'),
      events: [],
      ...body,
    }
    this.txs.set(txid, tx)
    return tx
  }

  confirm(txid: string, blockTimestamp?: number): SimTransaction | undefined {
    const tx = this.txs.get(txid.toLowerCase())
    if (!tx) return undefined
    tx.confirmed = true
    if (blockTimestamp !== undefined) {
      tx.blockTimestamp = blockTimestamp
      tx.blockNumber = this.blockAt(blockTimestamp)
    }
    return tx
  }

  listTrc20(q: ListQuery): Page<SimEvent> {
    const rows = this.events.filter((e) => {
      // A reverted call emits no logs, so it never shows up as a TRC20 transfer.
      if (e.tx.failed) return false
      if (q.contract !== undefined && e.contract !== q.contract) return false
      return this.matches(q, e.tx, e.from, e.to)
    })
    return paginate(rows, q, (e) => [e.tx.blockTimestamp, e.seq])
  }

  listTransactions(q: ListQuery): Page<SimTransaction> {
    const rows = [...this.txs.values()].filter((tx) => {
      // A contract call lists its caller as owner and the contract as its counterpart.
      const to = tx.kind === 'trx' ? tx.to : (tx.contract ?? '')
      return this.matches(q, tx, tx.owner, to)
    })
    return paginate(rows, q, (tx) => [tx.blockTimestamp, tx.seq])
  }

  private matches(q: ListQuery, tx: SimTransaction, from: string, to: string): boolean {
    if (q.onlyConfirmed && !tx.confirmed) return false
    if (q.onlyUnconfirmed && tx.confirmed) return false
    if (q.minTimestamp !== undefined && tx.blockTimestamp < q.minTimestamp) return false
    if (q.maxTimestamp !== undefined && tx.blockTimestamp > q.maxTimestamp) return false
    // Both only_to and only_from set is the same as neither (tron-api.md §2).
    const wantTo = q.onlyTo && !q.onlyFrom
    const wantFrom = q.onlyFrom && !q.onlyTo
    if (wantTo) return to === q.address
    if (wantFrom) return from === q.address
    return to === q.address || from === q.address
  }

  // ---- JSON shapes ----

  trc20Item(e: SimEvent) {
    return {
      transaction_id: e.tx.txid,
      token_info: { symbol: 'USDT', address: e.contract, decimals: TOKEN_DECIMALS, name: 'Tether USD' },
      block_timestamp: e.tx.blockTimestamp,
      from: e.from,
      to: e.to,
      type: e.type,
      value: e.value.toString(),
    }
  }

  /** The body of /wallet/gettransactionbyid (tron-api.md §3b). */
  transactionBody(tx: SimTransaction) {
    const refBlock = tx.blockNumber.toString(16).padStart(8, '0')
    const createdAt = tx.blockTimestamp - 2_000
    const rawData: Record<string, unknown> = { contract: [this.contractOf(tx)] }
    rawData.ref_block_bytes = refBlock.slice(-4)
    rawData.ref_block_hash = sha256Hex(refBlock).slice(0, 16)
    rawData.expiration = createdAt + 60_000
    if (tx.kind === 'trc20') rawData.fee_limit = 100_000_000
    rawData.timestamp = createdAt
    return {
      ret: [{ contractRet: tx.failed ? 'REVERT' : 'SUCCESS' }],
      signature: [tx.signature],
      txID: tx.txid,
      raw_data: rawData,
      raw_data_hex: tx.rawDataHex,
    }
  }

  /** One item of /v1/accounts/{address}/transactions (tron-api.md §2). */
  v1Transaction(tx: SimTransaction) {
    const body = this.transactionBody(tx)
    const energy = tx.kind === 'trc20' ? USDT_ENERGY : 0
    return {
      ret: [{ contractRet: body.ret[0]?.contractRet, fee: energy * ENERGY_PRICE_SUN }],
      signature: body.signature,
      txID: body.txID,
      net_usage: tx.kind === 'trc20' ? 345 : 268,
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
            // Sun amounts stay far below 2^53 for anything the devchain is asked to send.
            amount: Number(tx.amount),
            owner_address: tronBase58ToHex(tx.owner),
            to_address: tronBase58ToHex(tx.to),
          },
          type_url: 'type.googleapis.com/protocol.TransferContract',
        },
        type: 'TransferContract',
      }
    }
    const first = tx.events[0]
    const selector = first?.type === 'Approval' ? APPROVE_SELECTOR : TRANSFER_SELECTOR
    return {
      parameter: {
        value: {
          data: `${selector}${tronAddressToAbiWord(tx.to)}${word(tx.amount)}`,
          owner_address: tronBase58ToHex(tx.owner),
          contract_address: tronBase58ToHex(tx.contract ?? this.usdtContract),
        },
        type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
      },
      type: 'TriggerSmartContract',
    }
  }

  /** The body of /wallet/gettransactioninfobyid (tron-api.md §3a); zero-valued fields are left out. */
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
    const energyFee = USDT_ENERGY * ENERGY_PRICE_SUN
    const info: Record<string, unknown> = {
      id: tx.txid,
      fee: energyFee,
      blockNumber: tx.blockNumber,
      blockTimeStamp: tx.blockTimestamp,
      contractResult: [tx.failed ? '' : word(1n)],
      contract_address: tronBase58ToHex(tx.contract ?? this.usdtContract),
      receipt: {
        energy_fee: energyFee,
        energy_usage_total: USDT_ENERGY,
        net_usage: 345,
        result: tx.failed ? 'REVERT' : 'SUCCESS',
      },
    }
    if (tx.failed) {
      info.result = 'FAILED'
      info.resMessage = Buffer.from('REVERT opcode executed').toString('hex')
    } else {
      info.log = tx.events.map((e) => ({
        address: bareHex(e.contract),
        topics: [
          e.type === 'Approval' ? APPROVAL_TOPIC : TRANSFER_TOPIC,
          tronAddressToAbiWord(e.from),
          tronAddressToAbiWord(e.to),
        ],
        data: word(e.value),
      }))
    }
    return info
  }

  block(number: number) {
    const numberHex = number.toString(16).padStart(16, '0')
    const hash = sha256Hex(numberHex)
    const timestamp = this.genesisTime + (number - this.genesisBlock) * this.blockIntervalMs
    return {
      blockID: numberHex + hash.slice(16),
      block_header: {
        raw_data: {
          number,
          txTrieRoot: '0'.repeat(64),
          witness_address: tronBase58ToHex(DEFAULT_SENDER),
          parentHash: (number - 1).toString(16).padStart(16, '0') + sha256Hex(hash).slice(16),
          version: 31,
          timestamp,
        },
        witness_signature: sha256Hex(hash).repeat(2).slice(0, 130),
      },
    }
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
