-- A refund's amounts at the token's decimals on its chain: 18-decimal stablecoins (BNB Smart Chain) pass
-- bigint's range above about 9.2 tokens, so they are numeric(78, 0) like the ledger's (payments.amount_units).
ALTER TABLE "refunds" ALTER COLUMN "amount_units" TYPE numeric(78, 0);--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "tx_amount_units" TYPE numeric(78, 0);
