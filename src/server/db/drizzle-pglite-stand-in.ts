// What drizzle-orm's PGlite driver imports from @electric-sql/pglite, put in its place in the
// server's bundle (scripts/build-server.mjs). The server hands drizzle a client, the proxy to the
// database's own thread (pglite-proxy.ts), and never has drizzle open a database, so PGlite's
// JavaScript stays out of the main thread: about 1.2 MB of an idle shop (decision 046). The type
// ids are PostgreSQL's own; a test holds them to PGlite's.

export class PGlite {
  constructor() {
    throw new Error(
      'the server opens PGlite on its database thread (db/pglite-worker.ts), not through drizzle',
    )
  }
}

export const types = { DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, INTERVAL: 1186 } as const
