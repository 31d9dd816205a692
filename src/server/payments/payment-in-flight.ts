import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { paymentSightings, payments } from '../db/schema'

// Whether the shop has seen a payment towards an order (decision 041): a row of the ledger naming it
// (credited or not: a part payment, a zero-value or held transfer), or a sighting at the head that is
// live or confirmed. A dropped or failed sighting moved nothing and leaves no ledger row. The checkout
// asks this before a browser's earlier order passes its address to the new one without the
// cool-down: any ledger row would make the new order's payment from the same sender look like a
// reused address (decision 020).

/** The orders among `orderIds` that have a payment in flight: a ledger row or a live sighting. */
export async function ordersWithPaymentInFlight(db: Db, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set()
  const ids = JSON.stringify(orderIds)
  const result = (await db.execute(sql`
    select ${payments.orderId} as order_id from ${payments}
    where ${payments.orderId} in (select value::uuid from jsonb_array_elements_text(${ids}::jsonb))
    union
    select ${paymentSightings.orderId} from ${paymentSightings}
    where ${paymentSightings.orderId} in (select value::uuid from jsonb_array_elements_text(${ids}::jsonb))
      and ${paymentSightings.status} in ('seen', 'confirmed')`)) as unknown as {
    rows: { order_id: string }[]
  }
  return new Set(result.rows.map((r) => r.order_id))
}
