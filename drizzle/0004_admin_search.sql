-- Admin orders search: a trigram index over one lower-cased expression of id, e-mail and wallet
-- address, so a substring search stays fast at 100,000 orders. PostgreSQL has pg_trgm; the embedded
-- PGlite does not load it, and there the search scans (embedded shops are small).
-- The query in src/server/admin/admin-orders.repo.ts must use exactly this expression.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS "orders_search_trgm_idx" ON "orders"
    USING gin ((lower("id"::text || ' ' || "email" || ' ' || "wallet_address")) gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): the admin orders search scans the table', SQLERRM;
END
$$;
