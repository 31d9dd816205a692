-- Hand-written (decision 021). Addresses remember which network's unpaid order holds or cools them
-- (held_by) and when they were last in use (last_used_at): an order ending or a transfer arriving.
-- Leasing takes the address idle longest, and the counts that keep strangers from draining the pool
-- come from wallets_hold_counts.
ALTER TABLE "wallet_addresses" ADD COLUMN "held_by" text;--> statement-breakpoint
ALTER TABLE "wallet_addresses" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
UPDATE "wallet_addresses" w SET "last_used_at" = u.at FROM (
  SELECT address, max(at) AS at FROM (
    SELECT "address", coalesce("ended_at", "started_at") AS at FROM "address_leases"
    UNION ALL
    SELECT "to_address", to_timestamp("block_timestamp" / 1000.0) FROM "payments"
  ) uses GROUP BY address
) u WHERE u.address = w."address";--> statement-breakpoint
DROP INDEX "wallet_addresses_free_idx";--> statement-breakpoint
CREATE INDEX "wallet_addresses_free_idx" ON "wallet_addresses" USING btree ("last_used_at" NULLS FIRST,"created_at") WHERE leased_order_id is null and removed_at is null;--> statement-breakpoint
CREATE INDEX "wallet_addresses_held_by_idx" ON "wallet_addresses" USING btree ("held_by") WHERE held_by is not null;--> statement-breakpoint

-- Wallets: leases an address to each new order and records the lease history. p_orders is
-- [{order_id, holder, handover, preferred, n}]. handover is the address of the order the same
-- browser gave back in this transaction: it passes straight to the new order, cool-down or not, and
-- the old lease's cool-down ends where the new lease starts, so the two spans meet but never
-- overlap. Otherwise preferred (or null), the address the buyer was shown, sent for the first order
-- asking for it only, when still free. Then any free address, idle longest first, for each order
-- still without one, in n order, until the pool runs out. holder (the order's network, or null) is kept in held_by while the address is leased or
-- cools after an unpaid order. Rows are picked FOR UPDATE SKIP LOCKED (which re-reads their
-- freeness once locked), so two transactions never lease one address.
CREATE OR REPLACE FUNCTION wallets_lease(p_orders jsonb, p_started_at timestamptz)
RETURNS TABLE (leased_address text, leased_order uuid) LANGUAGE plpgsql AS $$
DECLARE
  taken_orders uuid[] := '{}';
  taken_addresses text[] := '{}';
BEGIN
  IF jsonb_path_exists(p_orders, '$[*] ? (@.handover != null || @.preferred != null)') THEN
    WITH wanted AS (
      SELECT o.order_id, o.holder, a.address, o.handover IS NOT NULL AS handed
      FROM jsonb_to_recordset(p_orders) AS o(order_id uuid, holder text, handover text, preferred text)
      CROSS JOIN LATERAL (
        SELECT w.address FROM wallet_addresses w
        WHERE w.address = coalesce(o.handover, o.preferred)
          AND w.leased_order_id IS NULL AND w.removed_at IS NULL
          AND (o.handover IS NOT NULL OR w.cooldown_until IS NULL OR w.cooldown_until <= now())
        FOR UPDATE SKIP LOCKED
      ) a
    ), leased AS (
      UPDATE wallet_addresses wa SET leased_order_id = wanted.order_id, cooldown_until = NULL,
        held_by = wanted.holder
      FROM wanted WHERE wa.address = wanted.address
      RETURNING wa.address, wanted.order_id, wanted.handed
    ), ended AS (
      UPDATE address_leases al SET cooldown_until = p_started_at
      FROM leased WHERE leased.handed AND al.address = leased.address AND al.ended_at IS NOT NULL
        AND al.cooldown_until > p_started_at
    ), recorded AS (
      INSERT INTO address_leases (address, order_id, started_at)
      SELECT l.address, l.order_id, p_started_at FROM leased l
      RETURNING address_leases.address, address_leases.order_id
    )
    SELECT coalesce(array_agg(r.order_id), '{}'), coalesce(array_agg(r.address), '{}')
    INTO taken_orders, taken_addresses FROM recorded r;
    RETURN QUERY SELECT unnest(taken_addresses), unnest(taken_orders);
  END IF;

  RETURN QUERY
  WITH rest AS (
    SELECT o.order_id, o.holder, row_number() OVER (ORDER BY o.n) AS k
    FROM jsonb_to_recordset(p_orders) AS o(order_id uuid, holder text, n int)
    WHERE o.order_id <> ALL (taken_orders)
  ), free AS (
    SELECT f.address, row_number() OVER () AS k FROM (
      SELECT w.address FROM wallet_addresses w
      WHERE w.leased_order_id IS NULL AND w.removed_at IS NULL
        AND (w.cooldown_until IS NULL OR w.cooldown_until <= now())
      ORDER BY w.last_used_at ASC NULLS FIRST, w.created_at ASC
      LIMIT (SELECT count(*) FROM rest)
      FOR UPDATE OF w SKIP LOCKED
    ) f
  ), wanted AS (
    SELECT rest.order_id, rest.holder, free.address FROM rest JOIN free ON free.k = rest.k
  ), leased AS (
    UPDATE wallet_addresses wa SET leased_order_id = wanted.order_id, cooldown_until = NULL,
      held_by = wanted.holder
    FROM wanted WHERE wa.address = wanted.address
    RETURNING wa.address, wanted.order_id
  )
  INSERT INTO address_leases (address, order_id, started_at)
  SELECT l.address, l.order_id, p_started_at FROM leased l
  RETURNING address_leases.address, address_leases.order_id;
END
$$;--> statement-breakpoint

-- Wallets: for the checkout's pool guard, how many addresses each holder (a network) keeps leased
-- or cooling after an unpaid order ('held'); with p_pool, also how many are free now ('free') and
-- how many the pool has ('pool'), which reads every row of the pool.
CREATE FUNCTION wallets_hold_counts(p_holders jsonb, p_pool boolean)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'held'::text, w.held_by, count(*)::int FROM wallet_addresses w
  WHERE w.held_by = ANY (ARRAY(SELECT jsonb_array_elements_text(p_holders)))
    AND (w.leased_order_id IS NOT NULL OR w.cooldown_until > now())
  GROUP BY w.held_by
  UNION ALL
  SELECT v.kind, NULL::text, v.n FROM (
    SELECT count(*) FILTER (WHERE w.leased_order_id IS NULL
        AND (w.cooldown_until IS NULL OR w.cooldown_until <= now()))::int AS free, count(*)::int AS pool
    FROM wallet_addresses w WHERE p_pool AND w.removed_at IS NULL
  ) c CROSS JOIN LATERAL (VALUES ('free'::text, c.free), ('pool'::text, c.pool)) AS v(kind, n);
END
$$;
