import {
  createFailoverPool,
  type ProviderHealth,
  type ProviderTest,
  type RequestBudgetView,
} from '../provider-failover'
import type { ChainReadOptions } from './tron-blocks'
import { createTronClient, type TronClient } from './tron-client'
import type { TronProviderConfig } from './tron-env'
import { requireAddress } from './tron-http'

export type { ProviderHealth, ProviderTest, RequestBudgetView }

// Several TRON HTTP API providers behind the one TronClient interface the follower, the buyer's
// hash check and reconciliation use, through the generic pool (provider-failover.ts: who is asked,
// failover, cooling, budgets). This file says what is wrong with a TRON answer: a provider whose
// blocks do not follow the follower's checkpoint, while another provider's do, is set aside (nothing
// it says is used); one behind another, or silent too long, is asked no more than it must be; a
// block's receipts must list its transactions.

export interface BlockReadOptions extends ChainReadOptions {
  /** The follower's checkpoint: the first block asked for must have it as parent. */
  follows?: { number: number; blockId: string }
}

export interface ReceiptReadOptions extends ChainReadOptions {
  /** The block's transaction ids in order: an answer that does not list exactly these is a fault. */
  expectTxIds?: readonly string[]
}

export interface ProviderPool extends TronClient {
  getSolidBlocks(
    start: number,
    endExclusive: number,
    opts?: BlockReadOptions,
  ): ReturnType<TronClient['getSolidBlocks']>
  getSolidTransactionInfos(
    blockNumber: number,
    opts?: ReceiptReadOptions,
  ): ReturnType<TronClient['getSolidTransactionInfos']>
  getHeadTransactionInfos(
    blockNumber: number,
    opts?: ReceiptReadOptions,
  ): ReturnType<TronClient['getHeadTransactionInfos']>
  health(): ProviderHealth[]
  /** One look at a provider's solidified head, whatever its state (the operator's "test"). */
  test(name: string): Promise<ProviderTest | null>
  /** Asks every provider whose head is older than maxAgeMs for it (for the lag figures). */
  refreshHeads(maxAgeMs: number): Promise<void>
  /** Since when every read has failed on every provider (epoch ms); null while one answers. */
  failingSince(): number | null
  /** The day's request budget and what has been spent of it (one budget for every reader). */
  requestBudget(): RequestBudgetView
}

export interface ProviderPoolOptions {
  providers: TronProviderConfig[]
  usdtContract: string
  timeoutMs?: number
  /** Pages followed per list call. Default 10. */
  maxPages?: number
  fetch?: typeof fetch
  /** First cool-down after a fault; doubles per consecutive fault up to maxCoolingMs. Default 1000. */
  coolingBaseMs?: number
  maxCoolingMs?: number
  /** How long a provider that disagreed with the checkpoint stays set aside. Default 10 min. */
  setAsideMs?: number
  /**
   * A provider that has answered "no new block" for this long is checked against the next provider
   * (the chain makes a block every 3 s). Default 6000.
   */
  staleAfterMs?: number
  /** A provider was set aside (the operator is told). */
  onSetAside?: (name: string, reason: string) => void
}

export function createProviderPool(options: ProviderPoolOptions): ProviderPool {
  const staleAfterMs = options.staleAfterMs ?? 6000
  const usdtContract = requireAddress(options.usdtContract)
  const pool = createFailoverPool<TronClient>({
    providers: options.providers,
    connect: (config, key, countedFetch) =>
      createTronClient({
        baseUrl: config.url,
        apiKey: key ?? undefined,
        usdtContract,
        maxRps: config.rps,
        timeoutMs: options.timeoutMs,
        maxPages: options.maxPages,
        fetch: countedFetch,
      }),
    probeHead: (client, urgent) => client.getSolidHead(urgent ? { urgent: true } : {}),
    fetch: options.fetch,
    coolingBaseMs: options.coolingBaseMs,
    maxCoolingMs: options.maxCoolingMs,
    setAsideMs: options.setAsideMs,
    onSetAside: options.onSetAside,
  })
  const { route, sawHead, bestHead } = pool
  const lane = (opts: ChainReadOptions | undefined) =>
    opts?.lane === 'sightings'
      ? { signal: opts.signal, lane: 'sightings' as const }
      : { signal: opts?.signal }

  return {
    usdtContract,
    health: pool.health,
    test: pool.test,
    refreshHeads: pool.refreshHeads,
    failingSince: pool.failingSince,
    requestBudget: pool.requestBudget,
    pausedUntil: pool.pausedUntil,

    listTrc20Incoming: (address, opts) => route((c) => c.listTrc20Incoming(address, opts)),
    listTrxIncoming: (address, opts) => route((c) => c.listTrxIncoming(address, opts)),
    listInternalIncoming: (address, opts) => route((c) => c.listInternalIncoming(address, opts)),
    listTrxAndInternalIncoming: (address, opts) => route((c) => c.listTrxAndInternalIncoming(address, opts)),
    getTransactionInfo: (txid, opts) =>
      route((c) => c.getTransactionInfo(txid, opts), undefined, { signal: opts?.signal }),

    getSolidBlocks(start, endExclusive, opts = {}) {
      return route(
        (c) => c.getSolidBlocks(start, endExclusive, opts),
        (answer, p) => {
          const last = answer.blocks[answer.blocks.length - 1]
          if (last) sawHead(p, last.number)
          const first = answer.blocks[0]
          const follows = opts.follows
          if (
            first &&
            follows &&
            first.number === follows.number + 1 &&
            first.parentHash !== follows.blockId
          ) {
            return {
              fault: `block ${first.number} (${first.blockId}) does not follow the checkpoint ${follows.number} (${follows.blockId})`,
              disagrees: true,
            }
          }
          if (first) {
            p.freshAt = Date.now()
            return null
          }
          // A provider behind another one answers "no such block yet" for blocks that exist.
          const best = bestHead()
          if (best !== null && best >= start)
            return { fault: `has no block ${start} yet (another has ${best})` }
          if (Date.now() - p.freshAt > staleAfterMs) {
            p.freshAt = Date.now()
            return { fault: `no block after ${start - 1} for ${staleAfterMs / 1000} s`, doubtful: true }
          }
          return null
        },
        { signal: opts.signal },
      )
    },

    getSolidTransactionInfos: (blockNumber, opts = {}) =>
      route(
        (c) => c.getSolidTransactionInfos(blockNumber, opts),
        (answer) => receiptsFault(`block ${blockNumber}`, answer.infos, opts.expectTxIds),
        { signal: opts.signal },
      ),

    getSolidHead: (opts) =>
      route(
        (c) => c.getSolidHead(opts),
        (answer, p) => {
          sawHead(p, answer.number)
          return null
        },
        { signal: opts?.signal },
      ),
    getHead: (opts) => route((c) => c.getHead(opts), undefined, lane(opts)),

    // Head reads (the sighting watcher's): unsolidified, so no checkpoint to check them against.
    getHeadBlocks: (start, endExclusive, opts = {}) =>
      route((c) => c.getHeadBlocks(start, endExclusive, opts), undefined, lane(opts)),
    getHeadTransactionInfos: (blockNumber, opts = {}) =>
      route(
        (c) => c.getHeadTransactionInfos(blockNumber, opts),
        (answer) => receiptsFault(`head block ${blockNumber}`, answer.infos, opts.expectTxIds),
        lane(opts),
      ),
  }
}

/** A block's receipts must list its transactions, in order; else the provider answered short. */
function receiptsFault(
  block: string,
  infos: readonly { txId: string }[],
  ids: readonly string[] | undefined,
): { fault: string } | null {
  if (!ids) return null
  const same = infos.length === ids.length && infos.every((info, i) => info.txId === ids[i])
  return same
    ? null
    : { fault: `receipts of ${block} list ${infos.length} of its ${ids.length} transactions` }
}
