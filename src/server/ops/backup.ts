import { spawn } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgliteOptions } from '../db/pglite-options'

/**
 * Backups of either engine, as one file:
 * - PGlite: PGlite's own data-directory dump (a gzipped tar), taken while the shop is stopped —
 *   PGlite is one process's database and cannot be read while the shop has it open.
 * - PostgreSQL: pg_dump's custom format, taken while the shop runs (pg_dump reads one consistent
 *   snapshot); restored with pg_restore while the shop is stopped.
 */
export type Engine = 'pglite' | 'postgres'

export interface BackupTarget {
  /** PostgreSQL connection string; unset means PGlite under dataDir. */
  databaseUrl?: string
  /** DATA_DIR: PGlite lives in DATA_DIR/pglite. */
  dataDir: string
}

export class BackupError extends Error {}

export function pgliteDir(target: BackupTarget): string {
  return resolve(target.dataDir, 'pglite')
}

export function engineOf(target: BackupTarget): Engine {
  return target.databaseUrl ? 'postgres' : 'pglite'
}

/** <dir>/stablecart-<engine>-<UTC time>.<ext>; dir is BACKUP_DIR (default backups/ in the working directory). */
export function defaultBackupFile(engine: Engine, now = new Date(), dir = 'backups'): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  return join(dir, `stablecart-${engine}-${stamp}.${engine === 'pglite' ? 'tar.gz' : 'dump'}`)
}

/** Which engine wrote a backup file, from its first bytes. */
export function backupEngineOf(file: string): Engine {
  const fd = openSync(file, 'r')
  const head = Buffer.alloc(5)
  try {
    readSync(fd, head, 0, 5, 0)
  } finally {
    closeSync(fd)
  }
  if (head.toString('latin1') === 'PGDMP') return 'postgres'
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite'
  throw new BackupError(`${file} is not a Stablecart backup (neither a PGlite dump nor a pg_dump archive)`)
}

function assertPgliteStopped(dir: string, force: boolean): void {
  // PGlite keeps postmaster.pid while a process has the folder open and removes it on a clean close.
  if (!force && existsSync(join(dir, 'postmaster.pid'))) {
    throw new BackupError(
      `The embedded database in ${dir} is open (postmaster.pid is there): stop the shop first. ` +
        'If the shop is stopped and was not shut down cleanly, start and stop it once, or pass --force.',
    )
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', (error) =>
      reject(
        new BackupError(`Cannot run ${command} (${error.message}); install the PostgreSQL client tools`),
      ),
    )
    child.on('exit', (code) => {
      if (code === 0) resolvePromise()
      else reject(new BackupError(`${command} failed (exit ${code}):\n${stderr.trim()}`))
    })
  })
}

/** Writes a backup of the configured database to `file`; answers the engine. */
export async function backupDatabase(target: BackupTarget, file: string, opts: { force?: boolean } = {}) {
  const engine = engineOf(target)
  mkdirSync(dirname(resolve(file)), { recursive: true })
  if (engine === 'postgres') {
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      '--file',
      file,
      '--dbname',
      target.databaseUrl as string,
    ])
    return engine
  }
  const dir = pgliteDir(target)
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new BackupError(`No embedded database in ${dir}`)
  assertPgliteStopped(dir, opts.force ?? false)
  const db = new PGlite(dir, pgliteOptions())
  try {
    // dumpDataDir on a PGlite that is still starting never settles.
    await db.waitReady
    const dump = await db.dumpDataDir('gzip')
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  } finally {
    await db.close()
  }
  return engine
}

/**
 * Replaces the configured database with a backup. PGlite: the current folder is kept beside it as
 * pglite.replaced-<time> (answered as `keptAside`), never deleted. PostgreSQL: pg_restore --clean
 * drops and recreates what the archive holds, in one transaction.
 */
export async function restoreDatabase(
  target: BackupTarget,
  file: string,
  opts: { force?: boolean; now?: Date } = {},
): Promise<{ engine: Engine; keptAside?: string }> {
  if (!existsSync(file)) throw new BackupError(`No such file: ${file}`)
  const engine = engineOf(target)
  const fileEngine = backupEngineOf(file)
  if (fileEngine !== engine) {
    throw new BackupError(
      `${file} is a ${fileEngine === 'pglite' ? 'PGlite' : 'PostgreSQL'} backup, but the shop is configured for ${
        engine === 'pglite' ? 'PGlite (DATABASE_URL unset)' : 'PostgreSQL (DATABASE_URL set)'
      }`,
    )
  }
  if (engine === 'postgres') {
    await run('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      '--dbname',
      target.databaseUrl as string,
      file,
    ])
    return { engine }
  }
  const dir = pgliteDir(target)
  let keptAside: string | undefined
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    assertPgliteStopped(dir, opts.force ?? false)
    const stamp = (opts.now ?? new Date())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')
    keptAside = `${dir}.replaced-${stamp}`
    renameSync(dir, keptAside)
  }
  mkdirSync(dir, { recursive: true })
  try {
    const db = new PGlite(dir, { ...pgliteOptions(), loadDataDir: new Blob([readFileSync(file)]) })
    await db.query('select 1')
    await db.close()
  } catch (error) {
    // Leave things as they were: the half-written folder goes, the old one comes back.
    rmSync(dir, { recursive: true, force: true })
    if (keptAside) renameSync(keptAside, dir)
    throw error
  }
  return { engine, keptAside }
}
