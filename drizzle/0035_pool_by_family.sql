-- The pool counted by family, and a stopped follower written where every process reads it.
-- 1. wallets_hold_counts as in 0027, its free and pool counts per family: an order leases an address
--    of its chain's family (0028), so the checkout's pool guard weighs that family's free addresses
--    against that family's reserve, and the health figures show each family apart. p_family names
--    one family; null answers one row per family that has addresses (the health figures). The held
--    counts stay per network over the whole pool: a network's share is one limit, whatever it holds.
DROP FUNCTION wallets_hold_counts(jsonb, boolean);--> statement-breakpoint
CREATE FUNCTION wallets_hold_counts(p_holders jsonb, p_pool boolean, p_family text DEFAULT NULL)
RETURNS TABLE (kind text, key text, n int) LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT 'held'::text, w.held_by, count(*)::int FROM wallet_addresses w
  WHERE w.held_by = ANY (ARRAY(SELECT jsonb_array_elements_text(p_holders)))
    AND (w.leased_order_id IS NOT NULL OR w.cooldown_until > now())
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
$$;--> statement-breakpoint

-- 2. A chain's follower that stopped at a block not following its checkpoint (a reorganisation
--    deeper than the chain's depth): why and since when, for the admin's Chain tab. Cleared when the
--    follower records a block again.
ALTER TABLE "follower_state" ADD COLUMN "halted_reason" text;--> statement-breakpoint
ALTER TABLE "follower_state" ADD COLUMN "halted_at" timestamp with time zone;
