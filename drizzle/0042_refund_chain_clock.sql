-- The chain's own time when a refund became ready (its head block's time, read right then, or at
-- the watch's next look when no provider answered): the watch and the hash check count transfers
-- from after it, never from this server's clock (decision 060).
ALTER TABLE "refunds" ADD COLUMN "ready_chain_at" timestamp with time zone;
