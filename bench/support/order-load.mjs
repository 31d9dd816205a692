// The load side of bench:orders, in its own process as real buyers are: CLIENTS keep-alive
// connections place TOTAL orders over HTTP/1.1, back to back; every order comes from its own buyer
// (its own /24 network, as X-Forwarded-For, and e-mail), so the shop's per-buyer limits apply
// as they would. The requests are written as raw bytes on plain sockets so that the buyers cost the
// shared cores as little as possible (the shop's answers carry Content-Length, no chunking).
// Prints one JSON line: latencies (ms) of every creation, failures, elapsed seconds, CPU seconds.
import net from 'node:net'

const [base, clients, total, productsJson, first = '0'] = process.argv.slice(2)
const products = JSON.parse(productsJson)
const CLIENTS = Number(clients)
const TOTAL = Number(total)
/** Buyer numbers start here (the warm-up uses its own buyers). */
const FIRST = Number(first)
const { hostname, port } = new URL(base)

function request(i) {
  const p = products[i % products.length]
  const body = JSON.stringify({
    p_email: `buyer${i}@example.com`,
    p_items: [{ product: { id: p.id }, quantity: 1 }],
    p_total: p.price,
  })
  return (
    `POST /rpc/secure_create_order HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Forwarded-For: 10.${(i >> 8) & 255}.${i & 255}.${(i >> 16) + 1}\r\n\r\n${body}`
  )
}

/** One connection: sends a request, reads exactly one response, resolves with status and body. */
function connection() {
  const socket = net.connect(Number(port), hostname)
  socket.setNoDelay(true)
  let buffer = Buffer.alloc(0)
  let waiting = null
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk
    const head = buffer.indexOf('\r\n\r\n')
    if (head < 0 || !waiting) return
    const headers = buffer.subarray(0, head).toString('latin1')
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0)
    if (buffer.length < head + 4 + length) return
    const body = buffer.subarray(head + 4, head + 4 + length).toString('utf8')
    buffer = buffer.subarray(head + 4 + length)
    const done = waiting
    waiting = null
    done.resolve({ status: Number(headers.slice(9, 12)), body })
  })
  socket.on('error', (error) => waiting?.reject(error))
  return {
    send(text) {
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject }
        socket.write(text)
      })
    },
    close: () => socket.end(),
  }
}

const latencies = []
let failures = 0
let firstFailure
let next = 0
const cpu0 = process.cpuUsage()
const started = performance.now()
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    const conn = connection()
    for (;;) {
      const n = next++
      if (n >= TOTAL) break
      const i = FIRST + n
      const t0 = performance.now()
      const res = await conn.send(request(i))
      latencies.push(performance.now() - t0)
      const ok = res.status === 200 && JSON.parse(res.body).success === true
      if (!ok) {
        failures++
        firstFailure ??= { status: res.status, body: res.body }
      }
    }
    conn.close()
  }),
)
const elapsed = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpu0)
process.stdout.write(
  `${JSON.stringify({ latencies, failures, firstFailure, elapsed, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
)
