// The load side of bench:licences, in its own process as the seller's apps are: CLIENTS keep-alive
// connections send TOTAL form-encoded POST /v1/licenses/validate calls (each with a key and its
// instance, round robin), written as raw bytes on plain sockets so the load costs the shared cores
// little. Prints one JSON line: latencies (ms), failures, elapsed seconds, CPU seconds.
import net from 'node:net'

const [base, clients, total, licencesJson] = process.argv.slice(2)
const licences = JSON.parse(licencesJson)
const CLIENTS = Number(clients)
const TOTAL = Number(total)
const { hostname, port } = new URL(base)

function request(i) {
  const { key, instance } = licences[i % licences.length]
  const body = new URLSearchParams({ license_key: key, instance_id: instance }).toString()
  return (
    `POST /v1/licenses/validate HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )
}

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
      const t0 = performance.now()
      const res = await conn.send(request(n))
      latencies.push(performance.now() - t0)
      if (res.status !== 200 || JSON.parse(res.body).valid !== true) {
        failures++
        firstFailure ??= { status: res.status, body: res.body.slice(0, 300) }
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
