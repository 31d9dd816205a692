-- Hand-written (decision 026): what keeps the admin fast at a million orders.
-- 1. The admin search's trigram index on databases where 0004 could not make it. The embedded
--    PGlite now loads pg_trgm (src/server/db/pglite-options.ts), so a PGlite shop created before
--    gets the extension and the index here; PostgreSQL without pg_trgm still scans. The expression
--    and the 1 MB pending list are those of 0004 and 0014.
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
--> statement-breakpoint
-- 2. Orders per status, kept by the database itself: the admin list's total and the dashboard's
--    statuses read a few rows instead of counting a million. Every statement that inserts, updates
--    or deletes orders adds its net change per status in the same transaction, so the figures are
--    exact. Each connection writes its own shard row (its backend pid modulo 8), so two checkout
--    batches committing at once on PostgreSQL do not wait on one counter row.
CREATE TABLE "order_status_counts" (
  "status" text NOT NULL,
  "shard" smallint NOT NULL,
  "n" bigint NOT NULL,
  CONSTRAINT "order_status_counts_pk" PRIMARY KEY ("status", "shard")
);
--> statement-breakpoint
INSERT INTO "order_status_counts" ("status", "shard", "n")
  SELECT "status", 0, count(*) FROM "orders" GROUP BY "status";
--> statement-breakpoint
CREATE FUNCTION orders_count_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_status_counts (status, shard, n)
      SELECT status, pg_backend_pid() % 8, count(*) FROM new_rows GROUP BY status
      ON CONFLICT (status, shard) DO UPDATE SET n = order_status_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_status_counts (status, shard, n)
      SELECT status, pg_backend_pid() % 8, -count(*) FROM old_rows GROUP BY status
      ON CONFLICT (status, shard) DO UPDATE SET n = order_status_counts.n + excluded.n;
  ELSE
    -- Most updates leave the status as it was: nothing to write then.
    INSERT INTO order_status_counts (status, shard, n)
      SELECT status, pg_backend_pid() % 8, sum(d) FROM (
        SELECT status, 1 AS d FROM new_rows UNION ALL SELECT status, -1 FROM old_rows
      ) AS changes GROUP BY status HAVING sum(d) <> 0
      ON CONFLICT (status, shard) DO UPDATE SET n = order_status_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_count_inserts AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_statuses();
--> statement-breakpoint
CREATE TRIGGER orders_count_updates AFTER UPDATE ON "orders"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_statuses();
--> statement-breakpoint
CREATE TRIGGER orders_count_deletes AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_statuses();
