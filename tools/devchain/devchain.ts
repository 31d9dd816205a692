import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'
import { normalizeTronAddress } from '../../src/shared/tron-address'
import { type ListQuery, MAINNET_USDT, SimChain, SimInputError, type TransferInput } from './sim-chain'

// A TronGrid-compatible simulator over real HTTP (DESIGN.md §3 "Devchain"). Explorer endpoints answer
// with the JSON shapes of tron-api.md; /_sim/* is the control API for tests and demos.

export type FaultMode = 'none' | 'http429' | 'http403' | 'http503' | 'http500' | 'timeout' | 'malformed'

export interface DevchainOptions {
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Base58 contract reported as the genuine USDT. Default mainnet TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t. */
  usdtContract?: string
  /** Block spacing used for block numbers and the solidified head. Default 3000. */
  blockIntervalMs?: number
  /** Initial TRX/USD price as a decimal string. Default "0.25". */
  priceUsd?: string
}

export interface TransferRequest {
  to: string
  amount: string | number
  token?: 'USDT' | 'TRX'
  from?: string
  confirmed?: boolean
  contract?: string
  type?: 'Transfer' | 'Approval'
  txid?: string
  block_timestamp?: number
  failed?: boolean
}

export interface TransferResult {
  transaction_id: string
  block_timestamp: number
}

export interface DevchainStats {
  /** Explorer requests (everything outside /_sim/), faulted ones included. */
  requests: number
  /** Per route, with the address in the path replaced by ":address". */
  byPath: Record<string, number>
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
  close(): Promise<void>
  /** Same as POST /_sim/transfers; throws DevchainInputError on a bad request. */
  transfer(request: TransferRequest): TransferResult
  /** Same as POST /_sim/confirm; false when the transaction is unknown. */
  confirm(transactionId: string, blockTimestamp?: number): boolean
  setFault(mode: FaultMode, count?: number): void
  setPrice(usd: string): void
  reset(): void
  stats(): DevchainStats
  resetStats(): void
}

/** A bad control request (invalid address, amount, field…); answered over HTTP as 400. */
export { SimInputError as DevchainInputError }

const FAULT_MODES = ['none', 'http429', 'http403', 'http503', 'http500', 'timeout', 'malformed'] as const
const DEFAULT_PRICE = '0.25'
const MAX_BODY_BYTES = 1_000_000
const MAX_PAGE_SIZE = 200
const DEFAULT_PAGE_SIZE = 20
const MAX_TRACKED_PATHS = 200

const HEX_DECODER_ERROR =
  'class org.bouncycastle.util.encoders.DecoderException : exception decoding Hex string: invalid characters encountered in Hex string'

const transferSchema = z.strictObject({
  to: z.string({ error: 'to is required: a TRON address' }),
  amount: z.union([z.string(), z.number()], { error: 'amount is required: a decimal string such as "12.5"' }),
  token: z.enum(['USDT', 'TRX']).default('USDT'),
  from: z.string().optional(),
  confirmed: z.boolean().default(true),
  contract: z.string().optional(),
  type: z.enum(['Transfer', 'Approval']).default('Transfer'),
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters')
    .optional(),
  block_timestamp: z.number().int().positive().optional(),
  failed: z.boolean().default(false),
})

const confirmSchema = z.strictObject({
  transaction_id: z.string().regex(/^[0-9a-fA-F]{64}$/, 'transaction_id must be 64 hex characters'),
  block_timestamp: z.number().int().positive().optional(),
})

const faultSchema = z.strictObject({
  mode: z.enum(FAULT_MODES),
  count: z.number().int().positive().optional(),
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

export async function createDevchain(opts: DevchainOptions = {}): Promise<Devchain> {
  const usdtContract = normalizeTronAddress(opts.usdtContract ?? MAINNET_USDT)
  if (!usdtContract) throw new SimInputError(`usdtContract is not a valid TRON address: ${opts.usdtContract}`)
  const chain = new SimChain({ usdtContract, blockIntervalMs: opts.blockIntervalMs ?? 3000 })
  const initialPrice = validatePrice(opts.priceUsd ?? DEFAULT_PRICE)
  let price = initialPrice
  let fault: { mode: FaultMode; remaining: number | null } = { mode: 'none', remaining: null }
  let stats = emptyStats()
  // Responses held open by the "timeout" fault; close() destroys them so it never waits on a client.
  const held = new Set<ServerResponse>()

  function emptyStats() {
    return {
      requests: 0,
      faulted: 0,
      byPath: {} as Record<string, number>,
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

  function transfer(request: TransferRequest): TransferResult {
    const input: TransferInput = parseBody(transferSchema, request)
    const tx = chain.addTransfer(input)
    return { transaction_id: tx.txid, block_timestamp: tx.blockTimestamp }
  }

  function confirm(transactionId: string, blockTimestamp?: number): boolean {
    return chain.confirm(transactionId, blockTimestamp) !== undefined
  }

  function setFault(mode: FaultMode, count?: number) {
    fault = { mode, remaining: mode === 'none' ? null : (count ?? null) }
  }

  function reset() {
    chain.reset()
    price = initialPrice
    fault = { mode: 'none', remaining: null }
    stats = emptyStats()
  }

  function statsView(): DevchainStats {
    return {
      requests: stats.requests,
      byPath: { ...stats.byPath },
      apiKeys: { ...stats.apiKeys },
      faulted: stats.faulted,
      peakPerSecond: peakPerSecond(stats.times),
    }
  }

  function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json') {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
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
      case 'POST /_sim/confirm': {
        const body = parseBody(confirmSchema, await readJson(req))
        const tx = chain.confirm(body.transaction_id, body.block_timestamp)
        if (!tx) throw new HttpError(404, `unknown transaction ${body.transaction_id}`)
        return send(res, 200, {
          transaction_id: tx.txid,
          confirmed: true,
          block_timestamp: tx.blockTimestamp,
        })
      }
      case 'POST /_sim/faults': {
        const body = parseBody(faultSchema, await readJson(req))
        setFault(body.mode, body.count)
        return send(res, 200, fault)
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
        return send(res, 200, { ...chain.counts(), usdt_contract: usdtContract, price_usd: price, fault })
      case 'GET /_sim/stats':
        return send(res, 200, statsView())
      case 'POST /_sim/stats/reset':
        stats = emptyStats()
        return send(res, 200, { success: true })
      default:
        throw new HttpError(404, `no control route ${route}`)
    }
  }

  // ---- explorer API ----

  function injectFault(res: ServerResponse): boolean {
    if (fault.mode === 'none') return false
    const mode = fault.mode
    if (fault.remaining !== null) {
      fault.remaining -= 1
      if (fault.remaining <= 0) fault = { mode: 'none', remaining: null }
    }
    stats.faulted += 1
    switch (mode) {
      case 'http429':
        send(res, 429, {
          Error: 'request rate exceeded the allowed_rps(10), and the query server is suspended for 1 s',
        })
        break
      case 'http403':
        send(res, 403, {
          Success: false,
          Error: 'The key exceeds the frequency limit(15), and the query server is suspended for 1s',
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

  async function txIdFromRequest(req: IncomingMessage, url: URL): Promise<string | { Error: string }> {
    let value: unknown = url.searchParams.get('value') ?? undefined
    if (req.method === 'POST') {
      const text = await readBody(req)
      if (text.trim() !== '') {
        try {
          const body = JSON.parse(text) as { value?: unknown }
          value = body?.value ?? value
        } catch {
          return { Error: 'class com.alibaba.fastjson.JSONException : syntax error' }
        }
      }
    }
    const txid = typeof value === 'string' ? value : ''
    if (!/^[0-9a-fA-F]*$/.test(txid) || txid.length % 2 !== 0) return { Error: HEX_DECODER_ERROR }
    return txid.toLowerCase()
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
        return send(
          res,
          200,
          listEnvelope(
            req,
            url,
            page.items.map((e) => chain.trc20Item(e)),
            page.fingerprint,
          ),
        )
      }
      const page = chain.listTransactions(query)
      return send(
        res,
        200,
        listEnvelope(
          req,
          url,
          page.items.map((t) => chain.v1Transaction(t)),
          page.fingerprint,
        ),
      )
    }

    const node = /^\/(wallet|walletsolidity)\/(gettransactioninfobyid|gettransactionbyid|getnowblock)$/.exec(
      path,
    )
    if (node) {
      if (method !== 'GET' && method !== 'POST') throw new HttpError(405, 'Method Not Allowed')
      const solidity = node[1] === 'walletsolidity'
      if (node[2] === 'getnowblock') {
        if (req.method === 'POST') await readBody(req)
        return send(res, 200, chain.block(solidity ? chain.solidBlock() : chain.headBlock()))
      }
      const txid = await txIdFromRequest(req, url)
      if (typeof txid !== 'string') return send(res, 200, txid)
      const tx = chain.getTransaction(txid)
      // The solidity node only knows solidified transactions.
      if (!tx || (solidity && !tx.confirmed)) return send(res, 200, {})
      return send(
        res,
        200,
        node[2] === 'gettransactioninfobyid' ? chain.transactionInfo(tx) : chain.transactionBody(tx),
      )
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

    stats.requests += 1
    const key = routeKey(path)
    if (key in stats.byPath || Object.keys(stats.byPath).length < MAX_TRACKED_PATHS) {
      stats.byPath[key] = (stats.byPath[key] ?? 0) + 1
    }
    const apiKey = req.headers['tron-pro-api-key']
    const keyName = typeof apiKey === 'string' ? apiKey : '(none)'
    stats.apiKeys[keyName] = (stats.apiKeys[keyName] ?? 0) + 1
    stats.times.push(Date.now())
    if (stats.times.length > 100_000) stats.times.splice(0, 50_000)

    if (injectFault(res)) return
    return handleExplorer(req, res, url, path)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy()
      if (err instanceof HttpError) return send(res, err.status, { success: false, error: err.message })
      if (err instanceof SimInputError) return send(res, 400, { success: false, error: err.message })
      console.error('devchain: unexpected error', err)
      send(res, 500, { success: false, error: 'internal devchain error' })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    usdtContract,
    transfer,
    confirm,
    setFault,
    setPrice: (usd) => {
      price = validatePrice(usd)
    },
    reset,
    stats: statsView,
    resetStats: () => {
      stats = emptyStats()
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of held) res.destroy()
        held.clear()
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}
