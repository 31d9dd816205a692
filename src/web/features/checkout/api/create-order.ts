import { useMutation } from '@tanstack/react-query'
import { firstChain } from '../../../../shared/chains'
import {
  type CreateOrderAnswer,
  createOrderAnswerSchema,
  messages,
  walletAddressAnswerSchema,
} from '../../../../shared/checkout'
import type { Locale } from '../../../../shared/locale'
import type { NetworkOption } from '../../../../shared/networks'
import type { MessageId } from '../../../i18n/i18n'
import type { CartItem } from '../../../lib/cart-store'
import type { OrderNetwork } from '../../../lib/checkout-store'
import { callRpc, RpcError } from '../../../lib/rpc-client'

/**
 * A checkout refused: by the server, its `error` already in the buyer's language; or by the page
 * itself, by the id of its text.
 */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly id?: MessageId,
  ) {
    super(message)
  }
}

export interface CreateOrderInput {
  email: string
  lines: readonly CartItem[]
  total: number
  idempotencyKey: string
  /** The language the buyer shops in: the order e-mail and dashboard link use it. */
  locale: Locale
  /** A code the server accepted for this cart; `total` is then the discounted total. */
  discountCode?: string
  /** The network and token the buyer picked; absent: TRON's USDT (the shop's first). */
  network?: NetworkOption
}

type PlacedOrder = Extract<CreateOrderAnswer, { success: true }>

/** What the payment page needs of the order's network (null: a TRON order, shown as always). */
export function networkOfOrder(order: PlacedOrder): OrderNetwork | null {
  if (!order.chain || order.chain === firstChain || !order.token || !order.payment_uri || !order.amount_units)
    return null
  return {
    chain: order.chain,
    token: order.token,
    tokenDecimals: order.token_decimals ?? 6,
    amountUnits: order.amount_units,
    paymentUri: order.payment_uri,
    watched: order.watched ?? [],
    ...(typeof order.confirm_seconds === 'number'
      ? { confirm: { blocks: order.confirm_blocks ?? null, seconds: order.confirm_seconds } }
      : {}),
  }
}

/** The checkout's one write: TanStack Query tracks it; the RPC client does the retrying. */
export function useCreateOrder() {
  return useMutation({ mutationFn: createOrder })
}

/** The order of calls: an address first, then the order with that address. */
export async function createOrder(input: CreateOrderInput): Promise<PlacedOrder> {
  // The offered address is TRON's: on another network the server leases one of that network's.
  const address = input.network ? undefined : await offeredAddress()
  let answer: CreateOrderAnswer
  try {
    answer = createOrderAnswerSchema.parse(
      await callRpc(
        'secure_create_order',
        {
          p_email: input.email,
          p_items: input.lines.map((line) => ({ product: { id: line.product.id }, quantity: line.quantity })),
          p_total: input.total,
          ...(address ? { p_wallet_address: address } : {}),
          p_idempotency_key: input.idempotencyKey,
          p_locale: input.locale,
          ...(input.discountCode ? { p_discount_code: input.discountCode } : {}),
          ...(input.network ? { p_chain: input.network.chain, p_token: input.network.token } : {}),
        },
        // The key makes a retried request answer the same order, so retrying is safe.
        { idempotent: true },
      ),
    )
  } catch (error) {
    if (error instanceof RpcError && error.network) throw error
    // 400: a refused payload; 409: a product sold out meanwhile (its name is in the message).
    if (error instanceof RpcError && (error.status === 400 || error.status === 409))
      throw new CheckoutError(error.message)
    throw new CheckoutError(messages.createFailed, 'checkout.createFailed')
  }
  if (!answer.success) throw new CheckoutError(answer.error)
  return answer
}

async function offeredAddress(): Promise<string> {
  try {
    const answer = walletAddressAnswerSchema.parse(
      await callRpc('secure_get_wallet_address', {}, { idempotent: true }),
    )
    if (!answer.success) throw new CheckoutError(messages.unavailable, 'checkout.unavailable')
    return answer.wallet_address
  } catch (error) {
    // A network failure has already shown the default connection toast.
    if (error instanceof CheckoutError || (error instanceof RpcError && error.network)) throw error
    throw new CheckoutError(messages.unavailable, 'checkout.unavailable')
  }
}
