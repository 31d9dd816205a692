import { explorerTxUrl } from '../../../shared/dashboard'
import { normalizeTronAddress } from '../../../shared/tron-address'
import type { ChainAdapter, ChainToken } from '../chain'
import { createTronFinalReads } from './tron-final'
import { createTronHeadReader } from './tron-head-reader'
import { lookupTronTransaction } from './tron-lookup'
import type { ProviderPool } from './tron-pool'
import { listTronReceived, readTronAccount, tronReceivedInPeriod, tronTransfersTo } from './tron-received'
import { TRON_TOKENS } from './tron-tokens'

// TRON as a chain family (decision 037): USDT-TRC20 and TRX, final once solidified (about 19
// blocks, a minute on mainnet), read through the TRON provider pool.

const TX_HASH = /^(?:0x)?([0-9a-fA-F]{64})$/

/** A TRON transaction id in its normal form: 64 hex digits in lower case (a 0x prefix is dropped). */
export function normalizeTronTxHash(text: string): string | null {
  return TX_HASH.exec(text.trim())?.[1]?.toLowerCase() ?? null
}

/** Each TRON adapter's provider pool, for the tests that drive the pool of a running shop. */
const pools = new WeakMap<ChainAdapter, ProviderPool>()

/** The provider pool a TRON adapter reads through (a TypeError for any other adapter). */
export function tronPoolOf(adapter: ChainAdapter): ProviderPool {
  const pool = pools.get(adapter)
  if (!pool) throw new TypeError(`${adapter.chain} is not a TRON chain's adapter`)
  return pool
}

export interface TronChainOptions {
  pool: ProviderPool
  /** The chain's block time. Default 3000. */
  blockIntervalMs?: number
}

export function createTronChain(opts: TronChainOptions): ChainAdapter {
  const { pool } = opts
  const blockIntervalMs = opts.blockIntervalMs ?? 3000
  // The configured USDT contract stands in the table's row (the devchain's, or mainnet's).
  const tokens: ChainToken[] = TRON_TOKENS.map((t) =>
    t.symbol === 'USDT' ? { ...t, contract: pool.usdtContract } : t,
  )
  const adapter: ChainAdapter = {
    ...createTronFinalReads(pool),
    family: 'tron',
    tokens,
    blockIntervalMs,
    confirmation: { kind: 'solidified' },
    normalizeAddress: (text) => normalizeTronAddress(text.trim()),
    normalizeTxHash: normalizeTronTxHash,
    // Wallets read the TRON address itself from the code; the amount and token are on the page.
    paymentUri: ({ address }) => address,
    explorerTxUrl,
    createHeadReader: ({ now } = {}) => createTronHeadReader(pool, { blockIntervalMs, now }),
    lookupTransaction: (txId, lookup) => lookupTronTransaction(pool, txId, lookup),
    listReceived: (address, range) => listTronReceived(pool, address, range),
    readAccount: (address, range) => readTronAccount(pool, address, range),
    transfersTo: (address, token, sinceMs) => tronTransfersTo(pool, address, token, sinceMs),
    headTime: async () => {
      const head = await pool.getHead()
      return head.status === 'success' ? head.timestamp : null
    },
    receivedInPeriod: (addresses, range) => tronReceivedInPeriod(pool, addresses, range),
    providers: pool,
  }
  pools.set(adapter, pool)
  return adapter
}
