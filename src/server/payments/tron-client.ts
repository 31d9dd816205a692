import { z } from 'zod'
import { normalizeTronAddress, tronAddressFromAbiWord } from '../../shared/tron-address'

// The chain explorer client (TronGrid, or the devchain in tests and demos): v1 account lists and
// transaction lookups for buyer-triggered checks, and the solidified blocks and per-block transaction
// infos the chain follower reads. Expected failures of the explorer are values, never throws; only a
// programming error (a malformed address, transaction id or block range passed in) rejects with a TypeError.

export type TronErrorKind = 'rate_limited' | 'http' | 'timeout' | 'malformed' | 'network'

export interface TronError {
  status: 'error'
  kind: TronErrorKind
  message: string
  /** rate_limited only: how long the client holds back every request from now. */
  retryAfterMs?: number
  /** The HTTP status when the explorer answered with one. */
  httpStatus?: number
}

export type TronResult<T> = ({ status: 'success' } & T) | TronError

export interface Trc20Transfer {
  transactionId: string
  /** token_info.address, base58. The only thing that identifies the token: symbols are forged. */
  contract: string
  from: string
  to: string
  /** 'Transfer' or 'Approval' (Approval rows carry a value too and must not be counted as payments). */
  type: string
  /** Base units (USDT: 6 decimals). */
  value: bigint
  /** Block time, ms. */
  blockTimestamp: number
}

export interface TrxTransfer {
  transactionId: string
  from: string
  to: string
  /** Sun (1 TRX = 1,000,000 sun). */
  value: bigint
  blockTimestamp: number
  blockNumber: number | null
}

export interface TransferList<T> {
  transfers: T[]
  /** Items dropped because they lacked an id, value, timestamp or valid address. */
  skipped: number
  /** False when paging stopped at maxPages: the oldest matching items may be missing. */
  complete: boolean
}

export interface LogTransfer {
  /** The emitting contract, base58: compare with the configured USDT contract. */
  contract: string
  from: string
  to: string
  value: bigint
}

export interface TransactionInfo {
  found: boolean
  /** True only when the solidity node (solidified state) answered with the transaction. */
  confirmed: boolean
  blockNumber: number | null
  blockTimestamp: number | null
  /** Fee paid, sun. */
  fee: bigint | null
  /** The contract that was called, base58, for smart-contract transactions. */
  contractAddress: string | null
  /** receipt.result as sent ('SUCCESS', 'REVERT', …); plain TRX transfers usually have none. */
  receiptResult: string | null
  /** receipt.result is SUCCESS and the top-level result is not FAILED. Use getTransaction for TRX. */
  receiptOk: boolean
  /** Transfer(address,address,uint256) logs of any contract, decoded only when receiptOk. */
  transfers: LogTransfer[]
}

export interface TransactionDetails {
  found: boolean
  confirmed: boolean
  /** ret[0].contractRet: 'SUCCESS' for a successful TRX transfer. */
  contractRet: string | null
  contractType: string | null
  /** TransferContract: the native TRX movement, value in sun. */
  trx: { from: string; to: string; value: bigint } | null
  /** TriggerSmartContract calling transfer(address,uint256). Call data alone never proves a payment. */
  trc20Call: { contract: string; from: string; to: string; value: bigint } | null
}

export interface ChainTx {
  /** Lower-case hex. */
  txId: string
  /** ret[0].contractRet ('SUCCESS', 'REVERT', …). */
  contractRet: string | null
  /** raw_data.contract[0].type. */
  type: string | null
  /** TransferContract: native TRX, value in sun. */
  trx: { from: string; to: string; value: bigint } | null
  /** TriggerSmartContract: the called contract (base58). */
  calledContract: string | null
}

export interface ChainBlock {
  number: number
  blockId: string
  parentHash: string
  /** Block time, ms. */
  timestamp: number
  transactions: ChainTx[]
}

export interface ChainLog {
  /** The emitting contract, base58. */
  address: string
  /** Lower-case hex, no 0x. */
  topics: string[]
  /** Lower-case hex, no 0x ('' when the log has no data). */
  data: string
}

export interface ChainTxInfo {
  txId: string
  blockNumber: number
  blockTimestamp: number
  /** receipt.result SUCCESS (or no receipt result for non-contract txs) and top-level result not FAILED. */
  success: boolean
  /** As the node printed them; a failed transaction has none. */
  logs: ChainLog[]
  /** Internal TRX moves: callValue > 0 with no tokenId; index = position in internal_transactions. */
  internalTransfers: { index: number; from: string; to: string; value: bigint; rejected: boolean }[]
}

export interface ChainHead {
  number: number
  blockId: string
  timestamp: number
}

export interface ChainReadOptions {
  /** Leave the budget queue before routine requests. */
  urgent?: boolean
}

export interface ListOptions {
  /** Block-time lower bound (ms, inclusive). Poll with last seen time minus a safety margin. */
  minTimestamp?: number
  /** Block-time upper bound (ms, inclusive). */
  maxTimestamp?: number
  /** Default true: only confirmed transactions. */
  onlyConfirmed?: boolean
  /** Page size, 1–200. Default 200 (fewest requests). */
  limit?: number
  /** A buyer is waiting: these requests leave the budget queue before routine polling. */
  urgent?: boolean
}

export interface Trc20ListOptions extends ListOptions {
  /** Token contract to ask the explorer for. Default the configured USDT; null lists every token. */
  contract?: string | null
}

export interface TronClientOptions {
  baseUrl: string
  apiKey?: string
  usdtContract: string
  /** Requests per second for everything this client sends. Default 5. */
  maxRps?: number
  /** Per request, from the moment it leaves the queue. Default 10 000. */
  timeoutMs?: number
  /** First pause after a rate limit without a "suspended for N s" hint; doubles each time. Default 1000. */
  backoffBaseMs?: number
  /** Cap of that pause. Default 60 000. */
  maxBackoffMs?: number
  /** Pages followed per list call. Default 10. */
  maxPages?: number
  fetch?: typeof fetch
}

export interface TronClient {
  readonly usdtContract: string
  listTrc20Incoming(
    address: string,
    opts?: Trc20ListOptions,
  ): Promise<TronResult<TransferList<Trc20Transfer>>>
  listTrxIncoming(address: string, opts?: ListOptions): Promise<TronResult<TransferList<TrxTransfer>>>
  getTransactionInfo(txid: string, opts?: { solidified?: boolean }): Promise<TronResult<TransactionInfo>>
  getTransaction(txid: string, opts?: { solidified?: boolean }): Promise<TronResult<TransactionDetails>>
  /** Height of the solidified head (for confirmations = head − blockNumber + 1). */
  getSolidBlockNumber(): Promise<TronResult<{ blockNumber: number }>>
  /**
   * Solidified blocks [start, endExclusive), at most 100, via getblockbylimitnext. Only the contiguous
   * run starting at `start` is returned (possibly none: the node may not have them yet); each block's
   * parentHash is checked against the previous blockID.
   */
  getSolidBlocks(
    start: number,
    endExclusive: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ blocks: ChainBlock[] }>>
  /** Every transaction info of one solidified block, in block order ([] while the node lacks the block). */
  getSolidTransactionInfos(
    blockNumber: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ infos: ChainTxInfo[] }>>
  /** The solidified head block's header. */
  getSolidHead(opts?: ChainReadOptions): Promise<TronResult<ChainHead>>
  /** The (unsolidified) head block's header. */
  getHead(opts?: ChainReadOptions): Promise<TronResult<ChainHead>>
  /** Epoch ms until which requests are held back after a rate limit (0 when not paused). */
  pausedUntil(): number
}

export const TRANSFER_EVENT_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const TRANSFER_SELECTOR = 'a9059cbb'
const TX_ID = /^[0-9a-fA-F]{64}$/
const HEX_WORD = /^[0-9a-fA-F]{64}$/
const HEX_BYTES = /^(?:[0-9a-fA-F]{2})*$/
// java-tron serves at most this many blocks per getblockbylimitnext call.
const MAX_BLOCKS_PER_CALL = 100
const RATE_LIMIT_BODY = /frequency limit|allowed_rps/i
const MAX_HINT_MS = 600_000
const SUSPENDED_FOR = /suspended for\s*(\d+(?:\.\d+)?)\s*s\b/i

/** True for a 64-hex-character transaction id; validate user input with it before calling the client. */
export function isTronTxId(value: unknown): value is string {
  return typeof value === 'string' && TX_ID.test(value)
}

// ---- request budget ----

/**
 * Start-spacing limiter: one request start every 1000/maxRps ms, FIFO, plus a pause that a rate-limit
 * answer sets for every waiter. Spacing (no burst) keeps a polling watcher well inside the explorer's
 * per-second window even when many callers arrive at once.
 */
/** Margin added to the one-second window (see createLimiter). */
const SEND_MARGIN_MS = 150

function createLimiter(maxRps: number) {
  // The budget is a promise to the explorer's operator: never more than maxRps requests in any
  // one-second window as the explorer sees them. Two rules together:
  // - a sliding window over the last maxRps requests, each timed when it really left (the caller's
  //   fetch runs in the continuation of the grant; the time is taken once that has run), and it is
  //   counted from the moment it is granted until then; the window is 1 s plus a margin for
  //   event-loop stalls and network jitter between our clock and the explorer's;
  // - even spacing (1 s / maxRps), so the budget is spent smoothly rather than in bursts.
  const WINDOW_MS = 1000 + SEND_MARGIN_MS
  const interval = 1000 / maxRps
  const slots = Math.max(1, Math.floor(maxRps))
  // Send times of the most recent requests, oldest first; Infinity while a grant has not left yet.
  const sent: number[] = []
  let nextStart = 0
  let pausedUntil = 0
  // Two lanes, FIFO each: urgent requests (a buyer is waiting on them) leave before routine polling.
  const urgent: (() => void)[] = []
  const routine: (() => void)[] = []
  let pumping = false
  let wake: (() => void) | undefined
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wake = undefined
        resolve()
      }
      wake = done
    })

  /** When the next request may leave under the sliding window (0: now). */
  function windowFreeAt(): number {
    while (sent.length > slots) sent.shift()
    if (sent.length < slots) return 0
    const oldest = sent[0] as number
    // A grant that has not left yet holds its slot until it has (wake() is called then).
    return oldest === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : oldest + WINDOW_MS
  }

  async function pump(): Promise<void> {
    if (pumping) return
    pumping = true
    try {
      while (urgent.length > 0 || routine.length > 0) {
        for (;;) {
          const until = Math.max(nextStart, pausedUntil, windowFreeAt())
          const wait = until - Date.now()
          if (wait <= 0) break
          await sleep(Number.isFinite(wait) ? wait : 1000)
        }
        const next = urgent.shift() ?? routine.shift()
        sent.push(Number.POSITIVE_INFINITY)
        nextStart = Date.now() + interval
        next?.()
        // The caller's continuation (its fetch) runs before any setImmediate callback; grants
        // leave in order, so the oldest one not yet marked is this one.
        setImmediate(() => {
          markSent()
          wake?.()
        })
      }
    } finally {
      pumping = false
    }
  }

  /** The oldest grant still marked as not yet left has now left. */
  function markSent(): void {
    const i = sent.indexOf(Number.POSITIVE_INFINITY)
    if (i >= 0) sent[i] = Date.now()
  }

  return {
    acquire(isUrgent = false): Promise<void> {
      return new Promise<void>((resolve) => {
        ;(isUrgent ? urgent : routine).push(resolve)
        void pump()
      })
    },
    pause(ms: number): number {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms)
      return pausedUntil
    },
    pausedUntil: () => (pausedUntil > Date.now() ? pausedUntil : 0),
  }
}

// ---- response schemas (only what we read; the explorer adds fields freely) ----

const listEnvelopeSchema = z.object({
  data: z.array(z.unknown()),
  success: z.boolean().optional(),
  meta: z.object({ fingerprint: z.string().optional() }).optional(),
})

const trc20ItemSchema = z.object({
  transaction_id: z.string().regex(TX_ID),
  token_info: z.object({ address: z.string() }),
  block_timestamp: z.number().int().nonnegative(),
  from: z.string(),
  to: z.string(),
  type: z.string(),
  value: z.string().regex(/^\d+$/),
})

const sunSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)])

const contractSchema = z.object({
  type: z.string(),
  parameter: z.object({ value: z.record(z.string(), z.unknown()) }),
})

const transactionSchema = z.object({
  txID: z.string().regex(TX_ID),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  blockNumber: z.number().int().optional(),
  block_timestamp: z.number().int().nonnegative().optional(),
  raw_data: z.object({ contract: z.array(contractSchema).min(1) }),
})

const transferContractSchema = z.object({
  amount: sunSchema,
  owner_address: z.string(),
  to_address: z.string(),
})
const triggerContractSchema = z.object({
  data: z.string().optional(),
  owner_address: z.string(),
  contract_address: z.string(),
})

const transactionInfoSchema = z.object({
  id: z.string().regex(TX_ID),
  fee: sunSchema.optional(),
  blockNumber: z.number().int().optional(),
  blockTimeStamp: z.number().int().optional(),
  contract_address: z.string().optional(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  log: z
    .array(z.object({ address: z.string(), topics: z.array(z.string()), data: z.string().optional() }))
    .optional(),
})

const nowBlockSchema = z.object({
  block_header: z.object({ raw_data: z.object({ number: z.number().int().nonnegative() }) }),
})

const blockSchema = z.object({
  blockID: z.string().regex(TX_ID),
  block_header: z.object({
    raw_data: z.object({
      number: z.number().int().nonnegative(),
      parentHash: z.string().regex(TX_ID),
      timestamp: z.number().int().nonnegative(),
    }),
  }),
  // Omitted, not empty, when the block has no transactions.
  transactions: z.array(z.unknown()).optional(),
})

const blockTransactionSchema = z.object({
  txID: z.string().regex(TX_ID),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  raw_data: z.object({ contract: z.array(contractSchema) }),
})

const chainTxInfoSchema = z.object({
  id: z.string().regex(TX_ID),
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  log: z
    .array(
      z.object({
        address: z.string(),
        topics: z.array(z.string().regex(HEX_WORD)).optional(),
        data: z.string().regex(HEX_BYTES).optional(),
      }),
    )
    .optional(),
  internal_transactions: z
    .array(
      z.object({
        caller_address: z.string(),
        transferTo_address: z.string(),
        callValueInfo: z
          .array(z.object({ callValue: sunSchema.optional(), tokenId: z.string().optional() }))
          .optional(),
        rejected: z.boolean().optional(),
      }),
    )
    .optional(),
})

// JSON.parse turns int64 sun amounts above 2^53 into wrong numbers; quote them before parsing.
function quoteLargeAmounts(text: string): string {
  return text.replace(/"(amount|fee|callValue|call_value)"\s*:\s*(\d{16,})/g, '"$1":"$2"')
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause
    return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message
  }
  return String(err)
}

function requireAddress(address: string): string {
  const normalized = normalizeTronAddress(address)
  if (!normalized) throw new TypeError(`Invalid TRON address: ${JSON.stringify(address)}`)
  return normalized
}

function requireTxId(txid: string): string {
  if (!isTronTxId(txid)) throw new TypeError(`Invalid transaction id: ${JSON.stringify(txid)}`)
  return txid.toLowerCase()
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function createTronClient(options: TronClientOptions): TronClient {
  const maxRps = options.maxRps ?? 5
  const timeoutMs = options.timeoutMs ?? 10_000
  const backoffBaseMs = options.backoffBaseMs ?? 1000
  const maxBackoffMs = options.maxBackoffMs ?? 60_000
  const maxPages = options.maxPages ?? 10
  const fetchImpl = options.fetch ?? fetch
  if (!(maxRps > 0 && Number.isFinite(maxRps))) throw new TypeError('maxRps must be a positive number')
  if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be positive')
  const usdtContract = requireAddress(options.usdtContract)
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const limiter = createLimiter(maxRps)
  let consecutiveRateLimits = 0

  const fail = (kind: TronErrorKind, message: string, extra: Partial<TronError> = {}): TronError => ({
    status: 'error',
    kind,
    message,
    ...extra,
  })

  function rateLimited(
    path: string,
    httpStatus: number,
    body: string,
    retryAfterHeader: string | null,
  ): TronError {
    consecutiveRateLimits += 1
    const hinted = SUSPENDED_FOR.exec(body)?.[1] ?? retryAfterHeader ?? undefined
    // TronGrid documents suspensions of 1–30 s; a garbled larger figure must not stall the watcher for hours.
    const hintMs =
      hinted !== undefined && /^\d+(\.\d+)?$/.test(hinted)
        ? Math.min(Number(hinted) * 1000, MAX_HINT_MS)
        : undefined
    const pauseMs =
      hintMs ?? Math.min(maxBackoffMs, backoffBaseMs * 2 ** Math.min(consecutiveRateLimits - 1, 30))
    const until = limiter.pause(pauseMs)
    return fail(
      'rate_limited',
      `explorer rate limit on ${path} (HTTP ${httpStatus}): ${body.slice(0, 200)}`,
      {
        retryAfterMs: Math.max(0, until - Date.now()),
        httpStatus,
      },
    )
  }

  async function request(
    path: string,
    init: { query?: Record<string, string>; body?: unknown; quoteAmounts?: boolean; urgent?: boolean } = {},
  ): Promise<{ status: 'success'; json: unknown } | TronError> {
    const url = new URL(`${baseUrl}${path}`)
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey
    if (init.body !== undefined) headers['content-type'] = 'application/json'

    await limiter.acquire(init.urgent)
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    let status: number
    let text: string
    let retryAfter: string | null
    try {
      const res = await fetchImpl(url, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: controller.signal,
      })
      status = res.status
      retryAfter = res.headers.get('retry-after')
      text = await res.text()
    } catch (err) {
      if (controller.signal.aborted) return fail('timeout', `no answer from ${path} within ${timeoutMs} ms`)
      return fail('network', `request to ${path} failed: ${errorText(err)}`)
    } finally {
      clearTimeout(timer)
    }

    if (status === 403 || status === 429 || status === 503) return rateLimited(path, status, text, retryAfter)
    if (status < 200 || status >= 300) {
      if (RATE_LIMIT_BODY.test(text)) return rateLimited(path, status, text, retryAfter)
      return fail('http', `HTTP ${status} from ${path}: ${text.slice(0, 200)}`, { httpStatus: status })
    }
    let json: unknown
    try {
      json = JSON.parse(init.quoteAmounts ? quoteLargeAmounts(text) : text)
    } catch {
      return fail('malformed', `invalid JSON from ${path}: ${text.slice(0, 100)}`, { httpStatus: status })
    }
    // java-tron refuses with 200 {"Error": "..."}, v1 with {"success": false, "error": "..."}. Only that
    // top-level message is searched for rate-limit wording: list data holds attacker-chosen text such as
    // token names, which must not be able to pause the watcher.
    if (isObject(json) && (typeof json.Error === 'string' || json.success === false)) {
      const message = String(json.Error ?? json.error ?? 'request refused')
      if (RATE_LIMIT_BODY.test(message)) return rateLimited(path, status, message, retryAfter)
      consecutiveRateLimits = 0
      return fail('http', `${path} refused: ${message.slice(0, 200)}`, { httpStatus: status })
    }
    consecutiveRateLimits = 0
    return { status: 'success', json }
  }

  async function listAll<T>(
    path: string,
    query: Record<string, string>,
    parseItem: (item: unknown) => T | null | 'ignore',
    quoteAmounts = false,
    urgent = false,
  ): Promise<TronResult<TransferList<T>>> {
    const transfers: T[] = []
    let skipped = 0
    let fingerprint: string | undefined
    const seenFingerprints = new Set<string>()
    for (let page = 0; page < maxPages; page++) {
      const res = await request(path, {
        query: fingerprint ? { ...query, fingerprint } : query,
        quoteAmounts,
        urgent,
      })
      if (res.status === 'error') return res
      const envelope = listEnvelopeSchema.safeParse(res.json)
      if (!envelope.success) return fail('malformed', `unexpected list shape from ${path}`)
      for (const item of envelope.data.data) {
        const parsed = parseItem(item)
        if (parsed === null) skipped += 1
        else if (parsed !== 'ignore') transfers.push(parsed)
      }
      fingerprint = envelope.data.meta?.fingerprint || undefined
      if (!fingerprint || envelope.data.data.length === 0) {
        return { status: 'success', transfers, skipped, complete: true }
      }
      if (seenFingerprints.has(fingerprint)) return fail('malformed', `pagination loop on ${path}`)
      seenFingerprints.add(fingerprint)
    }
    return { status: 'success', transfers, skipped, complete: false }
  }

  function listQuery(opts: ListOptions): Record<string, string> {
    const limit = opts.limit ?? 200
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new TypeError('limit must be 1–200')
    const query: Record<string, string> = {
      only_confirmed: String(opts.onlyConfirmed ?? true),
      only_to: 'true',
      limit: String(limit),
    }
    if (opts.minTimestamp !== undefined)
      query.min_timestamp = String(Math.max(0, Math.floor(opts.minTimestamp)))
    if (opts.maxTimestamp !== undefined)
      query.max_timestamp = String(Math.max(0, Math.floor(opts.maxTimestamp)))
    return query
  }

  function parseTrc20(item: unknown): Trc20Transfer | null {
    const parsed = trc20ItemSchema.safeParse(item)
    if (!parsed.success) return null
    const row = parsed.data
    const contract = normalizeTronAddress(row.token_info.address)
    const from = normalizeTronAddress(row.from)
    const to = normalizeTronAddress(row.to)
    if (!contract || !from || !to) return null
    return {
      transactionId: row.transaction_id.toLowerCase(),
      contract,
      from,
      to,
      type: row.type,
      value: BigInt(row.value),
      blockTimestamp: row.block_timestamp,
    }
  }

  function parseTrx(item: unknown): TrxTransfer | null | 'ignore' {
    const parsed = transactionSchema.safeParse(item)
    if (!parsed.success) return null
    const tx = parsed.data
    const blockTimestamp = tx.block_timestamp
    if (blockTimestamp === undefined) return null
    const contract = tx.raw_data.contract[0]
    // Other contract types (TRC20 calls, staking, …) share this list and are not TRX payments.
    if (contract?.type !== 'TransferContract' || tx.ret?.[0]?.contractRet !== 'SUCCESS') return 'ignore'
    const value = transferContractSchema.safeParse(contract.parameter.value)
    if (!value.success) return null
    const from = normalizeTronAddress(value.data.owner_address)
    const to = normalizeTronAddress(value.data.to_address)
    if (!from || !to) return null
    return {
      transactionId: tx.txID.toLowerCase(),
      from,
      to,
      value: BigInt(value.data.amount),
      blockTimestamp,
      blockNumber: tx.blockNumber ?? null,
    }
  }

  function decodeTransferLogs(logs: z.infer<typeof transactionInfoSchema>['log']): LogTransfer[] {
    const transfers: LogTransfer[] = []
    for (const log of logs ?? []) {
      if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_EVENT_TOPIC) continue
      if (!log.data || !HEX_WORD.test(log.data)) continue
      // "visible": true answers carry base58 here; normalizeTronAddress takes both forms.
      const contract = normalizeTronAddress(log.address)
      const from = tronAddressFromAbiWord(log.topics[1] ?? '')
      const to = tronAddressFromAbiWord(log.topics[2] ?? '')
      if (!contract || !from || !to) continue
      transfers.push({ contract, from, to, value: BigInt(`0x${log.data}`) })
    }
    return transfers
  }

  async function getHeader(path: string, opts: ChainReadOptions): Promise<TronResult<ChainHead>> {
    const res = await request(path, { body: { detail: false }, urgent: opts.urgent })
    if (res.status === 'error') return res
    const parsed = blockSchema.safeParse(res.json)
    // A lagging back end answers {} here.
    if (!parsed.success) return fail('malformed', `unexpected block header shape from ${path}`)
    const raw = parsed.data.block_header.raw_data
    return {
      status: 'success',
      number: raw.number,
      blockId: parsed.data.blockID.toLowerCase(),
      timestamp: raw.timestamp,
    }
  }

  /** A block, or why it is not one. */
  function parseBlock(item: unknown): ChainBlock | string {
    const parsed = blockSchema.safeParse(item)
    if (!parsed.success) return 'a block lacks blockID, number, parentHash or timestamp'
    const raw = parsed.data.block_header.raw_data
    const blockId = parsed.data.blockID.toLowerCase()
    // A blockID starts with the block number (8 bytes): a cheap check that id and header belong together.
    if (Number.parseInt(blockId.slice(0, 16), 16) !== raw.number) {
      return `blockID ${blockId} does not carry block number ${raw.number}`
    }
    const transactions: ChainTx[] = []
    for (const tx of parsed.data.transactions ?? []) {
      const chainTx = parseBlockTransaction(tx)
      if (typeof chainTx === 'string') return `block ${raw.number}: ${chainTx}`
      transactions.push(chainTx)
    }
    return {
      number: raw.number,
      blockId,
      parentHash: raw.parentHash.toLowerCase(),
      timestamp: raw.timestamp,
      transactions,
    }
  }

  function parseBlockTransaction(item: unknown): ChainTx | string {
    const parsed = blockTransactionSchema.safeParse(item)
    if (!parsed.success) return 'a transaction lacks txID or raw_data.contract'
    const tx = parsed.data
    const txId = tx.txID.toLowerCase()
    const contract = tx.raw_data.contract[0]
    let trx: ChainTx['trx'] = null
    let calledContract: string | null = null
    if (contract?.type === 'TransferContract') {
      const v = transferContractSchema.safeParse(contract.parameter.value)
      const from = v.success ? normalizeTronAddress(v.data.owner_address) : null
      const to = v.success ? normalizeTronAddress(v.data.to_address) : null
      if (!v.success || !from || !to) return `TransferContract ${txId} lacks a valid amount or address`
      trx = { from, to, value: BigInt(v.data.amount) }
    } else if (contract?.type === 'TriggerSmartContract') {
      const v = triggerContractSchema.safeParse(contract.parameter.value)
      calledContract = v.success ? normalizeTronAddress(v.data.contract_address) : null
      if (!calledContract) return `TriggerSmartContract ${txId} lacks a valid contract_address`
    }
    return {
      txId,
      contractRet: tx.ret?.[0]?.contractRet ?? null,
      type: contract?.type ?? null,
      trx,
      calledContract,
    }
  }

  function parseTxInfo(item: unknown): ChainTxInfo | string {
    const parsed = chainTxInfoSchema.safeParse(item)
    if (!parsed.success)
      return 'not a transaction info (id, blockNumber, blockTimeStamp, log, internal_transactions)'
    const info = parsed.data
    const logs: ChainLog[] = []
    for (const log of info.log ?? []) {
      // Hex without 41 as printed by default; base58 when the node was asked for visible addresses.
      const address = normalizeTronAddress(log.address)
      if (!address) return `log address ${JSON.stringify(log.address)} of ${info.id} is not an address`
      logs.push({
        address,
        topics: (log.topics ?? []).map((t) => t.toLowerCase()),
        data: (log.data ?? '').toLowerCase(),
      })
    }
    const internalTransfers: ChainTxInfo['internalTransfers'] = []
    for (const [index, internal] of (info.internal_transactions ?? []).entries()) {
      // TRX only: an entry with a tokenId moves a TRC10 token, and an empty entry moves nothing.
      let value = 0n
      for (const entry of internal.callValueInfo ?? []) {
        if (entry.tokenId || entry.callValue === undefined) continue
        value += BigInt(entry.callValue)
      }
      if (value <= 0n) continue
      const from = normalizeTronAddress(internal.caller_address)
      const to = normalizeTronAddress(internal.transferTo_address)
      if (!from || !to) return `internal transaction ${index} of ${info.id} lacks a valid address`
      internalTransfers.push({ index, from, to, value, rejected: internal.rejected === true })
    }
    const receiptResult = info.receipt?.result
    return {
      txId: info.id.toLowerCase(),
      blockNumber: info.blockNumber,
      blockTimestamp: info.blockTimeStamp,
      success: (receiptResult === undefined || receiptResult === 'SUCCESS') && info.result !== 'FAILED',
      logs,
      internalTransfers,
    }
  }

  return {
    usdtContract,

    async listTrc20Incoming(address, opts = {}) {
      const query = listQuery(opts)
      const contract = opts.contract === undefined ? usdtContract : opts.contract
      if (contract !== null) query.contract_address = requireAddress(contract)
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions/trc20`,
        query,
        parseTrc20,
        false,
        opts.urgent,
      )
    },

    async listTrxIncoming(address, opts = {}) {
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions`,
        listQuery(opts),
        parseTrx,
        true,
        opts.urgent,
      )
    },

    async getTransactionInfo(txid, opts = {}) {
      const id = requireTxId(txid)
      const solidified = opts.solidified ?? true
      const path = `/${solidified ? 'walletsolidity' : 'wallet'}/gettransactioninfobyid`
      const res = await request(path, { body: { value: id }, quoteAmounts: true, urgent: true })
      if (res.status === 'error') return res
      if (isObject(res.json) && Object.keys(res.json).length === 0) {
        return {
          status: 'success',
          found: false,
          confirmed: false,
          blockNumber: null,
          blockTimestamp: null,
          fee: null,
          contractAddress: null,
          receiptResult: null,
          receiptOk: false,
          transfers: [],
        }
      }
      const parsed = transactionInfoSchema.safeParse(res.json)
      if (!parsed.success || parsed.data.id.toLowerCase() !== id) {
        return fail('malformed', `unexpected transaction info shape from ${path}`)
      }
      const info = parsed.data
      const receiptResult = info.receipt?.result ?? null
      // Zero-valued fields are omitted, so a missing top-level result means success.
      const receiptOk = receiptResult === 'SUCCESS' && info.result !== 'FAILED'
      return {
        status: 'success',
        found: true,
        confirmed: solidified,
        blockNumber: info.blockNumber ?? null,
        blockTimestamp: info.blockTimeStamp ?? null,
        fee: info.fee === undefined ? 0n : BigInt(info.fee),
        contractAddress: info.contract_address ? normalizeTronAddress(info.contract_address) : null,
        receiptResult,
        receiptOk,
        transfers: receiptOk ? decodeTransferLogs(info.log) : [],
      }
    },

    async getTransaction(txid, opts = {}) {
      const id = requireTxId(txid)
      const solidified = opts.solidified ?? true
      const path = `/${solidified ? 'walletsolidity' : 'wallet'}/gettransactionbyid`
      const res = await request(path, { body: { value: id }, quoteAmounts: true, urgent: true })
      if (res.status === 'error') return res
      if (isObject(res.json) && Object.keys(res.json).length === 0) {
        return {
          status: 'success',
          found: false,
          confirmed: false,
          contractRet: null,
          contractType: null,
          trx: null,
          trc20Call: null,
        }
      }
      const parsed = transactionSchema.safeParse(res.json)
      if (!parsed.success || parsed.data.txID.toLowerCase() !== id) {
        return fail('malformed', `unexpected transaction shape from ${path}`)
      }
      const tx = parsed.data
      const contract = tx.raw_data.contract[0]
      let trx: TransactionDetails['trx'] = null
      let trc20Call: TransactionDetails['trc20Call'] = null
      if (contract?.type === 'TransferContract') {
        const v = transferContractSchema.safeParse(contract.parameter.value)
        const from = v.success ? normalizeTronAddress(v.data.owner_address) : null
        const to = v.success ? normalizeTronAddress(v.data.to_address) : null
        if (v.success && from && to) trx = { from, to, value: BigInt(v.data.amount) }
      } else if (contract?.type === 'TriggerSmartContract') {
        const v = triggerContractSchema.safeParse(contract.parameter.value)
        const data = v.success ? (v.data.data ?? '').toLowerCase() : ''
        if (
          v.success &&
          data.length === 136 &&
          data.startsWith(TRANSFER_SELECTOR) &&
          /^[0-9a-f]+$/.test(data)
        ) {
          const callee = normalizeTronAddress(v.data.contract_address)
          const from = normalizeTronAddress(v.data.owner_address)
          const to = tronAddressFromAbiWord(data.slice(8, 72))
          if (callee && from && to)
            trc20Call = { contract: callee, from, to, value: BigInt(`0x${data.slice(72)}`) }
        }
      }
      return {
        status: 'success',
        found: true,
        confirmed: solidified,
        contractRet: tx.ret?.[0]?.contractRet ?? null,
        contractType: contract?.type ?? null,
        trx,
        trc20Call,
      }
    },

    async getSolidBlockNumber() {
      const res = await request('/walletsolidity/getnowblock')
      if (res.status === 'error') return res
      const parsed = nowBlockSchema.safeParse(res.json)
      if (!parsed.success) return fail('malformed', 'unexpected block shape from /walletsolidity/getnowblock')
      return { status: 'success', blockNumber: parsed.data.block_header.raw_data.number }
    },

    async getSolidBlocks(start, endExclusive, opts = {}) {
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(endExclusive) || start < 0) {
        throw new TypeError(`Invalid block range [${start}, ${endExclusive})`)
      }
      if (endExclusive <= start || endExclusive - start > MAX_BLOCKS_PER_CALL) {
        throw new TypeError(
          `A block range holds 1–${MAX_BLOCKS_PER_CALL} blocks, got [${start}, ${endExclusive})`,
        )
      }
      const path = '/walletsolidity/getblockbylimitnext'
      const res = await request(path, {
        body: { startNum: start, endNum: endExclusive },
        quoteAmounts: true,
        urgent: opts.urgent,
      })
      if (res.status === 'error') return res
      // {} is the node's answer for "none of these blocks (yet)".
      if (isObject(res.json) && res.json.block === undefined && Object.keys(res.json).length === 0) {
        return { status: 'success', blocks: [] }
      }
      const list = isObject(res.json) ? res.json.block : undefined
      if (!Array.isArray(list)) return fail('malformed', `unexpected block list shape from ${path}`)
      const blocks: ChainBlock[] = []
      for (const item of list) {
        const parsed = parseBlock(item)
        if (typeof parsed === 'string') return fail('malformed', `${path}: ${parsed}`)
        // Only the contiguous run from `start` counts: a node may skip or reorder what it lacks.
        if (parsed.number !== start + blocks.length || parsed.number >= endExclusive) break
        const previous = blocks[blocks.length - 1]
        if (previous && parsed.parentHash !== previous.blockId) {
          return fail(
            'malformed',
            `${path}: block ${parsed.number} does not link to block ${previous.number}`,
          )
        }
        blocks.push(parsed)
      }
      return { status: 'success', blocks }
    },

    async getSolidTransactionInfos(blockNumber, opts = {}) {
      if (!Number.isSafeInteger(blockNumber) || blockNumber < 1) {
        throw new TypeError(`Invalid block number: ${blockNumber}`)
      }
      const path = '/walletsolidity/gettransactioninfobyblocknum'
      const res = await request(path, { body: { num: blockNumber }, quoteAmounts: true, urgent: opts.urgent })
      if (res.status === 'error') return res
      if (!Array.isArray(res.json))
        return fail('malformed', `${path}: expected an array for block ${blockNumber}`)
      const infos: ChainTxInfo[] = []
      for (const [i, item] of res.json.entries()) {
        const parsed = parseTxInfo(item)
        if (typeof parsed === 'string') return fail('malformed', `${path}: element ${i}: ${parsed}`)
        if (parsed.blockNumber !== blockNumber) {
          return fail(
            'malformed',
            `${path}: element ${i} belongs to block ${parsed.blockNumber}, not ${blockNumber}`,
          )
        }
        infos.push(parsed)
      }
      return { status: 'success', infos }
    },

    getSolidHead: (opts = {}) => getHeader('/walletsolidity/getblock', opts),
    getHead: (opts = {}) => getHeader('/wallet/getblock', opts),

    pausedUntil: limiter.pausedUntil,
  }
}
