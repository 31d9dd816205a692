-- Order secrets are derived from the client's idempotency key (decision 019): the key itself is
-- kept only as its sha256, so the database alone cannot derive a secret.
ALTER TABLE "orders" RENAME COLUMN "idempotency_key" TO "idempotency_key_hash";--> statement-breakpoint
UPDATE "orders" SET "idempotency_key_hash" = encode(sha256(convert_to("idempotency_key_hash", 'UTF8')), 'hex') WHERE "idempotency_key_hash" IS NOT NULL;--> statement-breakpoint
ALTER INDEX "orders_idempotency_key_uq" RENAME TO "orders_idempotency_key_hash_uq";
