import { cancelOrderInputSchema, createOrderInputSchema } from '../../shared/checkout'
import { emptyPayloadSchema } from '../../shared/rpc'
import type { ChainRegistry } from '../chains/chain-registry'
import type { SightingWatcher } from '../chains/sighting-watcher'
import type { Database } from '../db/client'
import type { Env } from '../env'
import { AppError } from '../errors'
import { refusal, refused } from '../i18n/refusals'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { chooseNetwork, orderNetwork } from '../payments/order-network'
import type { PaymentRules } from '../payments/payment-rules'
import type { PaymentDelay } from '../payments/payments-health'
import type { TrxPriceSource } from '../pricing/trx-price'
import { defineRpc } from '../rpc'
import { findFreeAddress } from '../wallets/wallets.repo'
import { checkoutClient } from './checkout-limits'
import { createOrderPlacer } from './order-batcher'
import { orderSecretMatches } from './order-secret'
import { cancelPendingOrder, findOrder } from './orders.repo'

const MINUTE = 60_000
const ORDER_BATCHES_IN_FLIGHT = 2

export function ordersRpcs(
  database: Database,
  env: Env,
  rules: PaymentRules,
  prices: TrxPriceSource,
  delay: PaymentDelay,
  chains: ChainRegistry,
  /**
   * A buyer wants to pay: an order was placed, or a checkout was refused while detection lags. An
   * idle follower looks again at once rather than at its idle pace.
   */
  onCheckout: () => void = () => {},
  /** The sighting watchers: a returning browser's checkout has them look once more first (decision 041). */
  sightingWatchers: () => readonly SightingWatcher[] = () => [],
) {
  const { db } = database
  const placeOptions = {
    windowMs: Math.round(rules.windowMs),
    graceMs: Math.round(rules.graceMs),
    trxRate: () => prices.getRate(),
    limits: {
      maxPendingPerClient: env.CHECKOUT_PENDING_PER_CLIENT,
      maxPendingPerEmail: env.CHECKOUT_PENDING_PER_EMAIL,
      maxHeldPerNetwork: env.CHECKOUT_HELD_PER_NETWORK,
      reservePercent: env.CHECKOUT_RESERVE_PERCENT,
      cooldownMs: rules.cooldownMs,
    },
  }
  // Orders that arrive together are placed in one transaction. The embedded database has one
  // connection: one batch at a time. PostgreSQL runs two side by side (more batches contend for the
  // same first free addresses and cost more than they gain: bench:orders) and leaves the rest of the
  // pool to every other call.
  const placer = createOrderPlacer(db, placeOptions, {
    maxInFlight: database.kind === 'pglite' ? 1 : ORDER_BATCHES_IN_FLIGHT,
  })
  const secureCookie = env.PUBLIC_URL?.startsWith('https:') ?? false
  // Each creation leases an address for window + grace: one client may start only so many a minute.
  const creations = createWindowLimiter({ limit: env.CHECKOUT_CREATIONS_PER_MINUTE, windowMs: MINUTE })
  return [
    defineRpc({
      name: 'secure_get_wallet_address',
      input: emptyPayloadSchema,
      handler: async () => {
        if (await delay.refuseCheckouts()) {
          onCheckout()
          return refused('checkout.unavailable')
        }
        // The address form of the shop's first network (a client from before the network choice).
        const first = chains.enabled()[0]
        const address = first ? await findFreeAddress(db, first.family) : null
        return address ? { success: true, wallet_address: address } : refused('checkout.unavailable')
      },
    }),
    defineRpc({
      name: 'secure_create_order',
      input: createOrderInputSchema,
      handler: async (input, { request, reply }) => {
        const wait = creations.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('checkout.tooManyAttempts'), wait)
        // The operator's choice while payment detection lags: no new orders rather than a warning.
        if (await delay.refuseCheckouts()) {
          onCheckout()
          return refused('checkout.unavailable')
        }
        const header = request.headers['idempotency-key']
        const key =
          input.p_idempotency_key ?? (typeof header === 'string' && header !== '' ? header : undefined)
        // The network and token: one the shop has enabled, a token accepted on it (400 otherwise).
        const choice = chooseNetwork(chains, input.p_chain, input.p_token)
        if (!choice.ok) throw new AppError('bad_request', choice.error)
        const client = checkoutClient(request, reply, secureCookie)
        // A returning browser's earlier order may give its address back unless a payment to it is in
        // flight: a watcher whose last look is older than a block time looks once more first, so a
        // transfer in a block it had not read yet keeps that order (bounded: the checkout goes on).
        if (client.returning) await lookBeforeGivingBack(sightingWatchers())
        const answer = await placer.place(
          { ...input, p_chain: choice.chain, p_token: choice.token, p_idempotency_key: key?.slice(0, 100) },
          client,
        )
        if (!answer.success || !answer.chain || !answer.token) return answer
        onCheckout()
        const network = orderNetwork(chains, {
          chain: answer.chain,
          token: answer.token,
          // total is centsToDollars of the order's cents: the round trip is exact.
          totalCents: Math.round(answer.total * 100),
          walletAddress: answer.wallet_address,
        })
        return network ? { ...answer, ...network } : answer
      },
    }),
    defineRpc({
      name: 'secure_cancel_order',
      input: cancelOrderInputSchema,
      handler: async (input) => {
        // Only the browser that placed the order may cancel it (orders placed before secrets existed
        // have none and stay cancellable by id).
        const order = await findOrder(db, input.p_order_id)
        const allowed = order && (!order.secretHash || orderSecretMatches(order, input.p_order_secret))
        const cancelled = allowed ? await cancelPendingOrder(db, input.p_order_id, rules.cooldownMs) : false
        return cancelled ? { success: true } : refused('checkout.notCancellable')
      },
    }),
  ]
}

const LOOK_BEFORE_GIVING_BACK_MS = 3_000

/** Each watcher looks once more if its last look is stale, all at once, for at most 3 s. */
async function lookBeforeGivingBack(watchers: readonly SightingWatcher[]): Promise<void> {
  if (watchers.length === 0) return
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, LOOK_BEFORE_GIVING_BACK_MS)
  })
  const looks = Promise.all(watchers.map((w) => w.lookIfStale().catch(() => undefined)))
  await Promise.race([looks, deadline]).finally(() => clearTimeout(timer))
}
