// Operator commands that run against the configured database: `node dist/server/cli.js <command>`.
import { openDatabase } from './db/client'
import { EnvError, parseEnv } from './env'

type Command = (args: string[], ctx: { database: Awaited<ReturnType<typeof openDatabase>> }) => Promise<void>

export const commands: Record<string, Command> = {
  migrate: async () => {
    console.log('Migrations applied.')
  },
}

async function run(): Promise<void> {
  const [name, ...args] = process.argv.slice(2)
  const command = name ? commands[name] : undefined
  if (!command) {
    console.error(`Usage: cli <${Object.keys(commands).join('|')}> [args]`)
    process.exit(2)
  }
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
