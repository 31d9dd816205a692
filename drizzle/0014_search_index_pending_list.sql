-- Hand-written: the admin search's trigram index (0004, PostgreSQL only) keeps a small pending list.
-- New entries wait in the list and are merged into the index when it is full; with the default
-- (4 MB, a few thousand orders' trigrams) the one insert that found it full merged all of it while
-- its buyers waited: a batch of checkouts paid ~200 ms every few thousand orders. With 1 MB the
-- merges come four times as often and each is short; turning the list off instead made every
-- order cost PostgreSQL half as much again (bench:orders).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'orders_search_trgm_idx' AND relkind = 'i') THEN
    ALTER INDEX "orders_search_trgm_idx" SET (gin_pending_list_limit = 1024);
  END IF;
END
$$;
