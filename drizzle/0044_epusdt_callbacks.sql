-- The epusdt order protocol's paid callbacks go through the webhook outbox: a seller's notify_url
-- is a webhook endpoint of its own kind, 'epusdt' (one row per URL, no secret: the worker signs
-- each callback with EPUSDT_TOKEN as it sends it).
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_kind_ck";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_kind_ck" CHECK ("webhook_endpoints"."kind" in ('stablecart', 'greenfield', 'epusdt'));
