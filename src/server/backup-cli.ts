// npm run backup -- [file] [--force]   /   npm run restore -- <file> [--force]
import { EnvError, parseEnv } from './env'
import { loadDotEnv } from './lib/dotenv'
import { BackupError, backupDatabase, defaultBackupFile, engineOf, restoreDatabase } from './ops/backup'

async function run(): Promise<void> {
  // Only a finished command exits 0: a promise that never settles must not look like success.
  process.exitCode = 1
  const [command, ...rest] = process.argv.slice(2)
  const force = rest.includes('--force')
  const [file] = rest.filter((a) => a !== '--force')
  loadDotEnv()
  const env = parseEnv()
  const target = { databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }
  if (command === 'backup') {
    const out = file ?? defaultBackupFile(engineOf(target), new Date(), env.BACKUP_DIR)
    const engine = await backupDatabase(target, out, { force })
    console.log(
      `Backup of the ${engine === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} database written to ${out}`,
    )
  } else if (command === 'restore') {
    if (!file) throw new BackupError('Usage: npm run restore -- <backup file> [--force]')
    const { engine, keptAside } = await restoreDatabase(target, file, { force })
    console.log(
      `Restored ${file} into the ${engine === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} database.`,
    )
    if (keptAside) console.log(`The database it replaced is kept in ${keptAside} (delete it when satisfied).`)
    console.log('Start the shop: pending migrations run at start-up.')
  } else {
    throw new BackupError('Usage: backup-cli <backup|restore> [file] [--force]')
  }
}

run()
  .then(() => {
    process.exitCode = 0
  })
  .catch((error: unknown) => {
    console.error(error instanceof EnvError || error instanceof BackupError ? error.message : error)
    process.exit(1)
  })
