// `npm run pay -- <address> <amount> [USDT|TRX]`: sends a confirmed transfer on the devchain that
// `npm run demo` (or `npm run devchain`) started. DEVCHAIN_URL overrides http://127.0.0.1:9090.
const [address, amount, token = 'USDT'] = process.argv.slice(2)
const base = process.env.DEVCHAIN_URL ?? `http://127.0.0.1:${process.env.DEVCHAIN_PORT ?? '9090'}`

if (!address || !amount || !['USDT', 'TRX'].includes(token.toUpperCase())) {
  console.error('usage: npm run pay -- <wallet address> <amount> [USDT|TRX]')
  process.exit(2)
}

try {
  const response = await fetch(`${base}/_sim/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: address, amount, token: token.toUpperCase() }),
  })
  const body = await response.json()
  if (!response.ok) {
    console.error(`devchain refused the transfer: ${body.error ?? JSON.stringify(body)}`)
    process.exit(1)
  }
  console.log(`sent ${amount} ${token.toUpperCase()} to ${address}\ntransaction ${body.transaction_id}`)
} catch (error) {
  console.error(`cannot reach the devchain at ${base} (is npm run demo running?): ${error.message}`)
  process.exit(1)
}
