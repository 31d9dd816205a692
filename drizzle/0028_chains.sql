-- Several chains (decision 037). Every ledger, sighting and follower row names its chain; an order
-- names the network and token its buyer chose; a pool address names its family (an EVM address is
-- one address on every EVM chain). Existing rows are TRON's, as they always were.

-- 1. The ledger: one row per transfer per chain (a transaction id is only unique within its chain).
ALTER TABLE "payments" ADD COLUMN "chain" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_chain_ck" CHECK ("payments"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_token_ck" CHECK ("payments"."token" in ('USDT', 'USDC', 'TRX'));--> statement-breakpoint
DROP INDEX "payments_event_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "payments_event_uq" ON "payments" USING btree ("chain","tx_id","source","event_index");--> statement-breakpoint

-- Token amounts in base units: 18-decimal tokens (USDT and USDC on BNB Smart Chain) pass int64
-- above $9.22, so amounts are exact integers of up to 78 digits (any uint256).
ALTER TABLE "payments" ALTER COLUMN "amount_units" TYPE numeric(78, 0);--> statement-breakpoint

-- 2. Sightings, the same way.
ALTER TABLE "payment_sightings" ADD COLUMN "chain" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_sightings" ADD CONSTRAINT "payment_sightings_chain_ck" CHECK ("payment_sightings"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base'));--> statement-breakpoint
ALTER TABLE "payment_sightings" ADD CONSTRAINT "payment_sightings_token_ck" CHECK ("payment_sightings"."token" in ('USDT', 'USDC', 'TRX'));--> statement-breakpoint
DROP INDEX "payment_sightings_event_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "payment_sightings_event_uq" ON "payment_sightings" USING btree ("chain","tx_id","source","event_index");--> statement-breakpoint
ALTER TABLE "payment_sightings" ALTER COLUMN "amount_units" TYPE numeric(78, 0);--> statement-breakpoint

-- 3. One follower row per chain: its lease, its checkpoint (height, block hash, block time). The
-- id stays the key, one fixed id per chain (tron 1, ethereum 2, bsc 3, polygon 4, arbitrum 5, base 6).
ALTER TABLE "follower_state" ADD COLUMN "chain" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "follower_state" ADD CONSTRAINT "follower_state_chain_ck" CHECK ("follower_state"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base'));--> statement-breakpoint
CREATE UNIQUE INDEX "follower_state_chain_uq" ON "follower_state" USING btree ("chain");--> statement-breakpoint

-- 4. The buyer's choice of network and token; every order so far was USDT on TRON (TRX is still
-- accepted on TRON orders at the locked rate, as before).
ALTER TABLE "orders" ADD COLUMN "chain" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "token" text DEFAULT 'USDT' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_chain_ck" CHECK ("orders"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_token_ck" CHECK ("orders"."token" in ('USDT', 'USDC', 'TRX'));--> statement-breakpoint

-- 5. The pool by family: an order leases an address of its chain's family.
ALTER TABLE "wallet_addresses" ADD COLUMN "family" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_addresses" ADD CONSTRAINT "wallet_addresses_family_ck" CHECK ("wallet_addresses"."family" in ('tron', 'evm'));--> statement-breakpoint
DROP INDEX "wallet_addresses_free_idx";--> statement-breakpoint
CREATE INDEX "wallet_addresses_free_idx" ON "wallet_addresses" USING btree ("family","last_used_at" NULLS FIRST,"created_at") WHERE leased_order_id is null and removed_at is null;--> statement-breakpoint

-- wallets_lease as in 0027, leasing addresses of one family (TRON unless told).
DROP FUNCTION wallets_lease(jsonb, timestamptz);--> statement-breakpoint
CREATE FUNCTION wallets_lease(p_orders jsonb, p_started_at timestamptz, p_family text DEFAULT 'tron')
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
        WHERE w.address = coalesce(o.handover, o.preferred) AND w.family = p_family
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
      WHERE w.family = p_family
        AND wallets_address_free(w.leased_order_id, w.removed_at, w.cooldown_until)
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
