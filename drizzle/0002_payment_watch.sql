ALTER TABLE "orders" ADD COLUMN "next_poll_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "watched_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_watch_idx" ON "orders" USING btree ("status","next_poll_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_tx_credited_uq" ON "payments" USING btree ("tx_id") WHERE order_id is not null;