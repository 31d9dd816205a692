import * as z from 'zod'
import { normalizeTronAddress } from '../../../shared/tron-address'
import { contractSchema, transferContractSchema } from './tron-blocks'
import { requireAddress, type TronHttp, type TronResult, tronError } from './tron-http'

// Account lists: the explorer's own index of what an address received (v1 API), paged by
// fingerprint. Reconciliation compares them with the ledger the follower built from blocks.

export interface Trc20Transfer {
  transactionId: string
  /** token_info.address, base58. The only thing that identifies the token: symbols are forged. */
  contract: string
  from: string
  to: string
  /** 'Transfer' or 'Approval' (Approval rows carry a value too and must not be counted as payments). */
  type: string
  /** Base units (USDT: 6 decimals). */
  value: bigint
  /** Block time, ms. */
  blockTimestamp: number
}

export interface TrxTransfer {
  transactionId: string
  from: string
  to: string
  /** Sun (1 TRX = 1,000,000 sun). */
  value: bigint
  blockTimestamp: number
  blockNumber: number | null
}

export interface TransferList<T> {
  transfers: T[]
  /** Items dropped because they lacked an id, value, timestamp or valid address. */
  skipped: number
  /** False when paging stopped at maxPages: the oldest matching items may be missing. */
  complete: boolean
}

export interface ListOptions {
  /** Block-time lower bound (ms, inclusive). */
  minTimestamp?: number
  /** Block-time upper bound (ms, inclusive). */
  maxTimestamp?: number
  /** Default true: only confirmed transactions. */
  onlyConfirmed?: boolean
  /** Page size, 1–200. Default 200 (fewest requests). */
  limit?: number
  /** These requests leave the budget queue before routine polling. */
  urgent?: boolean
}

export interface Trc20ListOptions extends ListOptions {
  /** Token contract to ask the explorer for. Default the configured USDT; null lists every token. */
  contract?: string | null
}

export interface AccountLists {
  listTrc20Incoming(
    address: string,
    opts?: Trc20ListOptions,
  ): Promise<TronResult<TransferList<Trc20Transfer>>>
  listTrxIncoming(address: string, opts?: ListOptions): Promise<TronResult<TransferList<TrxTransfer>>>
  /** TRX contract code moved to the address (the internal items of the same list). */
  listInternalIncoming(address: string, opts?: ListOptions): Promise<TronResult<TransferList<TrxTransfer>>>
  /** Plain TRX and TRX moved by contract code, from one read of the list (decision 054). */
  listTrxAndInternalIncoming(
    address: string,
    opts?: ListOptions,
  ): Promise<TronResult<TransferList<TrxTransfer>>>
}

const TX_ID = /^[0-9a-fA-F]{64}$/

const listEnvelopeSchema = z.object({
  data: z.array(z.unknown()),
  success: z.boolean().optional(),
  meta: z.object({ fingerprint: z.string().optional() }).optional(),
})

const trc20ItemSchema = z.object({
  transaction_id: z.string().regex(TX_ID),
  token_info: z.object({ address: z.string() }),
  block_timestamp: z.number().int().nonnegative(),
  from: z.string(),
  to: z.string(),
  type: z.string(),
  value: z.string().regex(/^\d+$/),
})

const transactionSchema = z.object({
  txID: z.string().regex(TX_ID),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  blockNumber: z.number().int().optional(),
  block_timestamp: z.number().int().nonnegative().optional(),
  raw_data: z.object({ contract: z.array(contractSchema).min(1) }),
})

function parseTrc20(item: unknown): Trc20Transfer | null {
  const parsed = trc20ItemSchema.safeParse(item)
  if (!parsed.success) return null
  const row = parsed.data
  const contract = normalizeTronAddress(row.token_info.address)
  const from = normalizeTronAddress(row.from)
  const to = normalizeTronAddress(row.to)
  if (!contract || !from || !to) return null
  return {
    transactionId: row.transaction_id.toLowerCase(),
    contract,
    from,
    to,
    type: row.type,
    value: BigInt(row.value),
    blockTimestamp: row.block_timestamp,
  }
}

const internalItemSchema = z.object({
  internal_tx_id: z.string(),
  tx_id: z.string().regex(TX_ID),
  from_address: z.string(),
  to_address: z.string(),
  block_timestamp: z.number().int().nonnegative(),
  data: z.object({
    rejected: z.boolean().optional(),
    call_value: z
      .object({ _: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]) })
      .optional(),
  }),
})

/** TRX moved by contract code (TronGrid lists it with the address's transactions); other items are ignored. */
function parseInternal(item: unknown): TrxTransfer | null | 'ignore' {
  if (typeof item !== 'object' || item === null || !('internal_tx_id' in item)) return 'ignore'
  const parsed = internalItemSchema.safeParse(item)
  if (!parsed.success) return null
  const row = parsed.data
  const value = BigInt(row.data.call_value?._ ?? 0)
  if (row.data.rejected || value <= 0n) return 'ignore'
  const from = normalizeTronAddress(row.from_address)
  const to = normalizeTronAddress(row.to_address)
  if (!from || !to) return null
  return {
    transactionId: row.tx_id.toLowerCase(),
    from,
    to,
    value,
    blockTimestamp: row.block_timestamp,
    blockNumber: null,
  }
}

function parseTrx(item: unknown): TrxTransfer | null | 'ignore' {
  // Internal TRX items share the list (search_internal): listInternalIncoming reads those.
  if (typeof item === 'object' && item !== null && 'internal_tx_id' in item) return 'ignore'
  const parsed = transactionSchema.safeParse(item)
  if (!parsed.success) return null
  const tx = parsed.data
  const blockTimestamp = tx.block_timestamp
  if (blockTimestamp === undefined) return null
  const contract = tx.raw_data.contract[0]
  // Other contract types (TRC20 calls, staking, …) share this list and are not TRX payments.
  if (contract?.type !== 'TransferContract' || tx.ret?.[0]?.contractRet !== 'SUCCESS') return 'ignore'
  const value = transferContractSchema.safeParse(contract.parameter.value)
  if (!value.success) return null
  const from = normalizeTronAddress(value.data.owner_address)
  const to = normalizeTronAddress(value.data.to_address)
  if (!from || !to) return null
  return {
    transactionId: tx.txID.toLowerCase(),
    from,
    to,
    value: BigInt(value.data.amount),
    blockTimestamp,
    blockNumber: tx.blockNumber ?? null,
  }
}

function listQuery(opts: ListOptions): Record<string, string> {
  const limit = opts.limit ?? 200
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new TypeError('limit must be 1–200')
  const query: Record<string, string> = {
    only_confirmed: String(opts.onlyConfirmed ?? true),
    only_to: 'true',
    limit: String(limit),
  }
  if (opts.minTimestamp !== undefined)
    query.min_timestamp = String(Math.max(0, Math.floor(opts.minTimestamp)))
  if (opts.maxTimestamp !== undefined)
    query.max_timestamp = String(Math.max(0, Math.floor(opts.maxTimestamp)))
  return query
}

export function createAccountLists(
  http: TronHttp,
  options: { usdtContract: string; maxPages: number },
): AccountLists {
  async function listAll<T>(
    path: string,
    query: Record<string, string>,
    parseItem: (item: unknown) => T | null | 'ignore',
    quoteAmounts: boolean,
    urgent = false,
  ): Promise<TronResult<TransferList<T>>> {
    const transfers: T[] = []
    let skipped = 0
    let fingerprint: string | undefined
    const seenFingerprints = new Set<string>()
    for (let page = 0; page < options.maxPages; page++) {
      const res = await http.request(path, {
        query: fingerprint ? { ...query, fingerprint } : query,
        quoteAmounts,
        urgent,
      })
      if (res.status === 'error') return res
      const envelope = listEnvelopeSchema.safeParse(res.json)
      if (!envelope.success) return tronError('malformed', `unexpected list shape from ${path}`)
      for (const item of envelope.data.data) {
        const parsed = parseItem(item)
        if (parsed === null) skipped += 1
        else if (parsed !== 'ignore') transfers.push(parsed)
      }
      fingerprint = envelope.data.meta?.fingerprint || undefined
      if (!fingerprint || envelope.data.data.length === 0) {
        return { status: 'success', transfers, skipped, complete: true }
      }
      if (seenFingerprints.has(fingerprint)) return tronError('malformed', `pagination loop on ${path}`)
      seenFingerprints.add(fingerprint)
    }
    return { status: 'success', transfers, skipped, complete: false }
  }

  return {
    async listTrc20Incoming(address, opts = {}) {
      const query = listQuery(opts)
      const contract = opts.contract === undefined ? options.usdtContract : opts.contract
      if (contract !== null) query.contract_address = requireAddress(contract)
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions/trc20`,
        query,
        parseTrc20,
        false,
        opts.urgent,
      )
    },

    async listTrxIncoming(address, opts = {}) {
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions`,
        listQuery(opts),
        parseTrx,
        true,
        opts.urgent,
      )
    },

    async listInternalIncoming(address, opts = {}) {
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions`,
        { ...listQuery(opts), search_internal: 'true' },
        parseInternal,
        true,
        opts.urgent,
      )
    },

    async listTrxAndInternalIncoming(address, opts = {}) {
      return listAll(
        `/v1/accounts/${requireAddress(address)}/transactions`,
        { ...listQuery(opts), search_internal: 'true' },
        (item) => {
          const internal = parseInternal(item)
          return internal === 'ignore' ? parseTrx(item) : internal
        },
        true,
        opts.urgent,
      )
    },
  }
}
