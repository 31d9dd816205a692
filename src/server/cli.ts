// Operator commands that run against the configured database: `node dist/server/cli.js <command>`.
import { parseWalletAddressLines } from '../shared/wallet-addresses'
import { openDatabase } from './db/client'
import { EnvError, parseEnv } from './env'
import { addKeyStock, parseKeyLines } from './keys/key-stock'
import { loadDotEnv } from './lib/dotenv'
import { addWalletAddresses } from './wallets/wallets.repo'

type Command = (args: string[], ctx: { database: Awaited<ReturnType<typeof openDatabase>> }) => Promise<void>

export const commands: Record<string, Command> = {
  migrate: async () => {
    console.log('Migrations applied.')
  },
  /** npm run wallets:add -- <address>... */
  'wallets:add': async (args, { database }) => {
    const parsed = parseWalletAddressLines(args)
    if (!parsed.ok) throw new Error(parsed.error)
    const added = await addWalletAddresses(database.db, parsed.addresses)
    console.log(`Added ${added} wallet address(es); ${parsed.addresses.length - added} already present.`)
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
    await command(args, { database })
  } finally {
    await database.close()
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : error)
  process.exit(1)
})
