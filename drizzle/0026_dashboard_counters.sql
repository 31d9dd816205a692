-- Hand-written (decision 031): the sales dashboard at a million orders reads counters instead of
-- aggregating the last 30 days' orders and every licence key at each request. Same pattern as
-- order_status_counts (0020): statement triggers add each statement's net change in the same
-- transaction, so the figures are exact; each connection writes its own shard row (backend pid
-- modulo 8), so concurrent checkouts on PostgreSQL do not queue on one row.
-- 1. Per UTC day: orders created that day, and how many of them are paid or completed now (the
--    conversion); orders paid that day that are paid or completed now, with their sums (revenue).
CREATE TABLE "order_day_counts" (
  "day" date NOT NULL,
  "shard" smallint NOT NULL,
  "created" bigint NOT NULL DEFAULT 0,
  "created_paid" bigint NOT NULL DEFAULT 0,
  "paid" bigint NOT NULL DEFAULT 0,
  "cents" numeric NOT NULL DEFAULT 0,
  "usdt" numeric NOT NULL DEFAULT 0,
  "trx" numeric NOT NULL DEFAULT 0,
  "trx_micros" numeric NOT NULL DEFAULT 0,
  CONSTRAINT "order_day_counts_pk" PRIMARY KEY ("day", "shard")
);
--> statement-breakpoint
CREATE FUNCTION order_day_contributions(rows_sign int, r orders) RETURNS TABLE (
  day date, created bigint, created_paid bigint, paid bigint, cents numeric, usdt numeric, trx numeric, trx_micros numeric
) LANGUAGE sql IMMUTABLE AS $$
  SELECT (r.created_at AT TIME ZONE 'UTC')::date, rows_sign::bigint,
         CASE WHEN r.status IN ('paid', 'completed') THEN rows_sign ELSE 0 END::bigint,
         0::bigint, 0::numeric, 0::numeric, 0::numeric, 0::numeric
  UNION ALL
  SELECT (r.paid_at AT TIME ZONE 'UTC')::date, 0, 0, rows_sign,
         rows_sign * r.total_cents::numeric, rows_sign * r.amount_received_units::numeric,
         rows_sign * r.trx_received_sun::numeric,
         rows_sign * div(r.trx_received_sun::numeric * coalesce(r.trx_rate_e8, 0), 100000000)
  WHERE r.paid_at IS NOT NULL AND r.status IN ('paid', 'completed')
$$;
--> statement-breakpoint
INSERT INTO "order_day_counts" ("day", "shard", "created", "created_paid", "paid", "cents", "usdt", "trx", "trx_micros")
  SELECT c.day, 0, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents), sum(c.usdt), sum(c.trx), sum(c.trx_micros)
  FROM "orders" o, order_day_contributions(1, o) c GROUP BY c.day;
--> statement-breakpoint
CREATE FUNCTION orders_count_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, trx, trx_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.trx), sum(c.trx_micros)
      FROM new_rows o, order_day_contributions(1, o::orders) c GROUP BY c.day
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt, trx = t.trx + excluded.trx,
        trx_micros = t.trx_micros + excluded.trx_micros;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, trx, trx_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.trx), sum(c.trx_micros)
      FROM old_rows o, order_day_contributions(-1, o::orders) c GROUP BY c.day
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt, trx = t.trx + excluded.trx,
        trx_micros = t.trx_micros + excluded.trx_micros;
  ELSE
    -- Most updates (a lease, an e-mail flag) change none of the figures: nothing to write then.
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, trx, trx_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.trx), sum(c.trx_micros)
      FROM (
        SELECT c.* FROM new_rows o, order_day_contributions(1, o::orders) c
        UNION ALL
        SELECT c.* FROM old_rows o, order_day_contributions(-1, o::orders) c
      ) AS c GROUP BY c.day
      HAVING sum(c.created) <> 0 OR sum(c.created_paid) <> 0 OR sum(c.paid) <> 0 OR sum(c.cents) <> 0
          OR sum(c.usdt) <> 0 OR sum(c.trx) <> 0 OR sum(c.trx_micros) <> 0
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt, trx = t.trx + excluded.trx,
        trx_micros = t.trx_micros + excluded.trx_micros;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_count_day_inserts AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_days();
--> statement-breakpoint
CREATE TRIGGER orders_count_day_updates AFTER UPDATE ON "orders"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_days();
--> statement-breakpoint
CREATE TRIGGER orders_count_day_deletes AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_count_days();
--> statement-breakpoint
-- 2. Licence keys per product: left (free), reserved by a pending order, sold.
CREATE TABLE "product_key_counts" (
  "product_id" integer NOT NULL,
  "shard" smallint NOT NULL,
  "keys_left" bigint NOT NULL DEFAULT 0,
  "keys_reserved" bigint NOT NULL DEFAULT 0,
  "keys_sold" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "product_key_counts_pk" PRIMARY KEY ("product_id", "shard")
);
--> statement-breakpoint
INSERT INTO "product_key_counts" ("product_id", "shard", "keys_left", "keys_reserved", "keys_sold")
  SELECT "product_id", 0,
         count(*) FILTER (WHERE "order_id" IS NULL AND "reserved_order_id" IS NULL),
         count(*) FILTER (WHERE "order_id" IS NULL AND "reserved_order_id" IS NOT NULL),
         count(*) FILTER (WHERE "order_id" IS NOT NULL)
  FROM "license_keys" GROUP BY "product_id";
--> statement-breakpoint
CREATE FUNCTION license_keys_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An insert has only new rows and a delete only old ones; an update has both.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO product_key_counts AS t (product_id, shard, keys_left, keys_reserved, keys_sold)
      SELECT k.product_id, pg_backend_pid() % 8,
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0)
      FROM (SELECT product_id, order_id, reserved_order_id, 1 AS d FROM new_rows) AS k GROUP BY k.product_id
      HAVING coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0) <> 0
      ON CONFLICT (product_id, shard) DO UPDATE SET
        keys_left = t.keys_left + excluded.keys_left,
        keys_reserved = t.keys_reserved + excluded.keys_reserved,
        keys_sold = t.keys_sold + excluded.keys_sold;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO product_key_counts AS t (product_id, shard, keys_left, keys_reserved, keys_sold)
      SELECT k.product_id, pg_backend_pid() % 8,
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0)
      FROM (SELECT product_id, order_id, reserved_order_id, -1 AS d FROM old_rows) AS k GROUP BY k.product_id
      HAVING coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0) <> 0
      ON CONFLICT (product_id, shard) DO UPDATE SET
        keys_left = t.keys_left + excluded.keys_left,
        keys_reserved = t.keys_reserved + excluded.keys_reserved,
        keys_sold = t.keys_sold + excluded.keys_sold;
  ELSE
    INSERT INTO product_key_counts AS t (product_id, shard, keys_left, keys_reserved, keys_sold)
      SELECT k.product_id, pg_backend_pid() % 8,
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0),
             coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0)
      FROM (SELECT product_id, order_id, reserved_order_id, 1 AS d FROM new_rows UNION ALL SELECT product_id, order_id, reserved_order_id, -1 AS d FROM old_rows) AS k GROUP BY k.product_id
      HAVING coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NULL AND k.reserved_order_id IS NOT NULL), 0) <> 0
          OR coalesce(sum(k.d) FILTER (WHERE k.order_id IS NOT NULL), 0) <> 0
      ON CONFLICT (product_id, shard) DO UPDATE SET
        keys_left = t.keys_left + excluded.keys_left,
        keys_reserved = t.keys_reserved + excluded.keys_reserved,
        keys_sold = t.keys_sold + excluded.keys_sold;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER license_keys_count_inserts AFTER INSERT ON "license_keys"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_keys_count();
--> statement-breakpoint
CREATE TRIGGER license_keys_count_updates AFTER UPDATE ON "license_keys"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_keys_count();
--> statement-breakpoint
CREATE TRIGGER license_keys_count_deletes AFTER DELETE ON "license_keys"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_keys_count();
