-- Hand-written: the admin search's trigram index on databases where 0004 could not make it. The
-- embedded PGlite now loads pg_trgm (src/server/db/pglite-options.ts), so a PGlite shop created
-- before gets the extension and the index here; PostgreSQL without pg_trgm still scans. The
-- expression and the 1 MB pending list are those of 0004 and 0014 (decision 026).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS "orders_search_trgm_idx" ON "orders"
    USING gin ((lower("id"::text || ' ' || "email" || ' ' || "wallet_address")) gin_trgm_ops)
    WITH (gin_pending_list_limit = 1024);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): the admin orders search scans the table', SQLERRM;
END
$$;
