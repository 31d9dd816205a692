-- The invoice API (src/server/invoices, decision 055): the shop as one store with a fixed id, API
-- keys (only their hash kept), and invoices, each one order of the shop with what the seller's cart
-- sent (metadata, checkout options) beside it and the Greenfield events already recorded for it.
-- Webhook endpoints get a kind: 'greenfield' ones receive the invoice events in BTCPay's shape.
CREATE TABLE "api_store" (
	"id" smallint PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	CONSTRAINT "api_store_one_ck" CHECK ("api_store"."id" = 1)
);--> statement-breakpoint
INSERT INTO "api_store" ("id", "store_id") VALUES (1, replace(gen_random_uuid()::text, '-', ''));--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_uq" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"external_order_id" text,
	"currency" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"checkout" jsonb NOT NULL,
	"marked" text,
	"api_key_id" integer,
	"events_sent" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_marked_ck" CHECK ("invoices"."marked" in ('Invalid', 'Settled'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_uq" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_external_order_idx" ON "invoices" USING btree ("external_order_id", "created_at");--> statement-breakpoint
CREATE INDEX "invoices_created_idx" ON "invoices" USING btree ("created_at", "id");
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "kind" text DEFAULT 'stablecart' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_kind_ck" CHECK ("webhook_endpoints"."kind" in ('stablecart', 'greenfield'));
