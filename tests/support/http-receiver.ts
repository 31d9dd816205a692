import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

export interface Received {
  headers: IncomingMessage['headers']
  body: string
  url: string
}

/**
 * A real HTTP server on 127.0.0.1 that records every request; `respond` decides each answer
 * (default 200 "ok"). The one local stand-in for an HTTP service in server tests: a webhook receiver, the Telegram Bot API,
 * an explorer that is down or answers a tampered body (the devchain stands in for a working one).
 */
export async function startReceiver(
  respond: (req: Received, res: ServerResponse, index: number) => void = (_r, res) => res.end('ok'),
): Promise<{ url: string; port: number; received: Received[]; server: Server; close(): Promise<void> }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' }
      received.push(entry)
      respond(entry, res, received.length - 1)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
