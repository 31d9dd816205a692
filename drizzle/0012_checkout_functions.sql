-- Hand-written: the two statements of placing orders that cost more to plan than to run live in
-- functions, whose plans each connection keeps (PL/pgSQL caches them). Each belongs to the module
-- that owns its tables and is called only from that module's TypeScript (wallets.repo.ts,
-- checkout-limits.ts); change them with a new migration (CREATE OR REPLACE).

-- Wallets: leases a free address to each new order and records the lease history. p_orders is
-- [{order_id, preferred, n}]: preferred (or null) is the address the buyer was shown, sent for the
-- first order asking for it only; n orders the rest. Preferred addresses first, when still free;
-- then any free address for each order still without one, in n order, until the pool runs out.
-- Rows are picked FOR UPDATE SKIP LOCKED (which re-reads their freeness once locked), so two
-- transactions never lease one address.
CREATE FUNCTION wallets_lease(p_orders jsonb, p_started_at timestamptz)
RETURNS TABLE (leased_address text, leased_order uuid) LANGUAGE plpgsql AS $$
DECLARE
  taken_orders uuid[] := '{}';
  taken_addresses text[] := '{}';
BEGIN
  IF jsonb_path_exists(p_orders, '$[*] ? (@.preferred != null)') THEN
    WITH wanted AS (
      SELECT o.order_id, a.address
      FROM jsonb_to_recordset(p_orders) AS o(order_id uuid, preferred text, n int)
      CROSS JOIN LATERAL (
        SELECT w.address FROM wallet_addresses w
        WHERE w.address = o.preferred AND w.leased_order_id IS NULL AND w.removed_at IS NULL
          AND (w.cooldown_until IS NULL OR w.cooldown_until <= now())
        FOR UPDATE SKIP LOCKED
      ) a
      WHERE o.preferred IS NOT NULL
    ), leased AS (
      UPDATE wallet_addresses wa SET leased_order_id = wanted.order_id, cooldown_until = NULL
      FROM wanted WHERE wa.address = wanted.address
      RETURNING wa.address, wanted.order_id
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
    SELECT o.order_id, row_number() OVER (ORDER BY o.n) AS k
    FROM jsonb_to_recordset(p_orders) AS o(order_id uuid, preferred text, n int)
    WHERE o.order_id <> ALL (taken_orders)
  ), free AS (
    SELECT f.address, row_number() OVER () AS k FROM (
      SELECT w.address FROM wallet_addresses w
      WHERE w.leased_order_id IS NULL AND w.removed_at IS NULL
        AND (w.cooldown_until IS NULL OR w.cooldown_until <= now())
      ORDER BY w.cooldown_until ASC NULLS FIRST, w.created_at ASC
      LIMIT (SELECT count(*) FROM rest)
      FOR UPDATE OF w SKIP LOCKED
    ) f
  ), wanted AS (
    SELECT rest.order_id, free.address FROM rest JOIN free ON free.k = rest.k
  ), leased AS (
    UPDATE wallet_addresses wa SET leased_order_id = wanted.order_id, cooldown_until = NULL
    FROM wanted WHERE wa.address = wanted.address
    RETURNING wa.address, wanted.order_id
  )
  INSERT INTO address_leases (address, order_id, started_at)
  SELECT l.address, l.order_id, p_started_at FROM leased l
  RETURNING address_leases.address, address_leases.order_id;
END
$$;--> statement-breakpoint

-- Orders: pending orders in their payment window, per client key and per lower-cased e-mail, for
-- the checkout limits (both partial indexes on pending orders serve it).
CREATE FUNCTION orders_pending_counts(p_clients jsonb, p_emails jsonb)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'client'::text, o.client_key, count(*)::int FROM orders o
  WHERE o.status = 'pending' AND o.expires_at > now()
    AND o.client_key = ANY (ARRAY(SELECT jsonb_array_elements_text(p_clients)))
  GROUP BY o.client_key
  UNION ALL
  SELECT 'email'::text, lower(o.email), count(*)::int FROM orders o
  WHERE o.status = 'pending' AND o.expires_at > now()
    AND lower(o.email) = ANY (ARRAY(SELECT jsonb_array_elements_text(p_emails)))
  GROUP BY lower(o.email);
END
$$;
