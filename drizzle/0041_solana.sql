-- The Solana family (issue 41): 'solana' joins the chain ids every row's check allows, and 'solana'
-- the families a pool address may belong to (a base58 ed25519 public key). Nothing else changes;
-- existing rows already satisfy the wider checks.
ALTER TABLE "orders" DROP CONSTRAINT "orders_chain_ck";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_chain_ck" CHECK ("orders"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'));--> statement-breakpoint
ALTER TABLE "follower_state" DROP CONSTRAINT "follower_state_chain_ck";--> statement-breakpoint
ALTER TABLE "follower_state" ADD CONSTRAINT "follower_state_chain_ck" CHECK ("follower_state"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'));--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_chain_ck";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_chain_ck" CHECK ("payments"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'));--> statement-breakpoint
ALTER TABLE "payment_sightings" DROP CONSTRAINT "payment_sightings_chain_ck";--> statement-breakpoint
ALTER TABLE "payment_sightings" ADD CONSTRAINT "payment_sightings_chain_ck" CHECK ("payment_sightings"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'));--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_chain_ck";--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_chain_ck" CHECK ("refunds"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'));--> statement-breakpoint
ALTER TABLE "wallet_addresses" DROP CONSTRAINT "wallet_addresses_family_ck";--> statement-breakpoint
ALTER TABLE "wallet_addresses" ADD CONSTRAINT "wallet_addresses_family_ck" CHECK ("wallet_addresses"."family" in ('tron', 'evm', 'solana'));
