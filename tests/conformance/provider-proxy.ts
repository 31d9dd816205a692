import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A provider that misbehaves, whatever the chain speaks: a real HTTP server on 127.0.0.1 that
// forwards every request to a node and answers what the node answered, unless told otherwise:
//   refuse  every request is answered 503 (a provider that is down);
//   freeze  a request asked before is answered as it was then (a provider that lags: its head, its
//           listings and its blocks stay where they were; what it never saw still comes through);
//   tamper  the node's answer goes through a function first (a provider that lies);
//   hold    requests wait, unanswered, until the mode changes (a reader frozen mid-read).
// JSON-RPC ids are left out of what "the same request" means, and the answer carries the new id.

// biome-ignore lint/suspicious/noExplicitAny: the answers of any chain's API are arbitrary JSON.
export type Json = any

/** Rewrites one answer: the request's path and JSON body, the node's JSON answer; null leaves it. */
export type Tamper = (path: string, request: Json, answer: Json) => Json | null

export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'refuse' }
  | { kind: 'freeze' }
  | { kind: 'tamper'; tamper: Tamper }
  | { kind: 'hold' }

export interface ProviderProxy {
  url: string
  set(mode: ProxyMode): void
  /** Requests answered in each mode since start. */
  readonly asked: { total: number; refused: number; frozen: number; tampered: number; held: number }
  close(): Promise<void>
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parse(text: string): Json {
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return text
  }
}

const withoutId = (body: Json): Json =>
  Array.isArray(body)
    ? body.map(withoutId)
    : body && typeof body === 'object' && 'jsonrpc' in body
      ? { ...body, id: null }
      : body

function withIdsOf(request: Json, answer: Json): Json {
  if (Array.isArray(request) && Array.isArray(answer)) return answer.map((a, i) => withIdsOf(request[i], a))
  if (request && typeof request === 'object' && answer && typeof answer === 'object' && 'jsonrpc' in answer)
    return { ...answer, id: request.id }
  return answer
}

/** Starts a proxy in front of `upstream` (a base URL), passing everything through. */
export async function startProviderProxy(upstream: string): Promise<ProviderProxy> {
  let mode: ProxyMode = { kind: 'pass' }
  const seen = new Map<string, { status: number; body: Json }>()
  const asked = { total: 0, refused: 0, frozen: 0, tampered: 0, held: 0 }
  let release: (() => void)[] = []
  const base = upstream.replace(/\/+$/, '')
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await read(req)
      const path = req.url ?? '/'
      const request = parse(text)
      const key = `${req.method} ${path} ${JSON.stringify(withoutId(request))}`
      asked.total += 1
      if (mode.kind === 'hold') {
        asked.held += 1
        await new Promise<void>((resolve) => release.push(resolve))
      }
      const reply = (status: number, body: Json) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(typeof body === 'string' ? body : JSON.stringify(body))
      }
      if (mode.kind === 'refuse') {
        asked.refused += 1
        return reply(503, { error: 'Service unavailable' })
      }
      const old = seen.get(key)
      if (mode.kind === 'freeze' && old) {
        asked.frozen += 1
        return reply(old.status, withIdsOf(request, old.body))
      }
      const upstreamRes = await fetch(`${base}${path.startsWith('/') ? path : `/${path}`}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : text,
      })
      let body = parse(await upstreamRes.text())
      if (!seen.has(key) || mode.kind !== 'freeze') seen.set(key, { status: upstreamRes.status, body })
      if (mode.kind === 'tamper') {
        const changed = mode.tamper(path, request, body)
        if (changed !== null) {
          asked.tampered += 1
          body = changed
        }
      }
      reply(upstreamRes.status, body)
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: `proxy: ${(err as Error).message}` }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    set: (m) => {
      mode = m
      const waiting = release
      release = []
      for (const go of waiting) go()
    },
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of release) go()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A tamper for JSON-RPC (single calls and batches): `fix` sees each call with its answer. */
export function rpcTamper(
  fix: (call: { method: string; params: Json[] }, answer: Json) => Json | null,
): Tamper {
  return (_path, request, answer) => {
    if (Array.isArray(request) && Array.isArray(answer)) {
      const out = answer.map((a, i) => fix(request[i], a) ?? a)
      return out.some((a, i) => a !== answer[i]) ? out : null
    }
    return request && typeof request === 'object' && 'method' in request ? fix(request, answer) : null
  }
}
