// Operator commands that run against the configured database: `node dist/server/cli.js <command>`.
import { readFile } from 'node:fs/promises'
import { type ChainId, chainIds, firstChain } from '../shared/chains'
import { chainIdSchema } from '../shared/network-schemas'
import { chainNames } from '../shared/networks'
import { parseWalletAddressLines } from '../shared/wallet-addresses'
import { resetTwoFactor } from './admin/two-factor'
import { commandChains } from './chains/families'
import { readChainAgainFrom } from './chains/follower-lease'
import { openDatabase } from './db/client'
import { EnvError, parseEnv } from './env'
import { addKeyStock, parseKeyLines } from './keys/key-stock'
import { loadDotEnv } from './lib/dotenv'
import { formatReport, reconcile } from './payments/reconcile'
import { addWalletAddresses } from './wallets/wallets.repo'

type Command = (
  args: string[],
  ctx: { database: Awaited<ReturnType<typeof openDatabase>>; env: ReturnType<typeof parseEnv> },
) => Promise<void>

const DAY_MS = 86_400_000

/** --from / --to as ISO dates or times; default the last 30 days. */
function periodOf(args: string[]): { fromMs: number; toMs: number; rest: string[] } {
  let fromMs = Date.now() - 30 * DAY_MS
  let toMs = Date.now() + 1
  const rest: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--from' || arg === '--to') {
      const value = Date.parse(args[i + 1] ?? '')
      if (!Number.isFinite(value)) throw new Error(`${arg} needs a date such as 2026-11-01`)
      if (arg === '--from') fromMs = value
      else toMs = value
      i++
    } else rest.push(arg)
  }
  if (toMs <= fromMs) throw new Error('--to must be after --from')
  return { fromMs, toMs, rest }
}

/** --chain <id> (default the first chain, TRON). */
function chainOf(args: string[]): { chain: ChainId; rest: string[] } {
  const at = args.indexOf('--chain')
  if (at === -1) return { chain: firstChain, rest: args }
  const value = args[at + 1] ?? ''
  const parsed = chainIdSchema.safeParse(value)
  if (!parsed.success) throw new Error(`--chain needs one of ${chainIds.join(', ')}`)
  return { chain: parsed.data, rest: [...args.slice(0, at), ...args.slice(at + 2)] }
}

export const commands: Record<string, Command> = {
  migrate: async () => {
    console.log('Migrations applied.')
  },
  /**
   * npm run wallets:add -- <address>...        (a few addresses)
   * npm run wallets:add -- --file <path>       (one address per line; any number)
   * npm run wallets:add < addresses.txt        (standard input; also with "-")
   */
  'wallets:add': async (args, { database }) => {
    const parsed = parseWalletAddressLines(await walletAddressInput(args))
    if (!parsed.ok) throw new Error(parsed.error)
    let added = 0
    // Batches keep each statement well under the database's parameter limit.
    for (let i = 0; i < parsed.entries.length; i += WALLET_BATCH) {
      added += await addWalletAddresses(database.db, parsed.entries.slice(i, i + WALLET_BATCH))
    }
    console.log(`Added ${added} wallet address(es); ${parsed.addresses.length - added} already present.`)
  },
  /**
   * npm run reconcile -- [--chain bsc] [--from 2026-11-01] [--to 2026-11-23] [--ledger-only] [address...]
   * One chain a run (default tron). Exits 1 when the figures do not tie out.
   */
  reconcile: async (args, { database, env }) => {
    const { fromMs, toMs, rest } = periodOf(args)
    const { chain, rest: left } = chainOf(rest)
    const ledgerOnly = left.includes('--ledger-only')
    const chains = await commandChains(env, (name, provider, reason) =>
      console.error(`${name}: ${provider} set aside: ${reason}`),
    )
    const adapter = chains.get(chain)
    if (!adapter) {
      const enabled = chains.enabled().map((c) => c.chain)
      throw new Error(`--chain ${chain} is not enabled in this shop (enabled: ${enabled.join(', ')})`)
    }
    const addresses = left
      .filter((a) => !a.startsWith('--'))
      .map((a) => {
        const address = adapter.normalizeAddress(a)
        if (!address) throw new Error(`${a} is not a ${chainNames[chain]} address`)
        return address
      })
    const report = await reconcile(database.db, {
      fromMs,
      toMs,
      chain,
      adapter: ledgerOnly ? undefined : adapter,
      addresses: addresses.length > 0 ? addresses : undefined,
    })
    console.log(formatReport(report))
    if (!report.ties) process.exitCode = 1
  },
  /** npm run admin:reset-2fa [-- <username>]: a lost authenticator; the password still applies. */
  'admin:reset-2fa': async (args, { database }) => {
    const reset = await resetTwoFactor(database.db, args[0])
    if (args[0] && reset === 0) throw new Error(`No admin named ${args[0]}`)
    console.log(
      `Two-factor login switched off for ${reset} admin account(s); set it up again on the Security tab.`,
    )
  },
  /**
   * npm run follower:reset -- <chain> <block>, the shop stopped: after a chain's follower stopped at
   * a reorganisation deeper than its depth (decision 042), the chain is read again from <block>.
   */
  'follower:reset': async (args, { database }) => {
    const usage =
      'Usage: follower:reset <chain> <block> (chain: tron, ethereum, bsc, polygon, arbitrum, base)'
    const chain = chainIdSchema.safeParse(args[0])
    const block = Number(args[1])
    if (!chain.success || !/^\d+$/.test(args[1] ?? '') || !Number.isSafeInteger(block) || block < 1)
      throw new Error(usage)
    if (!(await readChainAgainFrom(database.db, chain.data, block)))
      throw new Error(`The shop has not followed ${chain.data} yet: nothing to reset`)
    console.log(`${chain.data} is read again from block ${block} when the shop starts.`)
  },
  /** npm run keys:add -- <productId> < keys.txt (one key per line) */
  'keys:add': async (args, { database }) => {
    const productId = Number(args[0])
    if (!Number.isSafeInteger(productId) || productId <= 0)
      throw new Error('Usage: keys:add <productId> < keys.txt')
    const keys = parseKeyLines(await readStdin())
    if (keys.length === 0) throw new Error('No keys on standard input (one key per line)')
    const added = await addKeyStock(database.db, productId, keys)
    console.log(`Added ${added} key(s) to product ${productId}; ${keys.length - added} already known.`)
  },
}

const WALLET_BATCH = 1000

/** The addresses of wallets:add: arguments, files named by --file, and standard input ("-" or no arguments). */
async function walletAddressInput(args: string[]): Promise<string[]> {
  const lines: string[] = []
  let stdin = args.length === 0
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--file' || arg === '-f') {
      const path = args[++i]
      if (!path) throw new Error('--file needs a path: wallets:add --file addresses.txt')
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new Error(`Cannot read ${path}: ${error.code ?? error.message}`)
      })
      lines.push(...text.split(/\r?\n/))
    } else if (arg === '-') {
      stdin = true
    } else {
      lines.push(arg)
    }
  }
  if (stdin) {
    if (process.stdin.isTTY && args.length === 0) {
      throw new Error(
        'Usage: wallets:add <address>... | wallets:add --file addresses.txt | wallets:add < addresses.txt',
      )
    }
    lines.push(...(await readStdin()).split(/\r?\n/))
  }
  return lines
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function run(): Promise<void> {
  const [name, ...args] = process.argv.slice(2)
  const command = name ? commands[name] : undefined
  if (!command) {
    console.error(`Usage: cli <${Object.keys(commands).join('|')}> [args]`)
    process.exit(2)
  }
  // .env in the working directory fills in what the real environment leaves unset.
  loadDotEnv()
  const env = parseEnv()
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    await command(args, { database, env })
  } finally {
    await database.close()
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : error)
  process.exit(1)
})
