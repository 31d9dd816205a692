import { createDevchain } from './devchain'

// `npm run devchain`: the simulator on its own, for demos and for pointing a local shop at it with
// TRON_API_URL=http://127.0.0.1:9090. USDT_CONTRACT is honoured so both sides agree on the genuine token.

const rawPort = process.env.DEVCHAIN_PORT ?? '9090'
const port = Number(rawPort)
if (!/^\d+$/.test(rawPort) || port > 65535) {
  console.error(`DEVCHAIN_PORT must be a port number, got ${JSON.stringify(rawPort)}`)
  process.exit(1)
}

const devchain = await createDevchain({
  port,
  host: '127.0.0.1',
  usdtContract: process.env.USDT_CONTRACT?.trim() || undefined,
})

console.log(`devchain listening on ${devchain.url} (USDT contract ${devchain.usdtContract})`)
console.log(
  `  send 12.5 USDT: curl -s ${devchain.url}/_sim/transfers -H 'content-type: application/json' ` +
    `-d '{"to":"TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH","amount":"12.5"}'`,
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
