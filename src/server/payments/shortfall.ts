import { type Shortfall, shortfallOf, toShortfallUnits } from '../../shared/token-amount'
import { sunToUsdMicros } from '../../shared/trx'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import type { OrderRow } from '../orders/orders.repo'
import { creditedStableExact } from './ledger'

/**
 * What a pending order paid in part still lacks, in its token (shared/token-amount.ts says it): the
 * stablecoins the ledger credits, exactly (an 18-decimal transfer one base unit short is one base
 * unit short, never a cent), plus TRX at the order's locked rate. Null unless pending and short.
 */
export async function orderShortfall(db: Db, order: OrderRow): Promise<Shortfall | null> {
  if (order.status !== 'pending') return null
  if (order.amountReceivedUnits <= 0n && order.nativeReceivedUnits <= 0n) return null
  let received = await creditedStableExact(db, order.id)
  if (order.nativeRateE8 !== null && order.nativeReceivedUnits > 0n) {
    received += toShortfallUnits(sunToUsdMicros(order.nativeReceivedUnits, order.nativeRateE8), 6)
  }
  return shortfallOf({
    token: order.token,
    decimals: decimalsOf(order.chain, order.token),
    due: toShortfallUnits(BigInt(order.totalCents), 2),
    received,
  })
}
