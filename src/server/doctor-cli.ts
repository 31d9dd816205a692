// npm run doctor [-- --no-mail] [--json]   (in the container: doctor)
// The production self-check (decision 057): prints each finding with its fix and exits 1 when one
// would lose a sale or money, so it can gate a deploy. While the shop runs, the running shop answers
// (POST /api/doctor with the token in its data folder: the embedded database is open in one process
// only); otherwise this process opens the database itself. With SMTP_URL set, a test mail goes to the
// operator's address unless --no-mail.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SetupReport } from '../shared/setup-check'
import { commandChains } from './chains/families'
import { openDatabase } from './db/client'
import { type Env, EnvError, parseEnv } from './env'
import { loadDotEnv } from './lib/dotenv'
import { pgliteDir } from './ops/backup'
import { formatSetupReport } from './ops/doctor-text'
import { doctorTokenFile, reportWithTestMail } from './ops/setup.routes'

/** The running shop's report, or null when no shop of this data folder answers. */
async function askRunningShop(env: Env, sendTestMail: boolean): Promise<SetupReport | null> {
  const file = doctorTokenFile(env.DATA_DIR)
  if (!existsSync(file)) return null
  const token = readFileSync(file, 'utf8').trim()
  try {
    const res = await fetch(`http://127.0.0.1:${env.PORT}/api/doctor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-doctor-token': token },
      body: JSON.stringify({ sendTestMail }),
      signal: AbortSignal.timeout(60_000),
    })
    return res.ok ? ((await res.json()) as SetupReport) : null
  } catch {
    return null
  }
}

async function reportHere(env: Env, sendTestMail: boolean): Promise<SetupReport> {
  // The embedded database open in the shop must not be opened a second time.
  if (!env.DATABASE_URL && existsSync(join(pgliteDir({ dataDir: env.DATA_DIR }), 'postmaster.pid'))) {
    throw new Error(
      `The embedded database in ${env.DATA_DIR} is open (the shop runs?) but no shop answered on 127.0.0.1:${env.PORT} with this data folder's token. Run doctor where the shop runs, with its PORT and DATA_DIR.`,
    )
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    const chains = await commandChains(env)
    return await reportWithTestMail({ db: database.db, env, chains }, sendTestMail)
  } finally {
    await database.close()
  }
}

async function run(): Promise<void> {
  const args = process.argv.slice(2)
  const unknown = args.filter((a) => a !== '--no-mail' && a !== '--json')
  if (unknown.length > 0)
    throw new EnvError(`Usage: doctor [--no-mail] [--json] (unknown: ${unknown.join(' ')})`)
  loadDotEnv()
  const env = parseEnv()
  const sendTestMail = !args.includes('--no-mail')
  const fromShop = await askRunningShop(env, sendTestMail)
  const report = fromShop ?? (await reportHere(env, sendTestMail))
  if (args.includes('--json')) {
    console.log(JSON.stringify(report, null, 2))
  } else {
    console.log(
      `Stablecart self-check (${fromShop ? 'asked the running shop' : 'shop not running: checked here'})\n`,
    )
    console.log(formatSetupReport(report.checks))
    console.log(
      report.failing
        ? '\nSomething above would lose a sale or money (FAIL): fix it before taking payments.'
        : '\nNothing would lose a sale or money now.',
    )
  }
  process.exitCode = report.failing ? 1 : 0
}

run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(2)
})
