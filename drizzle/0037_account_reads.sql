-- The account reads (decision 054): for each pool address, how far (block time) its account lists
-- have been read into the ledger, and when that read was made. Kept in the database so that a
-- restart reads neither again what was read nor misses what was not. One row per chain and address;
-- the pass looks addresses up by that key (the pool's size, not the number of orders, bounds it),
-- and the oldest read first by the second index.
CREATE TABLE account_reads (
  chain text NOT NULL,
  address text NOT NULL,
  read_to timestamptz NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (chain, address)
);--> statement-breakpoint
CREATE INDEX account_reads_read_at_idx ON account_reads (chain, read_at);--> statement-breakpoint
-- The open lease of an address (its order still pending), without reading the ended ones: the
-- account reads and the checkout find the open leases among a million ended ones by this index.
CREATE INDEX address_leases_open_idx ON address_leases (address) WHERE ended_at IS NULL;
