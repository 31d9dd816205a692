-- A refund is paid on a chain: the one its order was paid on by default (decision 039, amended).
-- Every refund so far was on TRON. The token may be USDC too (an EVM chain's stablecoin); amounts
-- stay base units at the token's decimals on that chain.
ALTER TABLE "refunds" ADD COLUMN "chain" text DEFAULT 'tron' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_chain_ck" CHECK ("refunds"."chain" in ('tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base'));--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_token_ck";--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_token_ck" CHECK ("refunds"."token" in ('USDT', 'USDC', 'TRX'));
