import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// A real local HTTP server standing in for the shop's /rpc endpoint in browser-side tests: the
// page's own RPC client reaches it (happy-dom's URL is set to it), and it records every call.

export interface RpcCall {
  name: string
  body: Record<string, unknown>
  /** When it arrived (ms). */
  at: number
}

export interface RpcServer {
  /** Every call received, oldest first. */
  calls: RpcCall[]
  /** The calls to one RPC. */
  callsTo: (name: string) => Record<string, unknown>[]
  /** What the server answers to `name` from now on (default `{ success: true }`, status 200). */
  reply: (name: string, answer: unknown, status?: number) => void
  /** Calls to `name` from now on lose their connection (the browser sees a network error). */
  drop: (name: string) => void
  close: () => Promise<void>
}

/** Starts the server and points happy-dom's window at `path` on it. */
export async function startRpcServer(path: string): Promise<RpcServer> {
  const calls: RpcCall[] = []
  const answers = new Map<string, { answer: unknown; status: number }>()
  const dropped = new Set<string>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const name = String(req.url).replace('/rpc/', '')
      calls.push({ name, body: JSON.parse(body || '{}'), at: Date.now() })
      if (dropped.has(name)) return void req.socket.destroy()
      const { answer, status } = answers.get(name) ?? { answer: { success: true }, status: 200 }
      res.statusCode = status
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `http://127.0.0.1:${port}${path}`,
  )
  return {
    calls,
    callsTo: (name) => calls.filter((c) => c.name === name).map((c) => c.body),
    reply: (name, answer, status = 200) => {
      dropped.delete(name)
      answers.set(name, { answer, status })
    },
    drop: (name) => dropped.add(name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
