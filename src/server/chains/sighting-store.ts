import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import type { ChainId } from '../../shared/chains'
import type { Db } from '../db/client'
import { followerState, paymentSightings, payments } from '../db/schema'
import { recordOrderEvent } from '../webhooks/events'
import type { HeadSighting } from './chain'

// The sighting watcher's writes (decision 024), per chain: sightings seen at the head, and their
// resolution once the chain's follower has read their height. Never the ledger.

/** A sighting of a transfer to an open order's address. */
export interface FoundSighting extends HeadSighting {
  orderId: string
}

/** Sightings of the chain whose height its follower has read: confirmed when the ledger has them, else dropped. */
export async function resolveSightings(db: Db, chain: ChainId): Promise<string[]> {
  const [row] = await db
    .select({ checkpoint: followerState.checkpointBlock })
    .from(followerState)
    .where(eq(followerState.chain, chain))
  if (!row || row.checkpoint < 0) return []
  const due = await db
    .select({ id: paymentSightings.id, orderId: paymentSightings.orderId })
    .from(paymentSightings)
    .where(
      and(
        eq(paymentSightings.status, 'seen'),
        lte(paymentSightings.blockNumber, row.checkpoint),
        eq(paymentSightings.chain, chain),
      ),
    )
  if (due.length === 0) return []
  const ids = due.map((d) => d.id)
  await db.execute(sql`
    update ${paymentSightings} s set
      status = case when exists (
        select 1 from ${payments} p
        where p.chain = s.chain and p.tx_id = s.tx_id and p.source = s.source and p.event_index = s.event_index
      ) then 'confirmed' else 'dropped' end,
      resolved_at = now()
    where s.id in ${sql.raw(`(${ids.map((n) => Number(n)).join(',')})`)} and s.status = 'seen'`)
  return [...new Set(due.map((d) => d.orderId))]
}

/** Writes what a look found and the head it reached; answers the orders whose sightings changed. */
export async function recordSightings(
  db: Db,
  chain: ChainId,
  found: readonly FoundSighting[],
  headBlock: number | null,
): Promise<string[]> {
  const changed = new Set<string>()
  await db.transaction(async (tx) => {
    for (const f of found) {
      // Seen again after being dropped (the transaction came back in another block): seen again.
      // A confirmed or failed sighting stays as it is.
      const rows = (await tx.execute(sql`
        insert into ${paymentSightings} (chain, order_id, tx_id, source, event_index, token, amount_units,
          from_address, to_address, block_number, block_timestamp, status, failure)
        values (${chain}, ${f.orderId}, ${f.txId}, ${f.source}, ${f.eventIndex}, ${f.token}, ${f.value.toString()},
          ${f.from}, ${f.to}, ${f.blockNumber}, ${f.blockTimestamp}, ${f.failure ? 'failed' : 'seen'}, ${f.failure})
        on conflict (chain, tx_id, source, event_index) do update set
          block_number = excluded.block_number, block_timestamp = excluded.block_timestamp,
          status = 'seen', resolved_at = null
        where ${paymentSightings.status} = 'dropped' and excluded.status = 'seen'
        returning (xmax = 0) as inserted, status`)) as unknown as {
        rows: { inserted: boolean; status: string }[]
      }
      const written = rows.rows[0]
      if (!written) continue
      changed.add(f.orderId)
      if (written.status !== 'seen') continue
      // order.confirming once per order: at its first live sighting.
      const earlier = await tx
        .select({ id: paymentSightings.id })
        .from(paymentSightings)
        .where(
          and(
            eq(paymentSightings.orderId, f.orderId),
            inArray(paymentSightings.status, ['seen', 'confirmed', 'dropped']),
            sql`not (${paymentSightings.chain} = ${chain} and ${paymentSightings.txId} = ${f.txId} and ${paymentSightings.source} = ${f.source} and ${paymentSightings.eventIndex} = ${f.eventIndex})`,
          ),
        )
        .limit(1)
      if (earlier.length === 0) {
        await recordOrderEvent(tx, 'order.confirming', f.orderId, {
          sighting: {
            chain,
            tx_id: f.txId,
            token: f.token,
            amount_units: f.value.toString(),
            block_number: f.blockNumber,
          },
        })
      }
    }
    if (headBlock !== null) {
      await tx
        .update(followerState)
        .set({ headBlock: sql`greatest(coalesce(${followerState.headBlock}, 0), ${headBlock})` })
        .where(eq(followerState.chain, chain))
    }
  })
  return [...changed]
}
