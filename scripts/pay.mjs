// `npm run pay -- <address> <amount> [USDT|TRX]`: sends a transfer on the devchain that `npm run demo`
// (or `npm run devchain`) started, then mines blocks until its block is solidified, so the shop sees a
// confirmed payment at once instead of after the ~1 minute the chain's clock would take.
// DEVCHAIN_URL overrides http://127.0.0.1:9090.
// Each payment comes from a fresh sender, as real buyers pay from their own wallets: the shop holds
// for review a transfer from a wallet that paid an earlier order at the same address (decision 020),
// and the demo's few addresses are reused often.
// A 0x… address pays on the demo's EVM node instead: `npm run pay -- <0x… address> <amount> [USDT|USDC]`
// (scripts/lib/pay-evm.mjs). A Solana address pays on the Solana stand-in: `npm run pay -- <address> <amount> [USDT|USDC]`.
import { createHash, randomBytes } from 'node:crypto'
import { payEvm } from './lib/pay-evm.mjs'

const [address, amount, token = 'USDT'] = process.argv.slice(2)
if (address?.startsWith('0x') && amount) {
  await payEvm(address, amount, token.toUpperCase())
  process.exit(0)
}
// A Solana address (base58 of 32 bytes, not a T… TRON address): pay on the Solana stand-in
// (`npm run solana-standin`, SOLANA_STANDIN_URL overrides http://127.0.0.1:8899), which runs the
// slots on until the transfer is finalized.
if (
  address &&
  amount &&
  /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) &&
  !(address.length === 34 && address.startsWith('T'))
) {
  const url = process.env.SOLANA_STANDIN_URL ?? 'http://127.0.0.1:8899'
  const response = await fetch(`${url}/control/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: address, amount, token: token.toUpperCase() }),
  })
  const json = await response.json()
  if (!response.ok) {
    console.error(`the Solana stand-in refused: ${json.error ?? JSON.stringify(json)}`)
    process.exit(1)
  }
  console.log(`paid ${amount} ${token.toUpperCase()} on Solana to ${address}: ${json.signature} (finalized)`)
  process.exit(0)
}
const base = process.env.DEVCHAIN_URL ?? `http://127.0.0.1:${process.env.DEVCHAIN_PORT ?? '9090'}`

if (!address || !amount || !['USDT', 'TRX'].includes(token.toUpperCase())) {
  console.error(
    'usage: npm run pay -- <wallet address> <amount> [USDT|TRX]   (or <0x… address> <amount> [USDT|USDC])',
  )
  process.exit(2)
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const sha256 = (bytes) => createHash('sha256').update(bytes).digest()

function freshSender() {
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)])
  const bytes = Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)])
  let n = BigInt(`0x${bytes.toString('hex')}`)
  let text = ''
  while (n > 0n) {
    text = ALPHABET[Number(n % 58n)] + text
    n /= 58n
  }
  return text
}

async function call(path, body) {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await response.json()
  if (!response.ok) {
    console.error(`devchain refused ${path}: ${json.error ?? JSON.stringify(json)}`)
    process.exit(1)
  }
  return json
}

try {
  const sent = await call('/_sim/transfers', {
    to: address,
    from: freshSender(),
    amount,
    token: token.toUpperCase(),
  })
  const state = await call('/_sim/state')
  const missing = sent.block_number + state.solidify_lag - state.head_block
  const heights = missing > 0 ? await call('/_sim/mine', { blocks: missing }) : null
  console.log(
    `sent ${amount} ${token.toUpperCase()} to ${address}\n` +
      `transaction ${sent.transaction_id} in block ${sent.block_number}` +
      (heights ? `, solidified (mined ${missing} blocks, solid head ${heights.solid})` : ''),
  )
} catch (error) {
  console.error(`cannot reach the devchain at ${base} (is npm run demo running?): ${error.message}`)
  process.exit(1)
}
