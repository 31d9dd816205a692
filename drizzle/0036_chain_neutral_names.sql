-- Hand-written (decisions 051, 052). 1–3: storage in chain-neutral words (051). The columns and values named after
-- TRON's coin hold any family's native coin; each keeps its data (a rename moves nothing on disk).
-- 1. The order's native coin: the amount asked and the rate locked at checkout, and what it received,
--    in the coin's base units (TRX: sun).
ALTER TABLE "orders" RENAME COLUMN "trx_amount_sun" TO "native_amount_units";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "trx_rate_e8" TO "native_rate_e8";--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "trx_received_sun" TO "native_received_units";--> statement-breakpoint
-- 2. A native coin transfer in the ledger and among the sightings: source 'native' (was 'trx').
UPDATE "payments" SET "source" = 'native' WHERE "source" = 'trx';--> statement-breakpoint
UPDATE "payment_sightings" SET "source" = 'native' WHERE "source" = 'trx';--> statement-breakpoint
-- 3. The sales counters (0026): the native coin's sums, and the functions that keep them (0032's
--    rule for which orders count is unchanged).
ALTER TABLE "order_day_counts" RENAME COLUMN "trx" TO "native_units";--> statement-breakpoint
ALTER TABLE "order_day_counts" RENAME COLUMN "trx_micros" TO "native_micros";--> statement-breakpoint
DROP FUNCTION order_day_contributions(int, orders);--> statement-breakpoint
CREATE FUNCTION order_day_contributions(rows_sign int, r orders) RETURNS TABLE (
  day date, created bigint, created_paid bigint, paid bigint, cents numeric, usdt numeric,
  native_units numeric, native_micros numeric
) LANGUAGE sql IMMUTABLE AS $$
  SELECT (r.created_at AT TIME ZONE 'UTC')::date, rows_sign::bigint,
         CASE WHEN r.status IN ('paid', 'completed', 'refunded', 'partially_refunded') THEN rows_sign ELSE 0 END::bigint,
         0::bigint, 0::numeric, 0::numeric, 0::numeric, 0::numeric
  UNION ALL
  SELECT (r.paid_at AT TIME ZONE 'UTC')::date, 0, 0, rows_sign,
         rows_sign * r.total_cents::numeric, rows_sign * r.amount_received_units::numeric,
         rows_sign * r.native_received_units::numeric,
         rows_sign * div(r.native_received_units::numeric * coalesce(r.native_rate_e8, 0), 100000000)
  WHERE r.paid_at IS NOT NULL AND r.status IN ('paid', 'completed', 'refunded', 'partially_refunded')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_count_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, native_units, native_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.native_units), sum(c.native_micros)
      FROM new_rows o, order_day_contributions(1, o::orders) c GROUP BY c.day
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt,
        native_units = t.native_units + excluded.native_units,
        native_micros = t.native_micros + excluded.native_micros;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, native_units, native_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.native_units), sum(c.native_micros)
      FROM old_rows o, order_day_contributions(-1, o::orders) c GROUP BY c.day
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt,
        native_units = t.native_units + excluded.native_units,
        native_micros = t.native_micros + excluded.native_micros;
  ELSE
    -- Most updates (a lease, an e-mail flag) change none of the figures: nothing to write then.
    INSERT INTO order_day_counts AS t (day, shard, created, created_paid, paid, cents, usdt, native_units, native_micros)
      SELECT c.day, pg_backend_pid() % 8, sum(c.created), sum(c.created_paid), sum(c.paid), sum(c.cents),
             sum(c.usdt), sum(c.native_units), sum(c.native_micros)
      FROM (
        SELECT c.* FROM new_rows o, order_day_contributions(1, o::orders) c
        UNION ALL
        SELECT c.* FROM old_rows o, order_day_contributions(-1, o::orders) c
      ) AS c GROUP BY c.day
      HAVING sum(c.created) <> 0 OR sum(c.created_paid) <> 0 OR sum(c.paid) <> 0 OR sum(c.cents) <> 0
          OR sum(c.usdt) <> 0 OR sum(c.native_units) <> 0 OR sum(c.native_micros) <> 0
      ON CONFLICT (day, shard) DO UPDATE SET created = t.created + excluded.created,
        created_paid = t.created_paid + excluded.created_paid, paid = t.paid + excluded.paid,
        cents = t.cents + excluded.cents, usdt = t.usdt + excluded.usdt,
        native_units = t.native_units + excluded.native_units,
        native_micros = t.native_micros + excluded.native_micros;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- 4. (decision 052) The addresses a client network holds are counted per family, as the pool is:
--    CHECKOUT_HELD_PER_NETWORK is a network's share of one family's pool, so holding TRON addresses
--    does not use up its share of the EVM pool. p_family null still counts over every family.
DROP FUNCTION wallets_hold_counts(jsonb, boolean, text);--> statement-breakpoint
CREATE FUNCTION wallets_hold_counts(p_holders jsonb, p_pool boolean, p_family text DEFAULT NULL)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'held'::text, w.held_by, count(*)::int FROM wallet_addresses w
  WHERE w.held_by = ANY (ARRAY(SELECT jsonb_array_elements_text(p_holders)))
    AND (w.leased_order_id IS NOT NULL OR w.cooldown_until > now())
    AND (p_family IS NULL OR w.family = p_family)
  GROUP BY w.held_by
  UNION ALL
  SELECT v.kind, c.family, v.n FROM (
    SELECT w.family,
      count(*) FILTER (WHERE wallets_address_free(w.leased_order_id, w.removed_at, w.cooldown_until))::int AS free,
      count(*)::int AS pool
    FROM wallet_addresses w
    WHERE p_pool AND w.removed_at IS NULL AND (p_family IS NULL OR w.family = p_family)
    GROUP BY w.family
  ) c CROSS JOIN LATERAL (VALUES ('free'::text, c.free), ('pool'::text, c.pool)) AS v(kind, n);
END
$$;
