import type { CreateOrderAnswer } from '../../shared/checkout'
import type { Db } from '../db/client'
import type { CheckoutClient } from './checkout-limits'
import {
  type PlaceInput,
  type PlaceOrderOptions,
  type PlaceOutcome,
  type PlaceRequest,
  placeRound,
} from './place-order'

// The batcher (decision 018): order requests that arrive while earlier ones are being placed are
// gathered and placed together, in rounds in which no two requests share an idempotency key or a
// browser; place-order.ts places each round in one transaction.

/**
 * The keys no two requests of one round may share: a retry must find the order its first attempt
 * placed, and a browser's new checkout must find (and give back) the one it started before.
 * Requests of one client or one e-mail may share a round: the limits count them in order.
 */
function keysOf({ input, client }: PlaceRequest): string[] {
  const keys: string[] = []
  if (input.p_idempotency_key) keys.push(`idem ${input.p_idempotency_key}`)
  if (client) keys.push(`browser ${client.browserKey}`)
  return keys
}

/**
 * Places orders in rounds (placeRound places each): a request that shares a key with an earlier
 * one waits for a later round. Answers one outcome per request, in order.
 */
export async function placeOrders(
  db: Db,
  requests: readonly PlaceRequest[],
  opts: PlaceOrderOptions,
): Promise<PlaceOutcome[]> {
  // Requests that share a key with an earlier one wait for a later round: they must see its result.
  const outcomes: PlaceOutcome[] = new Array(requests.length)
  let waiting = requests.map((request, index) => ({ request, index }))
  while (waiting.length > 0) {
    const taken = new Set<string>()
    const round: typeof waiting = []
    const later: typeof waiting = []
    for (const entry of waiting) {
      const keys = keysOf(entry.request)
      if (keys.some((k) => taken.has(k))) later.push(entry)
      else {
        for (const k of keys) taken.add(k)
        round.push(entry)
      }
    }
    const results = await placeRound(
      db,
      round.map((e) => e.request),
      opts,
    )
    round.forEach((e, i) => {
      outcomes[e.index] = results[i] as PlaceOutcome
    })
    waiting = later
  }
  return outcomes
}

/**
 * Gathers the order requests that arrive while earlier ones are being placed and places them
 * together. A request that arrives when a batch slot is free starts at once: nothing waits on a
 * timer, so a quiet shop answers exactly as fast as before.
 */
export function createOrderPlacer(
  db: Db,
  opts: PlaceOrderOptions,
  { maxBatch = 64, maxInFlight = 1 }: { maxBatch?: number; maxInFlight?: number } = {},
) {
  const queue: {
    request: PlaceRequest
    resolve: (a: CreateOrderAnswer) => void
    reject: (e: unknown) => void
  }[] = []
  let inFlight = 0
  const pump = () => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch)
      inFlight++
      placeOrders(
        db,
        batch.map((b) => b.request),
        opts,
      )
        .then(
          (outcomes) =>
            batch.forEach((b, i) => {
              const outcome = outcomes[i]
              if (outcome?.ok) b.resolve(outcome.answer)
              else b.reject(outcome ? outcome.error : new Error('order request not answered'))
            }),
          (error) => {
            for (const b of batch) b.reject(error)
          },
        )
        .finally(() => {
          inFlight--
          pump()
        })
    }
  }
  return {
    place(
      input: PlaceInput,
      client?: CheckoutClient,
      extra: Pick<PlaceRequest, 'amountCents' | 'windowMs' | 'attach'> = {},
    ): Promise<CreateOrderAnswer> {
      return new Promise((resolve, reject) => {
        queue.push({ request: { input, client, ...extra }, resolve, reject })
        pump()
      })
    },
  }
}
