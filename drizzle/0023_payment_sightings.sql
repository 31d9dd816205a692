-- Hand-written: sightings of transfers to open orders' addresses in the unsolidified head (the
-- payments module). A sighting never pays: it tells the buyer and the operator that a transfer was
-- seen, until the follower reads its solidified block (confirmed) or finds it gone (dropped). A
-- transfer that failed on chain is kept as a failed sighting with the chain's reason. The head height
-- the watcher last read is kept beside the follower's checkpoint for the buyer's progress figure.
CREATE TABLE "payment_sightings" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"tx_id" text NOT NULL,
	"source" text NOT NULL,
	"event_index" integer DEFAULT 0 NOT NULL,
	"token" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_timestamp" bigint NOT NULL,
	"status" text DEFAULT 'seen' NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "payment_sightings_status_ck" CHECK ("status" in ('seen', 'confirmed', 'dropped', 'failed')),
	CONSTRAINT "payment_sightings_failed_ck" CHECK (("status" = 'failed') = ("failure" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_sightings_event_uq" ON "payment_sightings" USING btree ("tx_id","source","event_index");
--> statement-breakpoint
CREATE INDEX "payment_sightings_order_idx" ON "payment_sightings" USING btree ("order_id");
--> statement-breakpoint
CREATE INDEX "payment_sightings_open_idx" ON "payment_sightings" USING btree ("block_number") WHERE "status" = 'seen';
--> statement-breakpoint
ALTER TABLE "scanner_state" ADD COLUMN "head_block" bigint;
