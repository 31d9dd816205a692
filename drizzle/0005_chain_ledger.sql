CREATE TABLE "address_leases" (
	"id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"order_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"cooldown_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scanner_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"checkpoint_block" bigint NOT NULL,
	"checkpoint_block_id" text,
	"checkpoint_time" bigint NOT NULL,
	"solid_head" bigint,
	"leader" text,
	"leader_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_watch_idx";--> statement-breakpoint
DROP INDEX "payments_tx_to_token_uq";--> statement-breakpoint
DROP INDEX "payments_tx_credited_uq";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "status" text DEFAULT 'unmatched' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "source" text DEFAULT 'log' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "event_index" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "wallet_addresses" ADD COLUMN "cooldown_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallet_addresses" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
-- Rows written by the per-order watcher keep their place: credited when they paid an order, else unmatched.
UPDATE "payments" SET "source" = 'legacy', "event_index" = "id",
  "status" = CASE WHEN "order_id" IS NULL THEN 'unmatched' ELSE 'credited' END,
  "reason" = CASE WHEN "order_id" IS NULL THEN 'no_order' END;--> statement-breakpoint
-- The lease history starts with every order placed so far.
INSERT INTO "address_leases" ("address", "order_id", "started_at", "ended_at", "cooldown_until")
  SELECT "wallet_address", "id", "created_at",
    CASE WHEN "status" = 'pending' THEN NULL ELSE coalesce("paid_at", "cancelled_at", "updated_at") END,
    CASE WHEN "status" = 'pending' THEN NULL ELSE coalesce("paid_at", "cancelled_at", "updated_at") END
  FROM "orders";--> statement-breakpoint
UPDATE "wallet_addresses" SET "leased_order_id" = NULL
  WHERE "leased_order_id" IS NOT NULL
    AND "leased_order_id" NOT IN (SELECT "id" FROM "orders" WHERE "status" = 'pending');--> statement-breakpoint
CREATE INDEX "address_leases_address_started_idx" ON "address_leases" USING btree ("address","started_at");--> statement-breakpoint
CREATE INDEX "address_leases_order_idx" ON "address_leases" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "orders_pending_grace_idx" ON "orders" USING btree ("grace_until") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_event_uq" ON "payments" USING btree ("tx_id","source","event_index");--> statement-breakpoint
CREATE INDEX "payments_unmatched_idx" ON "payments" USING btree ("created_at") WHERE status = 'unmatched';--> statement-breakpoint
CREATE INDEX "payments_to_time_idx" ON "payments" USING btree ("to_address","block_timestamp");--> statement-breakpoint
CREATE INDEX "wallet_addresses_free_idx" ON "wallet_addresses" USING btree ("cooldown_until","created_at") WHERE leased_order_id is null and removed_at is null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_ck" CHECK ("payments"."status" in ('credited', 'unmatched'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credited_has_order_ck" CHECK ("payments"."status" <> 'credited' or "payments"."order_id" is not null);