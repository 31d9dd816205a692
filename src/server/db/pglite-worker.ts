// The embedded database's thread: PGlite runs its SQL here, so a slow statement or a commit's
// disk writes never stall the server's event loop. The main thread talks to it through
// pglite-proxy.ts; one message per query, and a transaction stays open across messages.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type Transaction, types } from '@electric-sql/pglite'
import { CLUSTER_TEMPLATE, unpackCluster } from './cluster-template'
import { pgliteOptions } from './pglite-options'
import type { ProxyReply, ProxyRequest } from './pglite-proxy'

const port = parentPort
if (!port) throw new Error('pglite-worker runs as a worker thread')

// Drizzle reads dates as the text PostgreSQL sends; it passes these parsers on every query.
const rawDates = {
  [types.TIMESTAMP]: (value: string) => value,
  [types.TIMESTAMPTZ]: (value: string) => value,
  [types.INTERVAL]: (value: string) => value,
  [types.DATE]: (value: string) => value,
}

const dataDir = workerData.dataDir as string
// A first start unpacks the empty cluster the build made instead of running PGlite's initdb
// (cluster-template.ts). From source, where there is no build, PGlite runs initdb itself.
const template = fileURLToPath(new URL(`./${CLUSTER_TEMPLATE}`, import.meta.url))
if (!existsSync(join(dataDir, 'PG_VERSION')) && existsSync(template)) unpackCluster(template, dataDir)
const db = new PGlite(dataDir, pgliteOptions())
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>()
let nextTx = 1

class Rollback extends Error {}

function plainError(error: unknown): ProxyReply['error'] {
  const e = error as Record<string, unknown>
  const out: Record<string, unknown> = { message: String(e?.message ?? error) }
  for (const key of ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'severity', 'schema']) {
    if (typeof e?.[key] === 'string') out[key] = e[key]
  }
  return out as ProxyReply['error']
}

port.on('message', async (msg: ProxyRequest) => {
  const reply = (body: Omit<ProxyReply, 'id'>) => port.postMessage({ id: msg.id, ...body })
  try {
    await db.waitReady
    switch (msg.op) {
      case 'query': {
        const target = msg.tx ? open.get(msg.tx)?.tx : db
        if (!target) throw new Error('the transaction has ended')
        const result = await target.query(msg.sql, msg.params, {
          rowMode: msg.rowMode,
          ...(msg.rawDates ? { parsers: rawDates } : {}),
        })
        return reply({
          result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows },
        })
      }
      case 'exec': {
        await db.exec(msg.sql)
        return reply({})
      }
      case 'begin': {
        const id = nextTx++
        let started = false
        const done: Promise<void> = db.transaction(
          (tx) =>
            new Promise<void>((resolve, reject) => {
              const end = (commit: boolean) => (commit ? resolve() : reject(new Rollback()))
              started = true
              open.set(id, { tx, end, done })
              reply({ tx: id })
            }),
        )
        done.catch((error) => {
          if (!started) reply({ error: plainError(error) })
        })
        return
      }
      case 'end': {
        const entry = open.get(msg.tx)
        if (!entry) throw new Error('the transaction has ended')
        open.delete(msg.tx)
        entry.end(msg.commit)
        // Answer once the COMMIT (or ROLLBACK) itself has run.
        try {
          await entry.done
        } catch (error) {
          if (!(error instanceof Rollback)) throw error
        }
        return reply({})
      }
      case 'close': {
        await db.close()
        return reply({})
      }
    }
  } catch (error) {
    reply({ error: plainError(error) })
  }
})
