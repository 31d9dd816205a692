import { readFileSync } from 'node:fs'
import { STATUS_STREAM_PATH } from '../src/shared/order-status'
import { spawnShop } from '../tests/support/spawn-shop'
import { testAddresses } from '../tests/support/test-addresses'
import { createDevchain } from '../tools/devchain/devchain'

// `npm run bench:status-push`: how soon an open payment page learns what the shop recorded. Each
// page does what the page does (src/web/features/payment/api/status-stream.ts and
// get-order-status.ts) over real HTTP: it holds the order's stream open (server-sent events behind
// the order's secret) and asks the status call when the stream says "ready" or "status", and every
// 15 s besides. The shop (its own process, embedded PGlite, TRON on the devchain) records a change
// (the operator marks the order paid); the time is from that call leaving to the page holding the
// paid answer: record → page, median and worst of BENCH_ROUNDS (20), with 1 and 1,000 pages open
// (BENCH_PAGES=1,1000). Then the shop's resident memory and open connections with the pages open,
// per page, and the status calls the open pages made while they waited (none but the net's).
//   BENCH_PORT (6110), BENCH_CHAIN_PORT (7110)

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const SCENARIOS = (process.env.BENCH_PAGES ?? '1,1000').split(',').filter(Boolean).map(Number)
const PORT = Number(process.env.BENCH_PORT ?? 6110)
const CHAIN_PORT = Number(process.env.BENCH_CHAIN_PORT ?? 7110)
const NET_POLL_MS = 15_000
const PASSWORD = 'status push bench password'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36'

const chain = await createDevchain({ port: CHAIN_PORT, autoMine: true, blockIntervalMs: 3000 })
const biggest = Math.max(...SCENARIOS)
const shop = await spawnShop(
  {
    PORT: String(PORT),
    TRON_API_URL: chain.url,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    SIGHTINGS: 'false',
    CHECKOUT_PENDING_PER_CLIENT: '100000',
    CHECKOUT_PENDING_PER_EMAIL: '100000',
    CHECKOUT_CREATIONS_PER_MINUTE: '100000',
    CHECKOUT_HELD_PER_NETWORK: '100000',
    CHECKOUT_RESERVE_PERCENT: '0',
    STATUS_STREAMS_PER_CLIENT: '100000',
    STATUS_STREAMS_MAX: '100000',
  },
  { startupMs: 300_000 },
)
const base = shop.url
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${shop.pid}/status`, 'utf8'))?.[1]) / 1024
const connections = () => {
  const hex = PORT.toString(16).toUpperCase().padStart(4, '0')
  // Established TCP connections to the shop's port (state 01), from /proc/net/tcp.
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .filter((l) => {
      const cols = l.trim().split(/\s+/)
      return cols[1]?.endsWith(`:${hex}`) && cols[3] === '01'
    }).length
}

async function call(name: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/rpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER, ...headers },
    body: JSON.stringify(body),
  })
  return { res, body: (await res.json()) as Record<string, unknown> }
}

const login = await call('secure_admin_login', { p_username: 'admin', p_password: PASSWORD })
const admin = { cookie: String(login.res.headers.get('set-cookie')).split(';')[0] as string }
const addresses = testAddresses(biggest + 2 * ROUNDS + 50, 'status push bench')
for (let i = 0; i < addresses.length; i += 500) {
  const added = await call('secure_add_wallet_addresses', { p_addresses: addresses.slice(i, i + 500) }, admin)
  if (added.body.success !== true) throw new Error(`adding addresses: ${JSON.stringify(added.body)}`)
}
const products = (await call('fetch_products', {})).body.products as {
  id: number
  price: number
  is_free: boolean
}[]
const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }

async function placeOrder() {
  const { body } = await call('secure_create_order', {
    p_email: 'buyer@example.com',
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
  })
  if (body.success !== true) throw new Error(`order refused: ${JSON.stringify(body)}`)
  return { id: body.order_id as string, secret: body.order_secret as string }
}

let statusCalls = 0

/** One open payment page: its stream, and the status call on each event; onAnswer sees each answer. */
function openPage(order: { id: string; secret: string }, onAnswer: (status: string) => void = () => {}) {
  const abort = new AbortController()
  const ask = async () => {
    statusCalls += 1
    const { body } = await call('secure_get_order_status', {
      p_order_id: order.id,
      p_order_secret: order.secret,
    })
    onAnswer(body.status as string)
  }
  // Pages opened at once would ask in step; a browser's 15 s runs from its own page's last answer.
  let net: NodeJS.Timeout | undefined
  const first = setTimeout(() => {
    net = setInterval(() => void ask().catch(() => {}), NET_POLL_MS)
  }, Math.random() * NET_POLL_MS)
  const loop = (async () => {
    const res = await fetch(`${base}${STATUS_STREAM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      body: JSON.stringify({ p_order_id: order.id, p_order_secret: order.secret }),
      signal: abort.signal,
    })
    if (!res.ok || !res.body) throw new Error(`the stream was refused: ${res.status} ${await res.text()}`)
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = /^event: (\w+)$/m.exec(buffer.slice(0, end))?.[1]
        buffer = buffer.slice(end + 2)
        if (event === 'ready' || event === 'status') void ask().catch(() => {})
      }
    }
  })().catch((err: Error) => {
    if (err.name !== 'AbortError') throw err
  })
  return {
    async close() {
      clearTimeout(first)
      clearInterval(net)
      abort.abort()
      await loop
    },
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const idleRss = rss()
console.log(`shop idle: ${idleRss.toFixed(1)} MB resident, ${connections()} connections`)

for (const pages of SCENARIOS) {
  const background = await Promise.all(Array.from({ length: pages - 1 }, () => placeOrder()))
  // The shop's memory with the orders placed and no page open: what the open pages add is above it.
  const baseRss = rss()
  const open = background.map((o) => openPage(o))
  const times: number[] = []
  const afterAnswer: number[] = []
  let heldRss = 0
  let heldConnections = 0
  const callsBefore = statusCalls
  const startedAt = performance.now()
  for (let round = 0; round < ROUNDS; round++) {
    const order = await placeOrder()
    let paidAt = 0
    let seen = () => {}
    const shown = new Promise<void>((resolve) => {
      seen = resolve
    })
    let held = false
    const page = openPage(order, (status) => {
      if (status === 'paid' && !paidAt) {
        paidAt = performance.now()
        seen()
      }
      held = true
    })
    // The page has its stream open and its first answer.
    while (!held) await new Promise((r) => setTimeout(r, 20))
    await new Promise((r) => setTimeout(r, 300))
    if (round === 0) {
      heldRss = rss()
      heldConnections = connections()
    }
    const recordedAt = performance.now()
    const marked = await call('secure_update_order_status', { p_order_id: order.id, p_status: 'paid' }, admin)
    const answeredAt = performance.now()
    if (marked.body.success !== true) throw new Error(`marking paid: ${JSON.stringify(marked.body)}`)
    await shown
    times.push(paidAt - recordedAt)
    afterAnswer.push(paidAt - answeredAt)
    await page.close()
  }
  const callsPerSecond = ((statusCalls - callsBefore) * 1000) / (performance.now() - startedAt)
  await Promise.all(open.map((p) => p.close()))
  const perPage = pages > 1 ? ((heldRss - baseRss) * 1024) / pages : Number.NaN
  console.log(
    `${String(pages).padStart(5)} open page(s): record → page median ${median(times).toFixed(0)} ms, ` +
      `worst ${Math.max(...times).toFixed(0)} ms (${times.length} rounds; after the operator's call ` +
      `answered: median ${median(afterAnswer).toFixed(0)} ms, worst ${Math.max(...afterAnswer).toFixed(0)} ms); shop ${heldRss.toFixed(1)} MB ` +
      `resident, ${heldConnections} connections` +
      (pages > 1
        ? ` (${perPage.toFixed(1)} KB and ${(heldConnections / pages).toFixed(2)} connection per page)`
        : '') +
      `; the open pages asked the status call ${callsPerSecond.toFixed(1)} times a second`,
  )
}

await shop.stop()
await chain.close()
