-- Hand-written: discount codes (the discounts module), the code and discount an order was placed
-- with (the orders module), and the one-time links that e-mail a buyer their orders (order links).
CREATE TABLE "discount_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent_bp" integer,
	"amount_cents" bigint,
	"min_total_cents" bigint,
	"max_discount_cents" bigint,
	"product_ids" jsonb,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_email" integer,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_kind_ck" CHECK (("kind" = 'percent' AND "percent_bp" BETWEEN 1 AND 10000 AND "amount_cents" IS NULL)
		OR ("kind" = 'fixed' AND "amount_cents" > 0 AND "percent_bp" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_uq" ON "discount_codes" USING btree (lower("code"));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code_id" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_ck" CHECK ("discount_cents" >= 0);
--> statement-breakpoint
CREATE INDEX "orders_discount_code_idx" ON "orders" USING btree ("discount_code_id",lower("email")) WHERE discount_code_id is not null;
--> statement-breakpoint
CREATE INDEX "orders_paid_email_idx" ON "orders" USING btree (lower("email")) WHERE status in ('paid', 'completed');
--> statement-breakpoint
CREATE TABLE "order_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "order_links_expires_idx" ON "order_links" USING btree ("expires_at");
