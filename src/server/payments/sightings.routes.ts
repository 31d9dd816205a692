import type { AdminOrderSightings } from '../../shared/admin'
import { orderIdInputSchema } from '../../shared/admin'
import type { Db } from '../db/client'
import { defineRpc } from '../rpc'
import { sightingsOfOrder, tokenAmount } from './sightings'

/** The admin's order detail: transfers seen in the head before they were final, failed ones too. */
export function sightingsRpcs(db: Db) {
  return [
    defineRpc({
      name: 'secure_fetch_order_sightings',
      input: orderIdInputSchema,
      admin: true,
      handler: async (input): Promise<AdminOrderSightings> => ({
        success: true,
        sightings: (await sightingsOfOrder(db, input.p_order_id)).map((r) => ({
          tx_id: r.txId,
          token: r.token,
          amount: tokenAmount(r),
          block_number: r.blockNumber,
          status: r.status,
          failure: r.failure,
        })),
      }),
    }),
  ]
}
