ALTER TABLE "orders" ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "secret_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "browser_key" text;--> statement-breakpoint
CREATE INDEX "orders_pending_client_idx" ON "orders" USING btree ("client_key") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "orders_pending_email_idx" ON "orders" USING btree (lower("email")) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "orders_pending_browser_idx" ON "orders" USING btree ("browser_key") WHERE status = 'pending';