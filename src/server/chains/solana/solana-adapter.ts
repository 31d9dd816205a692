import type { ChainAdapter, ChainError } from '../chain'
import type { EvmAdapterOptions } from '../evm/evm-adapter'
import { endpointOf } from '../evm/evm-env'
import { createFailoverPool } from '../provider-failover'
import { normalizeSolanaAddress, normalizeSolanaSignature } from './solana-address'
import type { SolanaContext } from './solana-context'
import { blockTimeMs, malformed } from './solana-context'
import type { SolanaConfig } from './solana-env'
import { slotRef, solanaFinalHead, solanaReadFinal } from './solana-final'
import { createSolanaHeadReader } from './solana-head'
import { solanaExplorerTxUrl, solanaPayUri } from './solana-links'
import { solanaLookupTransaction } from './solana-lookup'
import { solanaListReceived, solanaReceivedInPeriod, solanaTransfersTo } from './solana-received'
import { createSolanaRpc } from './solana-rpc'
import { createScanner } from './solana-scan'
import { SOLANA_TOKENS } from './solana-tokens'

// Solana as the shop's chain interface sees it: the family's reads bound to the operator's
// providers. Payments are USDT and USDC (SPL Token) into the order address's associated token
// accounts; "confirming" at the `confirmed` commitment, paid at `finalized`.

/** As an EVM chain's: fetch, timeouts, cooling and set-aside of the provider pool. */
export type SolanaAdapterOptions = EvmAdapterOptions

export function createSolanaAdapter(config: SolanaConfig, opts: SolanaAdapterOptions = {}): ChainAdapter {
  const pool = createFailoverPool({
    providers: config.providers,
    connect: (provider, key, countedFetch) =>
      createSolanaRpc({ url: endpointOf(provider, key), fetch: countedFetch, timeoutMs: opts.timeoutMs }),
    async probeHead(client) {
      const slot = await client.call<unknown>('getSlot', [{ commitment: 'finalized' }])
      if (slot.status === 'error') return slot
      if (typeof slot.result !== 'number') return malformed('getSlot answered no slot')
      return { status: 'success', number: slot.result }
    },
    fetch: opts.fetch,
    coolingBaseMs: opts.coolingBaseMs,
    maxCoolingMs: opts.maxCoolingMs,
    setAsideMs: opts.setAsideMs,
    onSetAside: opts.onSetAside,
  })
  const ctx: SolanaContext = { config, pool, tokens: SOLANA_TOKENS, txCache: new Map(), final: null }
  const scanner = createScanner(ctx)
  return {
    chain: 'solana',
    family: 'solana',
    tokens: SOLANA_TOKENS,
    // A slot is ~400 ms; the follower and the watcher look every SOLANA_POLL_MS at most, and a look
    // reads the due accounts' balances 100 to a request, listing only those that moved (solana-scan.ts).
    blockIntervalMs: 400,
    followEveryMs: config.pollMs,
    followerRequestsPerSecond: 0,
    watchesActiveAddresses: true,
    // Finalized about 32 slots after its own: some 13 s on mainnet.
    confirmation: { kind: 'solidified', expectedMs: 13_000 },
    normalizeAddress: normalizeSolanaAddress,
    normalizeTxHash: normalizeSolanaSignature,
    paymentUri: ({ address, token, amountUnits }) =>
      solanaPayUri({
        address,
        mint: token.contract ?? '',
        amountUnits,
        decimals: token.decimals,
        label: config.payLabel ?? undefined,
      }),
    explorerTxUrl: solanaExplorerTxUrl,
    finalHead: () => solanaFinalHead(ctx),
    headTime: () => solanaHeadTime(ctx),
    readFinal: (o) => solanaReadFinal(ctx, scanner, o),
    createHeadReader: () => createSolanaHeadReader(ctx, scanner),
    lookupTransaction: (sig, o) => solanaLookupTransaction(ctx, sig, o),
    listReceived: (address, range) => solanaListReceived(ctx, address, range),
    transfersTo: (address, token, sinceMs) => solanaTransfersTo(ctx, address, token, sinceMs),
    receivedInPeriod: (addresses, range) => solanaReceivedInPeriod(ctx, addresses, range),
    providers: pool,
  }
}

export { slotRef }

/** The chain's own clock (refunds, decision 060): the time of the newest confirmed slot, ms. */
async function solanaHeadTime(ctx: SolanaContext): Promise<number | null> {
  const res = await ctx.pool.route<{ time: number }, ChainError>(async (client) => {
    const slot = await client.call<unknown>('getSlot', [{ commitment: 'confirmed' }])
    if (slot.status === 'error') return slot
    if (typeof slot.result !== 'number') return malformed('getSlot answered no slot')
    const time = await client.call<unknown>('getBlockTime', [slot.result])
    if (time.status === 'error') return time
    if (typeof time.result !== 'number')
      return malformed(`getBlockTime answered no time for slot ${slot.result}`)
    return { status: 'success', time: blockTimeMs(time.result) }
  })
  return res.status === 'success' ? res.time : null
}
