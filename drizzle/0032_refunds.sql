-- Hand-written (decision 039): refunds and returns, proven on the chain. The shop never holds a key:
-- the operator pays from their own wallet and the shop finds the transfer (or checks the hash the
-- operator gives) before it calls a refund sent.
-- 1. Two order statuses a proven refund gives an order: all it received was refunded, or a part.
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_ck";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_ck"
  CHECK ("status" in ('pending', 'paid', 'completed', 'cancelled', 'refunded', 'partially_refunded'));
--> statement-breakpoint
-- 2. A refunded order was paid: the sales counters (0026) keep it in the day's revenue (gross); the
--    refunds are subtracted from it where net revenue is shown.
CREATE OR REPLACE FUNCTION order_day_contributions(rows_sign int, r orders) RETURNS TABLE (
  day date, created bigint, created_paid bigint, paid bigint, cents numeric, usdt numeric, trx numeric, trx_micros numeric
) LANGUAGE sql IMMUTABLE AS $$
  SELECT (r.created_at AT TIME ZONE 'UTC')::date, rows_sign::bigint,
         CASE WHEN r.status IN ('paid', 'completed', 'refunded', 'partially_refunded') THEN rows_sign ELSE 0 END::bigint,
         0::bigint, 0::numeric, 0::numeric, 0::numeric, 0::numeric
  UNION ALL
  SELECT (r.paid_at AT TIME ZONE 'UTC')::date, 0, 0, rows_sign,
         rows_sign * r.total_cents::numeric, rows_sign * r.amount_received_units::numeric,
         rows_sign * r.trx_received_sun::numeric,
         rows_sign * div(r.trx_received_sun::numeric * coalesce(r.trx_rate_e8, 0), 100000000)
  WHERE r.paid_at IS NOT NULL AND r.status IN ('paid', 'completed', 'refunded', 'partially_refunded')
$$;
--> statement-breakpoint
-- 3. One row per refund (of a paid order) or return (of an unmatched transfer).
CREATE TABLE "refunds" (
  "id" serial PRIMARY KEY,
  "kind" text NOT NULL,
  "order_id" uuid,
  "payment_id" integer,
  "reason" text NOT NULL,
  "token" text NOT NULL,
  "amount_units" bigint NOT NULL,
  "usd_micros" bigint NOT NULL DEFAULT 0,
  "disable_keys" boolean NOT NULL DEFAULT true,
  "email" text,
  "locale" text NOT NULL DEFAULT 'en',
  "status" text NOT NULL DEFAULT 'awaiting_address',
  "address" text,
  "address_source" text,
  "suggested_address" text,
  "link_token_hash" text,
  "link_expires_at" timestamp with time zone,
  "link_used_at" timestamp with time zone,
  "request_key" uuid NOT NULL,
  "ready_at" timestamp with time zone,
  "sent_at" timestamp with time zone,
  "cancelled_at" timestamp with time zone,
  "tx_id" text,
  "tx_from" text,
  "tx_amount_units" bigint,
  "tx_block_timestamp" bigint,
  "verified_by" text,
  "created_by" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "refunds_kind_ck" CHECK ("kind" in ('refund', 'return')),
  CONSTRAINT "refunds_token_ck" CHECK ("token" in ('USDT', 'TRX')),
  CONSTRAINT "refunds_amount_ck" CHECK ("amount_units" > 0),
  CONSTRAINT "refunds_status_ck" CHECK ("status" in ('awaiting_address', 'ready', 'sent', 'cancelled')),
  CONSTRAINT "refunds_of_ck" CHECK (("kind" = 'refund' AND "order_id" IS NOT NULL) OR ("kind" = 'return' AND "payment_id" IS NOT NULL)),
  CONSTRAINT "refunds_ready_has_address_ck" CHECK ("status" in ('awaiting_address', 'cancelled') OR "address" IS NOT NULL),
  CONSTRAINT "refunds_sent_has_tx_ck" CHECK (("status" = 'sent') = ("tx_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_request_key_uq" ON "refunds" ("request_key");
--> statement-breakpoint
-- A transaction proves one refund, never two.
CREATE UNIQUE INDEX "refunds_tx_uq" ON "refunds" ("tx_id") WHERE "tx_id" IS NOT NULL;
--> statement-breakpoint
-- An unmatched transfer is returned once.
CREATE UNIQUE INDEX "refunds_payment_uq" ON "refunds" ("payment_id") WHERE "payment_id" IS NOT NULL AND "status" <> 'cancelled';
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_link_uq" ON "refunds" ("link_token_hash") WHERE "link_token_hash" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" ("order_id");
--> statement-breakpoint
CREATE INDEX "refunds_ready_idx" ON "refunds" ("ready_at") WHERE "status" = 'ready';
--> statement-breakpoint
CREATE INDEX "refunds_sent_idx" ON "refunds" ("sent_at") WHERE "status" = 'sent';
--> statement-breakpoint
-- "E-mail me my orders" lists refunded orders too.
DROP INDEX IF EXISTS "orders_paid_email_idx";
--> statement-breakpoint
CREATE INDEX "orders_paid_email_idx" ON "orders" (lower("email")) WHERE "status" in ('paid', 'completed', 'refunded', 'partially_refunded');
