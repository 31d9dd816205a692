import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { applyEmbeddedDatabaseFlags } from './v8-flags'

// The embedded PGlite in a worker thread (pglite-worker.ts), behind the small part of PGlite's
// interface that drizzle's PGlite driver uses: query(), transaction() and close(). The SQL, the
// commits and their disk writes run on the worker; the server's event loop only passes messages.

export type ProxyRequest = { id: number } & (
  | {
      op: 'query'
      sql: string
      params?: unknown[]
      rowMode?: 'array' | 'object'
      rawDates: boolean
      tx?: number
    }
  | { op: 'exec'; sql: string }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
)

export interface ProxyReply {
  id: number
  result?: { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }
  tx?: number
  error?: { message: string; code?: string; detail?: string; constraint?: string }
}

type Sender = (msg: Omit<ProxyRequest, 'id'> & Record<string, unknown>) => Promise<ProxyReply>

interface QueryOptions {
  rowMode?: 'array' | 'object'
  parsers?: Record<number, unknown>
}

/** An error from the database, with PostgreSQL's fields (code, detail, constraint) as PGlite gives them. */
export class DatabaseError extends Error {
  code?: string
  detail?: string
  constraint?: string
  constructor(fields: NonNullable<ProxyReply['error']>) {
    super(fields.message)
    this.name = 'DatabaseError'
    Object.assign(this, fields)
  }
}

class ProxyTransaction {
  constructor(
    private readonly send: Sender,
    private readonly tx: number,
  ) {}
  async query(sql: string, params?: unknown[], opts: QueryOptions = {}) {
    return queryVia(this.send, sql, params, opts, this.tx)
  }
  async exec(sql: string) {
    return this.query(sql)
  }
}

async function queryVia(
  send: Sender,
  sql: string,
  params: unknown[] | undefined,
  opts: QueryOptions,
  tx?: number,
) {
  const answer = await send({
    op: 'query',
    sql,
    params,
    rowMode: opts.rowMode,
    // Drizzle's only parsers keep dates as text; the worker applies the same ones.
    rawDates: opts.parsers !== undefined,
    tx,
  })
  return answer.result as NonNullable<ProxyReply['result']>
}

export class PgliteProxy {
  private readonly worker: Worker
  private readonly pending = new Map<
    number,
    { resolve: (r: ProxyReply) => void; reject: (e: Error) => void }
  >()
  private nextId = 1
  private failed: Error | undefined

  constructor(dataDir: string) {
    const file = workerFile()
    applyEmbeddedDatabaseFlags()
    this.worker = file.pathname.endsWith('.ts')
      ? // From source (tsx, tests) the worker registers tsx's loader first; the built .js needs nothing.
        new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
            .then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}) })`,
          { eval: true, workerData: { dataDir } },
        )
      : new Worker(file, { workerData: { dataDir } })
    this.worker.on('message', (reply: ProxyReply) => {
      const waiter = this.pending.get(reply.id)
      if (!waiter) return
      this.pending.delete(reply.id)
      if (reply.error) waiter.reject(new DatabaseError(reply.error))
      else waiter.resolve(reply)
    })
    const fail = (error: Error) => {
      this.failed = error
      for (const waiter of this.pending.values()) waiter.reject(error)
      this.pending.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the database thread ended (exit code ${code})`)))
  }

  private readonly send: Sender = (msg) =>
    new Promise<ProxyReply>((resolve, reject) => {
      if (this.failed) return reject(this.failed)
      const id = this.nextId++
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ ...msg, id })
    })

  async query(sql: string, params?: unknown[], opts: QueryOptions = {}) {
    return queryVia(this.send, sql, params, opts)
  }

  async exec(sql: string): Promise<void> {
    await this.send({ op: 'exec', sql })
  }

  /** Runs fn inside one transaction on the worker: COMMIT when it resolves, ROLLBACK when it throws. */
  async transaction<T>(fn: (tx: ProxyTransaction) => Promise<T>): Promise<T> {
    const { tx } = await this.send({ op: 'begin' })
    let result: T
    try {
      result = await fn(new ProxyTransaction(this.send, tx as number))
    } catch (error) {
      await this.send({ op: 'end', tx: tx as number, commit: false }).catch(() => {})
      throw error
    }
    await this.send({ op: 'end', tx: tx as number, commit: true })
    return result
  }

  async close(): Promise<void> {
    if (!this.failed) await this.send({ op: 'close' }).catch(() => {})
    await this.worker.terminate()
  }
}

/** pglite-worker next to this module: .ts when run from source (tsx), .js once built. */
function workerFile(): URL {
  const here = fileURLToPath(import.meta.url)
  const ts = new URL('./pglite-worker.ts', import.meta.url)
  if (here.endsWith('.ts') && existsSync(fileURLToPath(ts))) return ts
  return new URL('./pglite-worker.js', import.meta.url)
}
