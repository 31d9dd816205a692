import { cancelOrderInputSchema, createOrderInputSchema, messages } from '../../shared/checkout'
import { emptyPayloadSchema } from '../../shared/rpc'
import type { Database } from '../db/client'
import type { PaymentRules } from '../payments/payment-rules'
import type { TrxPriceSource } from '../pricing/trx-price'
import { defineRpc } from '../rpc'
import { findFreeAddress } from '../wallets/wallets.repo'
import { cancelPendingOrder } from './orders.repo'
import { placeOrder } from './place-order'

export function ordersRpcs(database: Database, rules: PaymentRules, prices: TrxPriceSource) {
  const { db } = database
  const placeOptions = {
    windowMs: Math.round(rules.windowMs),
    graceMs: Math.round(rules.graceMs),
    trxRate: () => prices.getRate(),
  }
  return [
    defineRpc({
      name: 'secure_get_wallet_address',
      input: emptyPayloadSchema,
      handler: async () => {
        const address = await findFreeAddress(db)
        return address
          ? { success: true, wallet_address: address }
          : { success: false, error: messages.unavailable }
      },
    }),
    defineRpc({
      name: 'secure_create_order',
      input: createOrderInputSchema,
      handler: async (input, { request }) => {
        const header = request.headers['idempotency-key']
        const key =
          input.p_idempotency_key ?? (typeof header === 'string' && header !== '' ? header : undefined)
        return placeOrder(db, { ...input, p_idempotency_key: key?.slice(0, 100) }, placeOptions)
      },
    }),
    defineRpc({
      name: 'secure_cancel_order',
      input: cancelOrderInputSchema,
      handler: async (input) => {
        const cancelled = await cancelPendingOrder(db, input.p_order_id, rules.cooldownMs)
        return cancelled
          ? { success: true }
          : { success: false, error: 'This order can no longer be cancelled' }
      },
    }),
  ]
}
