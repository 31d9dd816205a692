import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createTestClient, defineChain, http, publicActions, walletActions } from 'viem'
import { freePort, waitFor } from '../wait'

// A real Anvil node (the @foundry-rs/anvil package's platform binary, spawned directly so a kill
// reaches the node itself) on a free loopback port, with the chain id and mining the test asks
// for. ANVIL_PORTS_FROM=<port> keeps nodes within ten ports from there (a shared machine's range).

const require = createRequire(import.meta.url)

/** The binary the @foundry-rs/anvil package installs for this platform. */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil')
}

export interface AnvilOptions {
  chainId?: number
  /** Seconds between blocks; without it (and without noMining) each transaction mines a block. */
  blockTime?: number
  /** Blocks only when the test mines them (anvil_mine / evm_mine). */
  noMining?: boolean
}

export interface Anvil {
  url: string
  port: number
  chainId: number
  /** viem's test, public and wallet actions on this node (anvil_mine, anvil_reorg, evm_snapshot, …). */
  client: ReturnType<typeof anvilClient>
  /** Ends the node with SIGKILL and waits for it to exit. */
  stop(): Promise<void>
  output(): string
}

function anvilClient(url: string, chainId: number) {
  const chain = defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  // cacheTime 0: a test that mines and then asks the head must get the new head, not viem's
  // answer from up to one polling interval ago (a fast machine read a head three blocks old).
  return createTestClient({ mode: 'anvil', chain, transport: http(url), pollingInterval: 50, cacheTime: 0 })
    .extend(publicActions)
    .extend(walletActions)
}

async function candidatePorts(): Promise<number[]> {
  const from = Number(process.env.ANVIL_PORTS_FROM)
  if (!Number.isInteger(from) || from <= 0) return [await freePort(), await freePort(), await freePort()]
  // Start at a random place in the range so two test files starting together rarely collide.
  const offset = Math.floor(Math.random() * 10)
  return Array.from({ length: 10 }, (_, i) => from + ((offset + i) % 10))
}

async function tryStart(port: number, opts: AnvilOptions, chainId: number): Promise<Anvil | null> {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)]
  if (opts.noMining) args.push('--no-mining')
  else if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime))
  let output = ''
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `http://127.0.0.1:${port}`
  const listening = await waitFor(
    `anvil on :${port}`,
    () => {
      if (child.exitCode !== null) return 'exited'
      return /Listening on/.test(output) ? 'listening' : null
    },
    30_000,
  ).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  if (listening === 'exited') return null
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
  }
  return { url, port, chainId, client: anvilClient(url, chainId), stop, output: () => output }
}

export async function spawnAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  const chainId = opts.chainId ?? 31337
  for (const port of await candidatePorts()) {
    const anvil = await tryStart(port, opts, chainId)
    if (anvil) return anvil
  }
  throw new Error('no free port for anvil')
}
