-- Hand-written (decision 032): names that say what they hold, and one home for the free-address rule.
-- 1. The end of an order's payment window is window_ends_at: the order itself only ends when its
--    grace period (grace_until) is over, so "expires_at" said the wrong thing.
ALTER TABLE "orders" RENAME COLUMN "expires_at" TO "window_ends_at";--> statement-breakpoint
-- 2. The chain follower's checkpoint and leader lease: follower_state (was scanner_state).
ALTER TABLE "scanner_state" RENAME TO "follower_state";--> statement-breakpoint
ALTER TABLE "follower_state" RENAME CONSTRAINT "scanner_state_pkey" TO "follower_state_pkey";--> statement-breakpoint
-- A function body is text, read again when it runs: the one that named the old column is rewritten.
CREATE OR REPLACE FUNCTION orders_pending_counts(p_clients jsonb, p_emails jsonb)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'client'::text, o.client_key, count(*)::int FROM orders o
  WHERE o.status = 'pending' AND o.window_ends_at > now()
    AND o.client_key = ANY (ARRAY(SELECT jsonb_array_elements_text(p_clients)))
  GROUP BY o.client_key
  UNION ALL
  SELECT 'email'::text, lower(o.email), count(*)::int FROM orders o
  WHERE o.status = 'pending' AND o.window_ends_at > now()
    AND lower(o.email) = ANY (ARRAY(SELECT jsonb_array_elements_text(p_emails)))
  GROUP BY lower(o.email);
END
$$;--> statement-breakpoint

-- 3. Wallets: when an address is free to lease, written once. In the pool, no order holds it, and the
-- cool-down after its last order has passed. A one-expression SQL function: the planner inlines it,
-- so the partial index on free addresses still serves the queries that use it.
CREATE FUNCTION wallets_address_free(p_leased_order_id uuid, p_removed_at timestamptz, p_cooldown_until timestamptz)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_leased_order_id IS NULL AND p_removed_at IS NULL
    AND (p_cooldown_until IS NULL OR p_cooldown_until <= now())
$$;--> statement-breakpoint

-- wallets_lease as in 0017, its free-address tests replaced by wallets_address_free. A handed-over
-- address is the exception the rule does not cover: its own order just gave it back, so it passes
-- while still cooling (still in the pool, and no other order holds it).
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
          AND wallets_address_free(w.leased_order_id, w.removed_at,
            CASE WHEN o.handover IS NULL THEN w.cooldown_until END)
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
      WHERE wallets_address_free(w.leased_order_id, w.removed_at, w.cooldown_until)
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

-- wallets_hold_counts as in 0017, its free count through wallets_address_free.
CREATE OR REPLACE FUNCTION wallets_hold_counts(p_holders jsonb, p_pool boolean)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'held'::text, w.held_by, count(*)::int FROM wallet_addresses w
  WHERE w.held_by = ANY (ARRAY(SELECT jsonb_array_elements_text(p_holders)))
    AND (w.leased_order_id IS NOT NULL OR w.cooldown_until > now())
  GROUP BY w.held_by
  UNION ALL
  SELECT v.kind, NULL::text, v.n FROM (
    SELECT count(*) FILTER (WHERE wallets_address_free(w.leased_order_id, w.removed_at, w.cooldown_until))::int AS free,
      count(*)::int AS pool
    FROM wallet_addresses w WHERE p_pool AND w.removed_at IS NULL
  ) c CROSS JOIN LATERAL (VALUES ('free'::text, c.free), ('pool'::text, c.pool)) AS v(kind, n);
END
$$;
