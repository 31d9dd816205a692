import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ChainControl } from './chain-control'
import { handleControl } from './control-api'
import { handleExplorer } from './explorer-api'
import { countRequest, emptyStats, type Face, faceOf, newFace, statsView } from './faces'
import { injectFault } from './faults'
import { HttpError, send } from './http-io'
import { SimInputError } from './sim-chain'
import type { Devchain, DevchainFace, DevchainOptions } from './types'

// A TronGrid-compatible simulator over real HTTP. A block chain produced on a clock (or by mine() in
// tests): full-node (/wallet/*) and solidity-node (/walletsolidity/*) endpoints, the v1 account lists
// and a price feed answer with the real JSON shapes; /_sim/* is the control API for tests and demos.
//
// The parts: chain-control.ts (the chain and what is done to it), control-api.ts (/_sim/*),
// explorer-api.ts with node-api.ts and list-queries.ts (what the shop calls), faces.ts and
// faults.ts (each listener's faults and stats), http-io.ts, control-schemas.ts, types.ts.

export type * from './types'

/** A bad control request (invalid address, amount, field…); answered over HTTP as 400. */
export { SimInputError as DevchainInputError }

async function handle(control: ChainControl, face: Face, req: IncomingMessage, res: ServerResponse) {
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
  if (path.startsWith('/_sim/')) return handleControl(control, req, res, path)
  countRequest(face, req, res, path)
  if (injectFault(res, path, face)) return
  return handleExplorer(control, req, res, url, path)
}

/** An HTTP listener for one face of the chain. */
function listen(control: ChainControl, host: string, port: number, face: Face): Promise<Server> {
  const created = createServer((req, res) => {
    faceOf.set(res, face)
    handle(control, face, req, res).catch((err: unknown) => {
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

/** Closes a face's listener, and every response its "timeout" fault holds open. */
function stopServer(face: Face): Promise<void> {
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

/** Opens (again) a face's listener on its port, unless the devchain is closed or it is open. */
async function startServer(control: ChainControl, host: string, port: number, face: Face) {
  if (control.closed) throw new Error('the devchain is closed')
  if (!face.server) face.server = await listen(control, host, port, face)
}

export async function createDevchain(opts: DevchainOptions = {}): Promise<Devchain> {
  const control = new ChainControl(opts)
  const { main } = control
  const host = opts.host ?? '127.0.0.1'
  main.server = await listen(control, host, opts.port ?? 0, main)
  const address = main.server.address() as AddressInfo
  const port = address.port
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  control.scheduleTick()

  async function addFace(): Promise<DevchainFace> {
    if (control.closed) throw new Error('the devchain is closed')
    const face = newFace()
    face.server = await listen(control, host, 0, face)
    control.faces.push(face)
    const facePort = (face.server.address() as AddressInfo).port
    return {
      url: `http://${urlHost}:${facePort}`,
      port: facePort,
      setFault: (mode, count, path, suspendSeconds) =>
        control.setFault(mode, count, path, suspendSeconds, face),
      stats: () => statsView(face),
      resetStats: () => {
        face.stats = emptyStats()
      },
      stop: () => stopServer(face),
      start: () => startServer(control, host, facePort, face),
      fork(fromBlock) {
        face.forkFrom = fromBlock
      },
    }
  }

  return {
    url: `http://${urlHost}:${port}`,
    port,
    usdtContract: control.usdtContract,
    transfer: (request) => control.transfer(request),
    mine: (blocks) => control.mine(blocks),
    solidify: () => control.solidify(),
    drop: (txid) => control.drop(txid),
    heights: () => control.heights(),
    setFault: (mode, count, path, suspendSeconds) => control.setFault(mode, count, path, suspendSeconds),
    setPrice: (usd) => control.setPrice(usd),
    reset: () => control.reset(),
    stats: () => statsView(main),
    resetStats: () => {
      main.stats = emptyStats()
    },
    addFace,
    stop: () => stopServer(main),
    start: () => startServer(control, host, port, main),
    async close() {
      control.stopClock()
      await Promise.all(control.faces.map((face) => stopServer(face)))
    },
  }
}
