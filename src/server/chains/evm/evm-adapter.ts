import { normalizeEvmAddress, normalizeEvmTxHash } from '../../../shared/evm-address'
import type { ChainAdapter, ChainToken } from '../chain'
import { createFailoverPool } from '../provider-failover'
import type { EvmContext, EvmKeyClient } from './evm-context'
import { checkChain, finalTop } from './evm-context'
import type { EvmChainConfig, EvmProviderConfig } from './evm-env'
import { endpointOf } from './evm-env'
import { evmFinalHead, evmReadFinal } from './evm-final'
import { createEvmHeadReader } from './evm-head'
import { evmLookupTransaction } from './evm-lookup'
import { evmReceivedInPeriod } from './evm-period'
import { evmHeadTime, evmTransfersTo } from './evm-received'
import { createEvmRpc } from './evm-rpc'

// One enabled EVM chain as the shop's chain interface sees it: the family's code bound to the
// chain's table entry and the operator's settings (providers, depth, tokens).

export { normalizeEvmAddress, normalizeEvmTxHash }

export interface EvmAdapterOptions {
  fetch?: typeof globalThis.fetch
  /** Per request. Default 10 s. */
  timeoutMs?: number
  coolingBaseMs?: number
  maxCoolingMs?: number
  setAsideMs?: number
  onSetAside?: (provider: string, reason: string) => void
}

export function createEvmAdapter(config: EvmChainConfig, opts: EvmAdapterOptions = {}): ChainAdapter {
  const { spec } = config
  const tokens: ChainToken[] = config.tokens.map((t) => ({
    symbol: t.symbol,
    contract: t.contract,
    decimals: t.decimals,
    kind: 'stable',
  }))
  const pool = createFailoverPool<EvmKeyClient>({
    providers: config.providers,
    connect(provider, key, countedFetch) {
      const rpc = createEvmRpc({
        url: endpointOf(provider, key),
        fetch: countedFetch,
        timeoutMs: opts.timeoutMs,
      })
      return Object.assign(rpc, { maxBlocks: (provider as EvmProviderConfig).maxBlocks, chainChecked: false })
    },
    async probeHead(client) {
      const wrong = await checkChain(ctx, client, { requests: 0 })
      if (wrong) return wrong
      const head = await client.blockNumber()
      if (head.status === 'error') return head
      return { status: 'success', number: Math.max(0, finalTop(ctx, head.number)) }
    },
    fetch: opts.fetch,
    coolingBaseMs: opts.coolingBaseMs,
    maxCoolingMs: opts.maxCoolingMs,
    setAsideMs: opts.setAsideMs,
    onSetAside: opts.onSetAside,
  })
  const ctx: EvmContext = {
    spec,
    config,
    pool,
    tokens,
    contracts: config.tokens.map((t) => t.contract),
    depth: config.confirmations,
  }

  return {
    chain: spec.key,
    family: 'evm',
    tokens,
    blockIntervalMs: spec.blockTimeMs,
    followEveryMs: Math.max(spec.blockTimeMs, config.pollMs),
    // A caught-up pass: the head, then the range's two headers and its logs in one batch.
    followerRequestsPerSecond: 2 / (Math.max(spec.blockTimeMs, config.pollMs) / 1000),
    confirmation: { kind: 'depth', blocks: config.confirmations },
    normalizeAddress: normalizeEvmAddress,
    normalizeTxHash: normalizeEvmTxHash,
    paymentUri({ address, token, amountUnits }) {
      // EIP-681: a call of the token's transfer(address, uint256) on this chain.
      return `ethereum:${token.contract}@${spec.chainId}/transfer?address=${address}&uint256=${amountUnits}`
    },
    explorerTxUrl: (txId) => spec.explorerTxUrl(txId),
    finalHead: () => evmFinalHead(ctx),
    readFinal: (o) => evmReadFinal(ctx, o),
    createHeadReader: () => createEvmHeadReader(ctx),
    lookupTransaction: (txId, o) => evmLookupTransaction(ctx, txId, o),
    transfersTo: (address, token, sinceMs) => evmTransfersTo(ctx, address, token, sinceMs),
    headTime: () => evmHeadTime(ctx),
    receivedInPeriod: (addresses, range) => evmReceivedInPeriod(ctx, addresses, range),
    providers: pool,
  }
}
