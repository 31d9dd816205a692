import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'
import { normalizeTronAddress } from '../../src/shared/tron-address'
import {
  GENESIS_BLOCK,
  type ListQuery,
  MAINNET_USDT,
  SimChain,
  SimInputError,
  type TransferInput,
  toNodeJson,
} from './sim-chain'

// A TronGrid-compatible simulator over real HTTP. A block chain produced on a clock (or by mine() in
// tests): full-node (/wallet/*) and solidity-node (/walletsolidity/*) endpoints, the v1 account lists
// and a price feed answer with the real JSON shapes; /_sim/* is the control API for tests and demos.

export type FaultMode =
  | 'none'
  | 'http429'
  | 'http403'
  | 'http503'
  | 'http500'
  | 'timeout'
  | 'malformed'
  | 'empty'

export interface DevchainOptions {
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Base58 contract reported as the genuine USDT. Default mainnet TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t. */
  usdtContract?: string
  /** Block spacing, and the timer period when autoMine is on. Default 3000. */
  blockIntervalMs?: number
  /** Blocks between the head and the solidified head. Default 19. */
  solidifyLag?: number
  /** Produce a block every blockIntervalMs. Default true; when false only mine() produces blocks. */
  autoMine?: boolean
  /** Unrelated USDT transfers in every produced block, like mainnet traffic. Default 0. */
  noisePerBlock?: number
  /** Initial TRX/USD price as a decimal string. Default "0.25". */
  priceUsd?: string
}

export interface LogRequest {
  to: string
  amount: string | number
  from?: string
  contract?: string
  type?: 'Transfer' | 'Approval'
}

export interface TransferRequest {
  /** Required unless `logs` is given. */
  to?: string
  amount?: string | number
  token?: 'USDT' | 'TRX'
  /** Sender (TRX), token holder (USDT), or caller of via_contract. Default DEFAULT_SENDER. */
  from?: string
  /** transferFrom: the signer moving the holder's tokens. */
  spender?: string
  method?: 'transfer' | 'transferFrom'
  /** The transaction calls this contract, which makes USDT emit the log (or pays TRX internally). */
  via_contract?: string
  /** Several logs in one contract call (a batch payout). */
  logs?: LogRequest[]
  /** A token contract other than the configured USDT (a counterfeit). */
  contract?: string
  type?: 'Transfer' | 'Approval'
  txid?: string
  /**
   * The call fails on chain, with no logs and result FAILED: true or 'REVERT' reverts;
   * 'OUT_OF_ENERGY' runs out of the energy its fee limit paid for (the TRX is burnt all the same).
   */
  failed?: boolean | 'REVERT' | 'OUT_OF_ENERGY'
  /** TRX via_contract only: the internal transfer is marked rejected. */
  rejected?: boolean
  /**
   * via_contract only: the call's data does not name the recipient (a contract paying out from its
   * own books, e.g. a withdraw() of a balance it keeps): only the receipt shows whom it paid.
   */
  unnamed?: boolean
}

export interface TransferResult {
  transaction_id: string
  /** The block the transfer lands in: the next one produced. */
  block_number: number
  block_timestamp: number
}

export interface ChainHeights {
  head: number
  solid: number
}

export interface DevchainStats {
  /** Explorer requests (everything outside /_sim/), faulted ones included. */
  requests: number
  /** Per route, with the address in the path replaced by ":address". */
  byPath: Record<string, number>
  /** Response body bytes per route. */
  bytesByPath: Record<string, number>
  /** Requests per TRON-PRO-API-KEY value; "(none)" when the header was absent. */
  apiKeys: Record<string, number>
  /** Requests answered by an injected fault. */
  faulted: number
  /** Most explorer requests seen within any 1000 ms window. */
  peakPerSecond: number
}

export interface Devchain {
  url: string
  port: number
  usdtContract: string
  /** Closes the HTTP listener and stops the chain for good. */
  close(): Promise<void>
  /** Closes the HTTP listener only (an explorer outage); the chain keeps producing blocks. */
  stop(): Promise<void>
  /** Reopens the HTTP listener on the same port. */
  start(): Promise<void>
  /** Same as POST /_sim/transfers; throws DevchainInputError on a bad request. */
  transfer(request: TransferRequest): TransferResult
  /** Same as POST /_sim/mine: produces n blocks now (any mode). */
  mine(blocks?: number): ChainHeights
  /** Mines until every transfer submitted so far is in a solidified block. */
  solidify(): ChainHeights
  /** Same as POST /_sim/drop: the transaction vanishes from the unsolidified chain (a fork without it). */
  drop(txid: string): { block_number: number; reorganised_blocks: number }
  heights(): ChainHeights
  /**
   * path: fault only requests whose path contains this text. suspendSeconds: the suspension a 429
   * or 403 names (default 1; TronGrid names up to 30).
   */
  setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds?: number): void
  setPrice(usd: string): void
  reset(): void
  stats(): DevchainStats
  resetStats(): void
  /**
   * Another listener on the same chain (a second provider in tests), with its own faults, stats,
   * stop/start and, if asked, a fork.
   */
  addFace(): Promise<DevchainFace>
}

/** One more HTTP face of the same chain. */
export interface DevchainFace {
  url: string
  port: number
  setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds?: number): void
  stats(): DevchainStats
  resetStats(): void
  stop(): Promise<void>
  start(): Promise<void>
  /** From this block on, the face serves a fork: other blockIDs, each linked to the previous. null ends it. */
  fork(fromBlock: number | null): void
}

/** A bad control request (invalid address, amount, field…); answered over HTTP as 400. */
export { SimInputError as DevchainInputError }

const FAULT_MODES = [
  'none',
  'http429',
  'http403',
  'http503',
  'http500',
  'timeout',
  'malformed',
  'empty',
] as const
const DEFAULT_PRICE = '0.25'
const MAX_BODY_BYTES = 1_000_000
const MAX_PAGE_SIZE = 200
const DEFAULT_PAGE_SIZE = 20
const MAX_TRACKED_PATHS = 200
// java-tron's getblockbylimitnext serves at most this many blocks per call.
const BLOCK_LIMIT = 100
const MAX_MINE = 10_000

const HEX_DECODER_ERROR =
  'class org.bouncycastle.util.encoders.DecoderException : exception decoding Hex string: invalid characters encountered in Hex string'
const JSON_SYNTAX_ERROR = 'class com.alibaba.fastjson.JSONException : syntax error'

const logSchema = z.strictObject({
  to: z.string({ error: 'logs[].to is required: a TRON address' }),
  amount: z.union([z.string(), z.number()], { error: 'logs[].amount is required: a decimal string' }),
  from: z.string().optional(),
  contract: z.string().optional(),
  type: z.enum(['Transfer', 'Approval']).optional(),
})

const transferSchema = z.strictObject({
  to: z.string({ error: 'to must be a TRON address' }).optional(),
  amount: z
    .union([z.string(), z.number()], { error: 'amount must be a decimal string such as "12.5"' })
    .optional(),
  token: z.enum(['USDT', 'TRX']).default('USDT'),
  from: z.string().optional(),
  spender: z.string().optional(),
  method: z.enum(['transfer', 'transferFrom']).optional(),
  via_contract: z.string().optional(),
  logs: z.array(logSchema).optional(),
  contract: z.string().optional(),
  type: z.enum(['Transfer', 'Approval']).default('Transfer'),
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters')
    .optional(),
  failed: z.union([z.boolean(), z.enum(['REVERT', 'OUT_OF_ENERGY'])]).default(false),
  rejected: z.boolean().optional(),
  unnamed: z.boolean().optional(),
})

const dropSchema = z.strictObject({
  txid: z.string().regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters'),
})

const mineSchema = z.strictObject({
  blocks: z.number().int().min(1).max(MAX_MINE).default(1),
})

const faultSchema = z.strictObject({
  mode: z.enum(FAULT_MODES),
  count: z.number().int().positive().optional(),
  path: z.string().min(1).optional(),
  suspend_seconds: z.number().int().min(1).max(600).optional(),
})

const priceSchema = z.strictObject({
  usd: z.union([z.string(), z.number()]).transform((v) => String(v).trim()),
})

function describeIssues(error: z.ZodError): string {
  const messages = error.issues.map((issue) => {
    const path = issue.path.join('.')
    if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`
    return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message
  })
  return messages.join('; ') || 'invalid request body'
}

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body)
  if (!result.success) throw new SimInputError(describeIssues(result.error))
  return result.data
}

function validatePrice(usd: string): string {
  if (!/^(0|[1-9]\d*)(\.\d{1,8})?$/.test(usd) || /^0(\.0+)?$/.test(usd)) {
    throw new SimInputError(
      `usd must be a positive decimal with at most 8 decimals, got ${JSON.stringify(usd)}`,
    )
  }
  return usd
}

function routeKey(path: string): string {
  return path.replace(/^\/v1\/accounts\/[^/]+/, '/v1/accounts/:address')
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** A java-tron refusal: HTTP 200 with {"Error": …}. */
class NodeError extends Error {}

const NODE_METHODS = new Set([
  'getnowblock',
  'getblock',
  'getblockbynum',
  'getblockbylimitnext',
  'gettransactioninfobyblocknum',
  'gettransactioninfobyid',
  'gettransactionbyid',
  'getnodeinfo',
])

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An int64 request field as java-tron reads it: a JSON number or a decimal string; absent is 0. */
function longField(body: Record<string, unknown>, name: string): number {
  const value = body[name]
  if (value === undefined || value === null) return 0
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return Number(value)
  throw new NodeError(`class java.lang.NumberFormatException : For input string: "${String(value)}"`)
}

export async function createDevchain(opts: DevchainOptions = {}): Promise<Devchain> {
  const usdtContract = normalizeTronAddress(opts.usdtContract ?? MAINNET_USDT)
  if (!usdtContract) throw new SimInputError(`usdtContract is not a valid TRON address: ${opts.usdtContract}`)
  const noisePerBlock = opts.noisePerBlock ?? 0
  if (!(Number.isInteger(noisePerBlock) && noisePerBlock >= 0)) {
    throw new SimInputError('noisePerBlock must be a non-negative integer')
  }
  const chain = new SimChain({
    usdtContract,
    blockIntervalMs: opts.blockIntervalMs ?? 3000,
    solidifyLag: opts.solidifyLag ?? 19,
    noisePerBlock,
  })
  const autoMine = opts.autoMine ?? true
  const initialPrice = validatePrice(opts.priceUsd ?? DEFAULT_PRICE)
  let price = initialPrice
  interface Face {
    fault: { mode: FaultMode; remaining: number | null; path: string | null; suspendSeconds: number }
    stats: ReturnType<typeof emptyStats>
    // Responses held open by the "timeout" fault; stop() and close() destroy them so they never wait on a client.
    held: Set<ServerResponse>
    server: Server | null
    forkFrom: number | null
  }
  const newFace = (): Face => ({
    fault: { mode: 'none', remaining: null, path: null, suspendSeconds: 1 },
    stats: emptyStats(),
    held: new Set(),
    server: null,
    forkFrom: null,
  })
  const main = newFace()
  const faces: Face[] = [main]
  const faceOf = new WeakMap<ServerResponse, Face>()
  const routeOf = new WeakMap<ServerResponse, string>()
  let closed = false
  let timer: NodeJS.Timeout | null = null

  // Auto mode: a block is due blockIntervalMs after the previous one. Mining ahead with mine() moves the
  // chain's clock past the wall clock; the timer then waits until the wall clock catches up.
  function scheduleTick() {
    if (!autoMine || closed) return
    const head = chain.getBlock(chain.headBlock())
    const due = (head?.timestamp ?? Date.now()) + chain.blockIntervalMs
    timer = setTimeout(
      () => {
        timer = null
        if (closed) return
        if (Date.now() >= due) chain.produceBlock()
        scheduleTick()
      },
      Math.max(0, due - Date.now()),
    )
    timer.unref()
  }

  function emptyStats() {
    return {
      requests: 0,
      faulted: 0,
      byPath: {} as Record<string, number>,
      bytesByPath: {} as Record<string, number>,
      apiKeys: {} as Record<string, number>,
      times: [] as number[],
    }
  }

  function peakPerSecond(times: number[]): number {
    let peak = 0
    let start = 0
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= 1000) start++
      peak = Math.max(peak, end - start + 1)
    }
    return peak
  }

  function heights(): ChainHeights {
    return { head: chain.headBlock(), solid: chain.solidBlock() }
  }

  function transfer(request: TransferRequest): TransferResult {
    const input: TransferInput = parseBody(transferSchema, request)
    const tx = chain.addTransfer(input)
    return { transaction_id: tx.txid, block_number: tx.blockNumber, block_timestamp: tx.blockTimestamp }
  }

  function mine(blocks = 1): ChainHeights {
    if (!(Number.isInteger(blocks) && blocks >= 1 && blocks <= MAX_MINE)) {
      throw new SimInputError(`blocks must be an integer from 1 to ${MAX_MINE}`)
    }
    for (let i = 0; i < blocks; i++) chain.produceBlock()
    if (timer) {
      clearTimeout(timer)
      timer = null
      scheduleTick()
    }
    return heights()
  }

  function solidify(): ChainHeights {
    const target = chain.lastTransferBlock()
    if (target === null) return heights()
    const missing = target + chain.solidifyLag - chain.headBlock()
    return missing > 0 ? mine(missing) : heights()
  }

  function setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds = 1, face = main) {
    face.fault =
      mode === 'none'
        ? { mode, remaining: null, path: null, suspendSeconds: 1 }
        : { mode, remaining: count ?? null, path: path ?? null, suspendSeconds }
  }

  function reset() {
    chain.reset()
    price = initialPrice
    for (const face of faces) {
      setFault('none', undefined, undefined, 1, face)
      face.stats = emptyStats()
      face.forkFrom = null
    }
    if (timer) {
      clearTimeout(timer)
      timer = null
      scheduleTick()
    }
  }

  function statsView(face = main): DevchainStats {
    const stats = face.stats
    return {
      requests: stats.requests,
      byPath: { ...stats.byPath },
      bytesByPath: { ...stats.bytesByPath },
      apiKeys: { ...stats.apiKeys },
      faulted: stats.faulted,
      peakPerSecond: peakPerSecond(stats.times),
    }
  }

  function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json') {
    const text = typeof body === 'string' ? body : toNodeJson(body)
    const route = routeOf.get(res)
    const stats = faceOf.get(res)?.stats
    if (route !== undefined && stats) {
      stats.bytesByPath[route] = (stats.bytesByPath[route] ?? 0) + Buffer.byteLength(text)
    }
    res.writeHead(status, {
      'content-type': `${contentType}; charset=utf-8`,
      'access-control-allow-origin': '*',
    })
    res.end(text)
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'request body too large')
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks).toString('utf8')
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const text = await readBody(req)
    if (text.trim() === '') return {}
    try {
      return JSON.parse(text)
    } catch {
      throw new HttpError(400, 'request body is not valid JSON')
    }
  }

  // ---- control API ----

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string) {
    const method = req.method ?? 'GET'
    const route = `${method} ${path}`
    switch (route) {
      case 'POST /_sim/transfers':
        return send(res, 200, transfer((await readJson(req)) as TransferRequest))
      case 'POST /_sim/drop': {
        const body = parseBody(dropSchema, await readJson(req))
        return send(res, 200, chain.dropTransaction(body.txid))
      }
      case 'POST /_sim/mine': {
        const body = parseBody(mineSchema, await readJson(req))
        return send(res, 200, mine(body.blocks))
      }
      case 'POST /_sim/faults': {
        const body = parseBody(faultSchema, await readJson(req))
        setFault(body.mode, body.count, body.path, body.suspend_seconds)
        return send(res, 200, main.fault)
      }
      case 'POST /_sim/price': {
        const body = parseBody(priceSchema, await readJson(req))
        price = validatePrice(body.usd)
        return send(res, 200, { usd: price })
      }
      case 'POST /_sim/reset':
        reset()
        return send(res, 200, { success: true })
      case 'GET /_sim/state':
        return send(res, 200, {
          ...chain.counts(),
          auto_mine: autoMine,
          usdt_contract: usdtContract,
          price_usd: price,
          fault: main.fault,
        })
      case 'GET /_sim/stats':
        return send(res, 200, statsView())
      case 'POST /_sim/stats/reset':
        main.stats = emptyStats()
        return send(res, 200, { success: true })
      default:
        throw new HttpError(404, `no control route ${route}`)
    }
  }

  // ---- explorer API ----

  function injectFault(res: ServerResponse, path: string): boolean {
    const face = faceOf.get(res) ?? main
    const { fault, stats, held } = face
    if (fault.mode === 'none') return false
    if (fault.path !== null && !path.includes(fault.path)) return false
    const { mode, suspendSeconds } = fault
    if (fault.remaining !== null) {
      fault.remaining -= 1
      if (fault.remaining <= 0) setFault('none', undefined, undefined, 1, face)
    }
    stats.faulted += 1
    switch (mode) {
      case 'http429':
        send(res, 429, {
          Error: `request rate exceeded the allowed_rps(10), and the query server is suspended for ${suspendSeconds} s`,
        })
        break
      case 'http403':
        send(res, 403, {
          Success: false,
          Error: `The key exceeds the frequency limit(15), and the query server is suspended for ${suspendSeconds}s`,
          StatusCode: 403,
        })
        break
      case 'http503':
        // A gateway page, no hint: the client has to fall back to its own backoff.
        send(res, 503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>', 'text/html')
        break
      case 'http500':
        send(res, 500, { Error: 'Internal Server Error' })
        break
      case 'malformed':
        send(res, 200, '{"data":[{"transaction_id":"e37eb34143ca6014534', 'application/json')
        break
      case 'empty':
        // A load-balanced back end that lags behind: it knows none of the recent blocks or transactions.
        if (path.endsWith('/gettransactioninfobyblocknum')) send(res, 200, [])
        else if (path.startsWith('/v1/'))
          send(res, 200, { data: [], success: true, meta: { at: Date.now(), page_size: 0 } })
        else send(res, 200, {})
        break
      case 'timeout':
        held.add(res)
        res.on('close', () => held.delete(res))
        break
    }
    return true
  }

  function boolParam(url: URL, name: string): boolean {
    const value = param(url, name)
    if (value === null || value === '') return false
    if (value === 'true') return true
    if (value === 'false') return false
    throw new HttpError(400, `${name} must be true or false`)
  }

  function param(url: URL, snake: string): string | null {
    const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
    return url.searchParams.get(snake) ?? url.searchParams.get(camel)
  }

  function intParam(url: URL, ...names: string[]): number | undefined {
    for (const name of names) {
      const value = param(url, name)
      if (value === null || value === '') continue
      if (!/^\d{1,16}$/.test(value)) throw new HttpError(400, `${name} must be a non-negative integer`)
      return Number(value)
    }
    return undefined
  }

  function listQuery(url: URL, address: string): ListQuery {
    const onlyConfirmed = boolParam(url, 'only_confirmed')
    const onlyUnconfirmed = boolParam(url, 'only_unconfirmed')
    if (onlyConfirmed && onlyUnconfirmed) {
      throw new HttpError(400, 'only_confirmed and only_unconfirmed cannot be used together')
    }
    const limit = intParam(url, 'limit') ?? DEFAULT_PAGE_SIZE
    if (limit < 1) throw new HttpError(400, 'limit must be at least 1')
    const orderBy = param(url, 'order_by') ?? 'block_timestamp,desc'
    const order = /^(block_timestamp|timestamp),(asc|desc)$/.exec(orderBy)
    if (!order) throw new HttpError(400, 'order_by must be block_timestamp,asc or block_timestamp,desc')
    const contractParam = param(url, 'contract_address')
    let contract: string | undefined
    if (contractParam) {
      contract = normalizeTronAddress(contractParam) ?? undefined
      if (!contract) throw new HttpError(400, `Invalid contract address: ${contractParam}`)
    }
    return {
      address,
      onlyConfirmed,
      onlyUnconfirmed,
      onlyTo: boolParam(url, 'only_to'),
      onlyFrom: boolParam(url, 'only_from'),
      limit: Math.min(limit, MAX_PAGE_SIZE),
      contract,
      minTimestamp: intParam(url, 'min_timestamp', 'min_block_timestamp'),
      maxTimestamp: intParam(url, 'max_timestamp', 'max_block_timestamp'),
      ascending: order[2] === 'asc',
      fingerprint: param(url, 'fingerprint') || undefined,
    }
  }

  function listEnvelope(req: IncomingMessage, url: URL, items: unknown[], fingerprint: string | undefined) {
    const meta: Record<string, unknown> = { at: Date.now() }
    if (fingerprint) {
      const next = new URL(url.pathname, `http://${req.headers.host ?? 'localhost'}`)
      for (const [k, v] of url.searchParams) if (k !== 'fingerprint') next.searchParams.append(k, v)
      next.searchParams.set('fingerprint', fingerprint)
      meta.fingerprint = fingerprint
      meta.links = { next: next.toString() }
    }
    meta.page_size = items.length
    return { data: items, success: true, meta }
  }

  /** A node request's parameters: the POST JSON body (empty allowed) or the GET query string. */
  async function nodeParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = Object.fromEntries(url.searchParams)
    if (req.method !== 'POST') return params
    const text = await readBody(req)
    if (text.trim() === '') return params
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new NodeError(JSON_SYNTAX_ERROR)
    }
    if (!isObject(body)) throw new NodeError(JSON_SYNTAX_ERROR)
    return { ...params, ...body }
  }

  function nodeInfo() {
    const head = chain.getBlock(chain.headBlock())
    const solid = chain.getBlock(chain.solidBlock())
    return {
      activeConnectCount: 30,
      beginSyncNum: GENESIS_BLOCK,
      block: `Num:${head?.number},ID:${head?.id}`,
      configNodeInfo: { codeVersion: '4.8.0', versionNum: '19360' },
      currentConnectCount: 30,
      machineInfo: { cpuCount: 8, javaVersion: '1.8.0_442', osName: 'Linux amd64' },
      passiveConnectCount: 0,
      peerList: [],
      solidityBlock: `Num:${solid?.number},ID:${solid?.id}`,
      totalFlow: 0,
    }
  }

  function nodeAnswer(method: string, solidity: boolean, params: Record<string, unknown>): unknown {
    const visibleHead = solidity ? chain.solidBlock() : chain.headBlock()
    const block = (n: number) => chain.getBlock(n, solidity)
    switch (method) {
      case 'getnowblock': {
        const latest = block(visibleHead)
        return latest ? chain.blockBody(latest) : {}
      }
      case 'getblock': {
        const detail = params.detail === true || params.detail === 'true'
        const idOrNum = params.id_or_num
        let found = block(visibleHead)
        if (typeof idOrNum === 'number' || (typeof idOrNum === 'string' && idOrNum !== '')) {
          const text = String(idOrNum)
          if (/^\d{1,16}$/.test(text)) found = block(Number(text))
          else if (/^[0-9a-fA-F]{64}$/.test(text)) found = chain.getBlockById(text, solidity)
          else
            throw new NodeError(
              `class java.lang.IllegalArgumentException : id_or_num must be a block number or id: ${text}`,
            )
        }
        return found ? chain.blockBody(found, detail) : {}
      }
      case 'getblockbynum': {
        const found = block(longField(params, 'num'))
        return found ? chain.blockBody(found) : {}
      }
      case 'getblockbylimitnext': {
        const start = longField(params, 'startNum')
        const end = longField(params, 'endNum')
        if (end <= start || end - start > BLOCK_LIMIT) return {}
        const blocks = []
        for (let n = Math.max(start, 0); n < end; n++) {
          const found = block(n)
          if (found) blocks.push(chain.blockBody(found))
        }
        return blocks.length > 0 ? { block: blocks } : {}
      }
      case 'gettransactioninfobyblocknum': {
        const num = longField(params, 'num')
        if (num <= 0) return {}
        const found = block(num)
        return found ? chain.blockInfos(found) : []
      }
      case 'gettransactioninfobyid':
      case 'gettransactionbyid': {
        const value = params.value ?? ''
        const txid = typeof value === 'string' ? value : ''
        if (!/^[0-9a-fA-F]*$/.test(txid) || txid.length % 2 !== 0) throw new NodeError(HEX_DECODER_ERROR)
        // The solidity node only knows transactions in solidified blocks.
        const tx = chain.getTransaction(txid, solidity)
        if (!tx) return {}
        return method === 'gettransactioninfobyid' ? chain.transactionInfo(tx) : chain.transactionBody(tx)
      }
      case 'getnodeinfo':
        return nodeInfo()
      default:
        throw new HttpError(404, `Not Found: ${method}`)
    }
  }

  async function handleExplorer(req: IncomingMessage, res: ServerResponse, url: URL, path: string) {
    const method = req.method ?? 'GET'
    const accounts = /^\/v1\/accounts\/([^/]+)\/transactions(\/trc20)?$/.exec(path)
    if (accounts) {
      if (method !== 'GET') throw new HttpError(405, 'Method Not Allowed')
      const raw = decodeURIComponent(accounts[1] ?? '')
      const address = normalizeTronAddress(raw)
      if (!address) throw new HttpError(400, `Invalid address: ${raw}`)
      const query = listQuery(url, address)
      if (accounts[2]) {
        const page = chain.listTrc20(query)
        const items = page.items.map((e) => chain.trc20Item(e))
        return send(res, 200, listEnvelope(req, url, items, page.fingerprint))
      }
      const page = chain.listTransactions(query)
      const items = page.items.map((t) => ('move' in t ? chain.v1Internal(t) : chain.v1Transaction(t)))
      return send(res, 200, listEnvelope(req, url, items, page.fingerprint))
    }

    const node = /^\/(wallet|walletsolidity)\/([a-z]+)$/.exec(path)
    if (node && NODE_METHODS.has(node[2] ?? '')) {
      if (method !== 'GET' && method !== 'POST') throw new HttpError(405, 'Method Not Allowed')
      const nodeMethod = node[2] ?? ''
      try {
        let params: Record<string, unknown> = {}
        // getnowblock reads no parameters; its body is drained and ignored.
        if (nodeMethod === 'getnowblock') await readBody(req)
        else params = await nodeParams(req, url)
        const answer = nodeAnswer(nodeMethod, node[1] === 'walletsolidity', params)
        const forkFrom = faceOf.get(res)?.forkFrom ?? null
        return send(res, 200, forkFrom === null ? answer : forkBlocks(answer, forkFrom))
      } catch (err) {
        if (err instanceof NodeError) return send(res, 200, { Error: err.message })
        throw err
      }
    }

    if (path === '/api/v3/simple/price' && method === 'GET') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').map((s) => s.trim().toLowerCase())
      const currencies = (url.searchParams.get('vs_currencies') ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
      if (!ids.includes('tron')) return send(res, 200, '{}')
      // The price goes out as a JSON number literal written from the decimal string, never through a float.
      return send(res, 200, currencies.includes('usd') ? `{"tron":{"usd":${price}}}` : '{"tron":{}}')
    }

    if (path === '/api/v3/ticker/price' && method === 'GET') {
      const [whole, fraction = ''] = price.split('.')
      const ticker = { symbol: 'TRXUSDT', price: `${whole}.${fraction.padEnd(8, '0')}` }
      const symbol = url.searchParams.get('symbol')
      if (symbol === null) return send(res, 200, [ticker])
      if (symbol !== 'TRXUSDT') return send(res, 400, { code: -1121, msg: 'Invalid symbol.' })
      return send(res, 200, ticker)
    }

    throw new HttpError(404, `Not Found: ${method} ${path}`)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://devchain.local')
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type, tron-pro-api-key',
      })
      return res.end()
    }
    if (path.startsWith('/_sim/')) return handleControl(req, res, path)

    const stats = (faceOf.get(res) ?? main).stats
    stats.requests += 1
    const key = routeKey(path)
    if (key in stats.byPath || Object.keys(stats.byPath).length < MAX_TRACKED_PATHS) {
      stats.byPath[key] = (stats.byPath[key] ?? 0) + 1
      routeOf.set(res, key)
    }
    const apiKey = req.headers['tron-pro-api-key']
    const keyName = typeof apiKey === 'string' ? apiKey : '(none)'
    stats.apiKeys[keyName] = (stats.apiKeys[keyName] ?? 0) + 1
    stats.times.push(Date.now())
    if (stats.times.length > 100_000) stats.times.splice(0, 50_000)

    if (injectFault(res, path)) return
    return handleExplorer(req, res, url, path)
  }

  /** The id a forked face gives block n: the same number prefix, other hash bytes. */
  function forkedId(n: number): string {
    const real = chain.getBlock(n)?.id ?? String(n)
    return (
      n.toString(16).padStart(16, '0') +
      createHash('sha256').update(`fork:${real}`).digest('hex').slice(0, 48)
    )
  }

  /** Block bodies in a node answer as a face forked at forkFrom serves them. */
  function forkBlocks(answer: unknown, forkFrom: number): unknown {
    const rewrite = (body: unknown): unknown => {
      if (!isObject(body) || typeof body.blockID !== 'string') return body
      const header = body.block_header as { raw_data: { number: number; parentHash: string } }
      const n = header.raw_data.number
      if (n < forkFrom) return body
      return {
        ...body,
        blockID: forkedId(n),
        block_header: {
          ...header,
          raw_data: {
            ...header.raw_data,
            parentHash: n - 1 >= forkFrom ? forkedId(n - 1) : header.raw_data.parentHash,
          },
        },
      }
    }
    if (isObject(answer) && Array.isArray(answer.block))
      return { ...answer, block: answer.block.map(rewrite) }
    return rewrite(answer)
  }

  const host = opts.host ?? '127.0.0.1'

  function listen(port: number, face: Face): Promise<Server> {
    const created = createServer((req, res) => {
      faceOf.set(res, face)
      handle(req, res).catch((err: unknown) => {
        if (res.headersSent) return res.destroy()
        if (err instanceof HttpError) return send(res, err.status, { success: false, error: err.message })
        if (err instanceof SimInputError) return send(res, 400, { success: false, error: err.message })
        console.error('devchain: unexpected error', err)
        send(res, 500, { success: false, error: 'internal devchain error' })
      })
    })
    return new Promise<Server>((resolve, reject) => {
      created.once('error', reject)
      created.listen(port, host, () => {
        created.off('error', reject)
        resolve(created)
      })
    })
  }

  function stopServer(face = main): Promise<void> {
    const current = face.server
    face.server = null
    if (!current) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      for (const res of face.held) res.destroy()
      face.held.clear()
      current.close((err) => (err ? reject(err) : resolve()))
      current.closeAllConnections()
    })
  }

  main.server = await listen(opts.port ?? 0, main)
  const address = main.server.address() as AddressInfo
  const port = address.port
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  scheduleTick()

  async function addFace(): Promise<DevchainFace> {
    if (closed) throw new Error('the devchain is closed')
    const face = newFace()
    face.server = await listen(0, face)
    faces.push(face)
    const facePort = (face.server.address() as AddressInfo).port
    return {
      url: `http://${urlHost}:${facePort}`,
      port: facePort,
      setFault: (mode, count, path, suspendSeconds) => setFault(mode, count, path, suspendSeconds, face),
      stats: () => statsView(face),
      resetStats: () => {
        face.stats = emptyStats()
      },
      stop: () => stopServer(face),
      async start() {
        if (closed) throw new Error('the devchain is closed')
        if (!face.server) face.server = await listen(facePort, face)
      },
      fork(fromBlock) {
        face.forkFrom = fromBlock
      },
    }
  }

  return {
    url: `http://${urlHost}:${port}`,
    port,
    usdtContract,
    transfer,
    mine,
    solidify,
    drop: (txid: string) => chain.dropTransaction(parseBody(dropSchema, { txid }).txid),
    heights,
    setFault,
    setPrice: (usd) => {
      price = validatePrice(usd)
    },
    reset,
    stats: statsView,
    resetStats: () => {
      main.stats = emptyStats()
    },
    addFace,
    stop: () => stopServer(main),
    async start() {
      if (closed) throw new Error('the devchain is closed')
      if (!main.server) main.server = await listen(port, main)
    },
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      await Promise.all(faces.map((face) => stopServer(face)))
    },
  }
}
