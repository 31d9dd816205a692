// The demo's local EVM chain: a real Anvil node (the @foundry-rs/anvil package's binary) with BNB
// Smart Chain's chain id (56) and a USDT and a USDC deployed on it (the test ERC-20 compiled in
// tests/support/evm, 18 decimals as on BNB Smart Chain). The node keeps its chain in
// <data>/anvil-state.json (saved every second) and the token contracts in <data>/evm-tokens.json,
// so the shop's follower finds the same blocks after a restart. `npm run pay` reads both.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createWalletClient, defineChain, getAddress, http, keccak256, publicActions, toHex } from 'viem'

const require = createRequire(import.meta.url)
export const DEMO_EVM_CHAIN_ID = 56
export const DEMO_EVM_DECIMALS = 18
/** Blocks on top before a demo payment is final (BNB Smart Chain's default is 15). */
export const DEMO_EVM_DEPTH = 5

export function readStablecoin() {
  const compiled = JSON.parse(readFileSync(join('tests', 'support', 'evm', 'compiled.json'), 'utf8'))
    .contracts.TestStablecoin
  return { abi: compiled.abi, bytecode: compiled.bytecode }
}

export function anvilBinary() {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil')
}

export function evmClient(url) {
  const chain = defineChain({
    id: DEMO_EVM_CHAIN_ID,
    name: 'Anvil (BNB Smart Chain ids)',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  return createWalletClient({ chain, transport: http(url) }).extend(publicActions)
}

export const tokensFile = (dataDir) => join(dataDir, 'evm-tokens.json')

/** Five receiving addresses for the demo's pool (derived from a phrase: nobody holds their keys). */
export function demoEvmAddresses() {
  return Array.from({ length: 5 }, (_, i) =>
    getAddress(`0x${keccak256(toHex(`stablecart demo evm address ${i}`)).slice(-40)}`),
  )
}

/** The tokens deployed on the node: from an earlier run when the node kept its chain, else new. */
async function demoTokens(client, dataDir) {
  const file = tokensFile(dataDir)
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    const codes = await Promise.all(saved.map((t) => client.getCode({ address: t.contract })))
    if (codes.every((code) => code && code !== '0x')) return saved
  }
  const { abi, bytecode } = readStablecoin()
  const [deployer] = await client.getAddresses()
  const tokens = []
  for (const [name, symbol] of [
    ['Tether USD', 'USDT'],
    ['USD Coin', 'USDC'],
  ]) {
    const hash = await client.deployContract({
      abi,
      bytecode,
      args: [name, symbol, DEMO_EVM_DECIMALS],
      account: deployer,
    })
    const receipt = await client.waitForTransactionReceipt({ hash })
    tokens.push({ symbol, contract: getAddress(receipt.contractAddress), decimals: DEMO_EVM_DECIMALS })
  }
  writeFileSync(file, `${JSON.stringify(tokens, null, 2)}\n`)
  return tokens
}

/**
 * Starts the node (a block a second, its chain saved in dataDir) and the tokens; answers the
 * shop's settings for BNB Smart Chain on it. onExit runs if the node ends.
 */
export async function startDemoAnvil({ port, dataDir, onExit }) {
  const fresh = !existsSync(join(dataDir, 'anvil-state.json'))
  const child = spawn(
    anvilBinary(),
    [
      ...['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(DEMO_EVM_CHAIN_ID)],
      ...['--block-time', '1', '--state', join(dataDir, 'anvil-state.json'), '--state-interval', '1'],
    ],
    { stdio: 'ignore' },
  )
  child.on('exit', (code) => onExit?.(code))
  const url = `http://127.0.0.1:${port}`
  const client = evmClient(url)
  for (let i = 0; ; i++) {
    try {
      await client.getBlockNumber()
      break
    } catch (error) {
      if (i > 100) throw new Error(`Anvil did not start on ${url}: ${error.message}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const tokens = await demoTokens(client, dataDir)
  return {
    url,
    child,
    fresh,
    tokens,
    shopEnv: {
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: url,
      EVM_BSC_PROVIDER_1_NAME: 'anvil',
      EVM_BSC_CONFIRMATIONS: String(DEMO_EVM_DEPTH),
      EVM_BSC_POLL_MS: '1000',
      EVM_BSC_TOKENS: JSON.stringify(tokens),
    },
  }
}
