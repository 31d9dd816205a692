ALTER TABLE "orders" ADD COLUMN "trx_amount_sun" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trx_rate_e8" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trx_received_sun" bigint DEFAULT 0 NOT NULL;