import { createDevchain } from './devchain'

// `npm run devchain`: the simulator on its own, for demos and for pointing a local shop at it with
// TRON_API_URL=http://127.0.0.1:9090. USDT_CONTRACT is honoured so both sides agree on the genuine token.

const rawPort = process.env.DEVCHAIN_PORT ?? '9090'
const port = Number(rawPort)
if (!/^\d+$/.test(rawPort) || port > 65535) {
  console.error(`DEVCHAIN_PORT must be a port number, got ${JSON.stringify(rawPort)}`)
  process.exit(1)
}

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min) {
    console.error(`${name} must be an integer of at least ${min}, got ${JSON.stringify(raw)}`)
    process.exit(1)
  }
  return value
}

const blockIntervalMs = intEnv('DEVCHAIN_BLOCK_MS', 3000, 1)
const solidifyLag = intEnv('DEVCHAIN_SOLIDIFY_LAG', 19, 0)
const noisePerBlock = intEnv('DEVCHAIN_NOISE', 0, 0)
const rawAutoMine = process.env.DEVCHAIN_AUTO_MINE?.trim().toLowerCase() || 'true'
if (!['true', 'false', '1', '0'].includes(rawAutoMine)) {
  console.error(`DEVCHAIN_AUTO_MINE must be true or false, got ${JSON.stringify(rawAutoMine)}`)
  process.exit(1)
}
const autoMine = rawAutoMine === 'true' || rawAutoMine === '1'

const devchain = await createDevchain({
  port,
  // 0.0.0.0 lets a shop in a container reach it (scripts/container-test.mjs).
  host: process.env.DEVCHAIN_HOST?.trim() || '127.0.0.1',
  usdtContract: process.env.USDT_CONTRACT?.trim() || undefined,
  blockIntervalMs,
  solidifyLag,
  noisePerBlock,
  autoMine,
})

console.log(`devchain listening on ${devchain.url} (USDT contract ${devchain.usdtContract})`)
console.log(
  `  ${autoMine ? `a block every ${blockIntervalMs} ms` : 'blocks only when mined'}, solidified ${solidifyLag} blocks behind the head, ` +
    `${noisePerBlock} unrelated transfers per block`,
)
console.log(
  `  send 12.5 USDT: curl -s ${devchain.url}/_sim/transfers -H 'content-type: application/json' ` +
    `-d '{"to":"TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH","amount":"12.5"}'`,
)
console.log(
  `  solidify it now: curl -s ${devchain.url}/_sim/mine -H 'content-type: application/json' ` +
    `-d '{"blocks":${solidifyLag + 1}}'`,
)

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) process.exit(1)
    closing = true
    devchain.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
}
