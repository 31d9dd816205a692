-- Token amounts of every chain at rest: an 18-decimal token (USDT and USDC on BNB Smart Chain)
-- passes bigint's 9.2 × 10^18 at about 9.2 tokens. numeric(78, 0) holds any uint256 exactly.
ALTER TABLE "payments" ALTER COLUMN "amount_units" TYPE numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payment_sightings" ALTER COLUMN "amount_units" TYPE numeric(78, 0);
