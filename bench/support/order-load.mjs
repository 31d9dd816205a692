// The load side of bench:orders, in its own process as real buyers are: CLIENTS connections place
// TOTAL orders over HTTP, back to back; every order comes from its own buyer (its own network
// address, as X-Forwarded-For, and e-mail), so the shop's per-buyer limits apply as they would.
// Prints one JSON line: latencies (ms) of every creation, failures, elapsed seconds, CPU seconds.
import http from 'node:http'

const [base, clients, total, productsJson] = process.argv.slice(2)
const products = JSON.parse(productsJson)
const CLIENTS = Number(clients)
const TOTAL = Number(total)
const { hostname, port } = new URL(base)
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS })

function post(path, body, headers) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body))
    const req = http.request(
      {
        agent,
        hostname,
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()) })
          } catch (error) {
            reject(error)
          }
        })
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const latencies = []
let failures = 0
let firstFailure
let next = 0
const cpu0 = process.cpuUsage()
const started = performance.now()
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    for (;;) {
      const i = next++
      if (i >= TOTAL) return
      const p = products[i % products.length]
      const t0 = performance.now()
      const res = await post(
        '/rpc/secure_create_order',
        {
          p_email: `buyer${i}@example.com`,
          p_items: [{ product: { id: p.id }, quantity: 1 }],
          p_total: p.price,
        },
        { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      )
      latencies.push(performance.now() - t0)
      if (res.status !== 200 || res.body.success !== true) {
        failures++
        firstFailure ??= res.body
      }
    }
  }),
)
const elapsed = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpu0)
agent.destroy()
process.stdout.write(
  `${JSON.stringify({ latencies, failures, firstFailure, elapsed, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
)
