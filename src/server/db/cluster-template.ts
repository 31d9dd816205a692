import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'

// The embedded database's first start (decision 026). PGlite's own initdb holds two more
// PostgreSQL instances and a copy of one's memory (920 MB at its peak); the build instead writes an
// empty cluster once (scripts/build-server.mjs), and a first start unpacks it into the data folder
// before PGlite opens it, so the tarball's memory is garbage before PostgreSQL claims its own.

/** The file name of the cluster the build writes next to the built worker. */
export const CLUSTER_TEMPLATE = 'pglite-cluster.tar.gz'

/**
 * Unpacks the gzipped tar of an empty cluster (PGlite's dumpDataDir) into dataDir, which must be
 * missing or empty. The files land in a sibling folder first and it is renamed into place, so an
 * interrupted unpack never leaves a half cluster where PGlite would find it. Answers false, and
 * changes nothing, when dataDir holds anything.
 */
export function unpackCluster(tarball: string, dataDir: string): boolean {
  if (existsSync(dataDir)) {
    try {
      rmdirSync(dataDir)
    } catch {
      return false
    }
  }
  const staging = `${dataDir}.unpacking`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true, mode: 0o700 })
  const gzipped = readFileSync(tarball)
  // Unzipped into one buffer of the size gzip's trailer states (ISIZE, the size modulo 2^32; the
  // cluster is about 40 MB). In zlib's default 16 KB pieces, copied together at the end, the pieces
  // stay in malloc's arenas once freed: measured, 49 MB of the process stayed resident for good,
  // against 1 MB this way (decision 036).
  // The trailer is read from a file the build wrote; bounded all the same, so a damaged one costs
  // pieces again rather than one huge allocation.
  const stated = gzipped.length >= 4 ? gzipped.readUInt32LE(gzipped.length - 4) : 0
  const tar = gunzipSync(gzipped, { chunkSize: Math.min(Math.max(64 * 1024, stated + 1), 256 * 1024 * 1024) })
  for (let at = 0; at + 512 <= tar.length; ) {
    const field = (from: number, to: number) => {
      const raw = tar.toString('latin1', at + from, at + to)
      const end = raw.indexOf('\0')
      return end < 0 ? raw : raw.slice(0, end)
    }
    const name = field(0, 100)
    if (name === '') break
    const prefix = field(345, 500)
    const size = Number.parseInt(field(124, 136).trim() || '0', 8)
    const type = field(156, 157)
    const path = join(staging, `${prefix ? `${prefix}/` : ''}${name}`.replace(/^\/+/, ''))
    if (!path.startsWith(`${staging}/`)) throw new Error(`unexpected path in ${tarball}: ${name}`)
    if (type === '5') {
      mkdirSync(path, { recursive: true, mode: 0o700 })
    } else if (type === '0' || type === '') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
      writeFileSync(path, tar.subarray(at + 512, at + 512 + size), { mode: 0o600 })
    }
    at += 512 + Math.ceil(size / 512) * 512
  }
  if (!existsSync(join(staging, 'PG_VERSION'))) throw new Error(`${tarball} holds no database cluster`)
  renameSync(staging, dataDir)
  return true
}
