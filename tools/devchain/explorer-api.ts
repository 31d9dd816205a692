import type { IncomingMessage, ServerResponse } from 'node:http'
import { normalizeTronAddress } from '../../src/shared/tron-address'
import type { ChainControl } from './chain-control'
import { faceOf } from './faces'
import { HttpError, NodeError, readBody, send } from './http-io'
import { listEnvelope, listQuery } from './list-queries'
import { forkBlocks, NODE_METHODS, nodeAnswer, nodeParams } from './node-api'

// What the shop calls: the v1 account lists, the full and solidity nodes, and the two price
// feeds (CoinGecko's simple price, Binance's ticker), with the real JSON shapes.

export async function handleExplorer(
  control: ChainControl,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
) {
  const { chain, price } = control
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
      const answer = nodeAnswer(chain, nodeMethod, node[1] === 'walletsolidity', params)
      const forkFrom = faceOf.get(res)?.forkFrom ?? null
      return send(res, 200, forkFrom === null ? answer : forkBlocks(chain, answer, forkFrom))
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
