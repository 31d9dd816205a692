-- Hand-written: licences the seller's software can check (decision 038).
-- 1. Per product: how many machines a key may be activated on (null = unlimited) and for how many
--    days after purchase it is valid (null = for ever). Both are copied onto each key when it is
--    handed out, so changing the product later changes only keys sold afterwards.
ALTER TABLE "products" ADD COLUMN "licence_activation_limit" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "licence_validity_days" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_licence_limit_ck" CHECK ("licence_activation_limit" IS NULL OR "licence_activation_limit" BETWEEN 1 AND 100000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_licence_days_ck" CHECK ("licence_validity_days" IS NULL OR "licence_validity_days" BETWEEN 1 AND 36500);--> statement-breakpoint
-- 2. Per key: its own terms (set when handed out, changed by the operator), and the two reasons it
--    may be disabled: the operator's switch, and its order's (cancelled or refunded).
ALTER TABLE "license_keys" ADD COLUMN "activation_limit" integer;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "terms_set" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "operator_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "order_disabled_reason" text;--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_limit_ck" CHECK ("activation_limit" IS NULL OR "activation_limit" BETWEEN 1 AND 100000);--> statement-breakpoint
-- Keys sold before licences existed keep what they had: unlimited, never expiring.
UPDATE "license_keys" SET "terms_set" = true WHERE "order_id" IS NOT NULL;--> statement-breakpoint
-- Keys of orders cancelled before now answer "disabled" like those cancelled from now on.
UPDATE "license_keys" k SET "order_disabled_reason" = 'cancelled'
  FROM "orders" o WHERE o."id" = k."order_id" AND o."status" = 'cancelled';--> statement-breakpoint
-- 3. Activations: one row per machine ("instance") a key is activated on.
CREATE TABLE "license_instances" (
  "id" uuid PRIMARY KEY NOT NULL,
  "license_key_id" integer NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "license_instances_key_idx" ON "license_instances" USING btree ("license_key_id","created_at");--> statement-breakpoint
-- 4. The Ed25519 keys that sign licence tokens. The newest unretired one signs; retired ones are
--    still published until every token they signed has expired.
CREATE TABLE "license_signing_keys" (
  "kid" text PRIMARY KEY NOT NULL,
  "private_key_pem" text NOT NULL,
  "public_jwk" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "retired_at" timestamp with time zone
);
