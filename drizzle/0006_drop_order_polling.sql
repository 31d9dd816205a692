ALTER TABLE "orders" DROP COLUMN "next_poll_at";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "watched_until";--> statement-breakpoint
ALTER TABLE "wallet_addresses" DROP COLUMN "lease_until";--> statement-breakpoint
ALTER TABLE "wallet_addresses" DROP COLUMN "last_payment_ts";