import * as z from 'zod'
import { normalizeTronAddress } from '../../../shared/tron-address'
import { isObject, type TronHttp, type TronResult, tronError } from './tron-http'

// Block reads: the solidified blocks and per-block transaction infos the chain follower reads, and
// the head headers. Each answer is checked for shape and linkage; a bad one is a 'malformed' error.

export interface ChainTx {
  /** Lower-case hex. */
  txId: string
  /** ret[0].contractRet ('SUCCESS', 'REVERT', …). */
  contractRet: string | null
  /** raw_data.contract[0].type. */
  type: string | null
  /** TransferContract: native TRX, value in sun. */
  trx: { from: string; to: string; value: bigint } | null
  /** TriggerSmartContract: the called contract (base58). */
  calledContract: string | null
  /** TriggerSmartContract: its call data, lower-case hex ('' when none); null for other types. */
  callData: string | null
  /** TriggerSmartContract: the caller (owner_address, base58); null for other types. */
  caller: string | null
}

export interface ChainBlock {
  number: number
  blockId: string
  parentHash: string
  /** Block time, ms. */
  timestamp: number
  transactions: ChainTx[]
}

export interface ChainLog {
  /** The emitting contract, base58. */
  address: string
  /** Lower-case hex, no 0x. */
  topics: string[]
  /** Lower-case hex, no 0x ('' when the log has no data). */
  data: string
}

export interface ChainTxInfo {
  txId: string
  blockNumber: number
  blockTimestamp: number
  /** receipt.result SUCCESS (or no receipt result for non-contract txs) and top-level result not FAILED. */
  success: boolean
  /** receipt.result as the node printed it (SUCCESS, REVERT, OUT_OF_ENERGY, …); null when absent. */
  result: string | null
  /** As the node printed them; a failed transaction has none. */
  logs: ChainLog[]
  /** Internal TRX moves: callValue > 0 with no tokenId; index = position in internal_transactions. */
  internalTransfers: { index: number; from: string; to: string; value: bigint; rejected: boolean }[]
}

export interface ChainHead {
  number: number
  blockId: string
  timestamp: number
}

export interface ChainReadOptions {
  /** Leave the budget queue before routine requests. */
  urgent?: boolean
  /** Gives up (a 'timeout' error) when aborted, whether still queued or waiting for the answer. */
  signal?: AbortSignal
  /** Who reads: the provider pool counts the sighting watcher's requests apart (decision 024). */
  lane?: 'sightings'
}

export interface BlockReads {
  /**
   * Solidified blocks [start, endExclusive), at most 100, via getblockbylimitnext. Only the contiguous
   * run starting at `start` is returned (possibly none: the node may not have them yet); each block's
   * parentHash is checked against the previous blockID.
   */
  getSolidBlocks(
    start: number,
    endExclusive: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ blocks: ChainBlock[] }>>
  /** Every transaction info of one solidified block, in block order ([] while the node lacks the block). */
  getSolidTransactionInfos(
    blockNumber: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ infos: ChainTxInfo[] }>>
  /** The solidified head block's header. */
  getSolidHead(opts?: ChainReadOptions): Promise<TronResult<ChainHead>>
  /** The (unsolidified) head block's header. */
  getHead(opts?: ChainReadOptions): Promise<TronResult<ChainHead>>
  /**
   * Head blocks [start, endExclusive), at most 100, from the full node (/wallet/getblockbylimitnext):
   * unsolidified, so a later read may find another block at the same height. Same checks as above.
   */
  getHeadBlocks(
    start: number,
    endExclusive: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ blocks: ChainBlock[] }>>
  /** Every transaction info of one head block, in block order ([] while the node lacks the block). */
  getHeadTransactionInfos(
    blockNumber: number,
    opts?: ChainReadOptions,
  ): Promise<TronResult<{ infos: ChainTxInfo[] }>>
}

const HASH = /^[0-9a-fA-F]{64}$/
const HEX_BYTES = /^(?:[0-9a-fA-F]{2})*$/
// java-tron serves at most this many blocks per getblockbylimitnext call.
const MAX_BLOCKS_PER_CALL = 100

// ---- response schemas (only what we read; the explorer adds fields freely) ----

const sunSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)])

export const contractSchema = z.object({
  type: z.string(),
  parameter: z.object({ value: z.record(z.string(), z.unknown()) }),
})

export const transferContractSchema = z.object({
  amount: sunSchema,
  owner_address: z.string(),
  to_address: z.string(),
})

const triggerContractSchema = z.object({
  data: z.string().optional(),
  owner_address: z.string(),
  contract_address: z.string(),
})

const blockSchema = z.object({
  blockID: z.string().regex(HASH),
  block_header: z.object({
    raw_data: z.object({
      number: z.number().int().nonnegative(),
      parentHash: z.string().regex(HASH),
      timestamp: z.number().int().nonnegative(),
    }),
  }),
  // Omitted, not empty, when the block has no transactions.
  transactions: z.array(z.unknown()).optional(),
})

const blockTransactionSchema = z.object({
  txID: z.string().regex(HASH),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  raw_data: z.object({ contract: z.array(contractSchema) }),
})

const chainTxInfoSchema = z.object({
  id: z.string().regex(HASH),
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  log: z
    .array(
      z.object({
        address: z.string(),
        topics: z.array(z.string().regex(HASH)).optional(),
        data: z.string().regex(HEX_BYTES).optional(),
      }),
    )
    .optional(),
  internal_transactions: z
    .array(
      z.object({
        caller_address: z.string(),
        transferTo_address: z.string(),
        callValueInfo: z
          .array(z.object({ callValue: sunSchema.optional(), tokenId: z.string().optional() }))
          .optional(),
        rejected: z.boolean().optional(),
      }),
    )
    .optional(),
})

/** A block, or why it is not one. */
function parseBlock(item: unknown): ChainBlock | string {
  const parsed = blockSchema.safeParse(item)
  if (!parsed.success) return 'a block lacks blockID, number, parentHash or timestamp'
  const raw = parsed.data.block_header.raw_data
  const blockId = parsed.data.blockID.toLowerCase()
  // A blockID starts with the block number (8 bytes): a cheap check that id and header belong together.
  if (Number.parseInt(blockId.slice(0, 16), 16) !== raw.number) {
    return `blockID ${blockId} does not carry block number ${raw.number}`
  }
  const transactions: ChainTx[] = []
  for (const tx of parsed.data.transactions ?? []) {
    const chainTx = parseBlockTransaction(tx)
    if (typeof chainTx === 'string') return `block ${raw.number}: ${chainTx}`
    transactions.push(chainTx)
  }
  return {
    number: raw.number,
    blockId,
    parentHash: raw.parentHash.toLowerCase(),
    timestamp: raw.timestamp,
    transactions,
  }
}

function parseBlockTransaction(item: unknown): ChainTx | string {
  const parsed = blockTransactionSchema.safeParse(item)
  if (!parsed.success) return 'a transaction lacks txID or raw_data.contract'
  const tx = parsed.data
  const txId = tx.txID.toLowerCase()
  const contract = tx.raw_data.contract[0]
  let trx: ChainTx['trx'] = null
  let calledContract: string | null = null
  let callData: string | null = null
  let caller: string | null = null
  if (contract?.type === 'TransferContract') {
    const v = transferContractSchema.safeParse(contract.parameter.value)
    const from = v.success ? normalizeTronAddress(v.data.owner_address) : null
    const to = v.success ? normalizeTronAddress(v.data.to_address) : null
    if (!v.success || !from || !to) return `TransferContract ${txId} lacks a valid amount or address`
    trx = { from, to, value: BigInt(v.data.amount) }
  } else if (contract?.type === 'TriggerSmartContract') {
    const v = triggerContractSchema.safeParse(contract.parameter.value)
    calledContract = v.success ? normalizeTronAddress(v.data.contract_address) : null
    if (!calledContract) return `TriggerSmartContract ${txId} lacks a valid contract_address`
    callData = (v.data?.data ?? '').toLowerCase()
    caller = v.success ? normalizeTronAddress(v.data.owner_address) : null
  }
  return {
    txId,
    contractRet: tx.ret?.[0]?.contractRet ?? null,
    type: contract?.type ?? null,
    trx,
    calledContract,
    callData,
    caller,
  }
}

function parseTxInfo(item: unknown): ChainTxInfo | string {
  const parsed = chainTxInfoSchema.safeParse(item)
  if (!parsed.success)
    return 'not a transaction info (id, blockNumber, blockTimeStamp, log, internal_transactions)'
  const info = parsed.data
  const logs: ChainLog[] = []
  for (const log of info.log ?? []) {
    // Hex without 41 as printed by default; base58 when the node was asked for visible addresses.
    const address = normalizeTronAddress(log.address)
    if (!address) return `log address ${JSON.stringify(log.address)} of ${info.id} is not an address`
    logs.push({
      address,
      topics: (log.topics ?? []).map((t) => t.toLowerCase()),
      data: (log.data ?? '').toLowerCase(),
    })
  }
  const internalTransfers: ChainTxInfo['internalTransfers'] = []
  for (const [index, internal] of (info.internal_transactions ?? []).entries()) {
    // TRX only: an entry with a tokenId moves a TRC10 token, and an empty entry moves nothing.
    let value = 0n
    for (const entry of internal.callValueInfo ?? []) {
      if (entry.tokenId || entry.callValue === undefined) continue
      value += BigInt(entry.callValue)
    }
    if (value <= 0n) continue
    const from = normalizeTronAddress(internal.caller_address)
    const to = normalizeTronAddress(internal.transferTo_address)
    if (!from || !to) return `internal transaction ${index} of ${info.id} lacks a valid address`
    internalTransfers.push({ index, from, to, value, rejected: internal.rejected === true })
  }
  const receiptResult = info.receipt?.result
  return {
    txId: info.id.toLowerCase(),
    blockNumber: info.blockNumber,
    blockTimestamp: info.blockTimeStamp,
    success: (receiptResult === undefined || receiptResult === 'SUCCESS') && info.result !== 'FAILED',
    result: receiptResult ?? null,
    logs,
    internalTransfers,
  }
}

/** The full node (head) or the solidity node (solidified blocks only). */
type Node = 'wallet' | 'walletsolidity'

export function createBlockReads(http: TronHttp): BlockReads {
  async function getHeader(path: string, opts: ChainReadOptions): Promise<TronResult<ChainHead>> {
    const res = await http.request(path, {
      body: { detail: false },
      urgent: opts.urgent,
      signal: opts.signal,
    })
    if (res.status === 'error') return res
    const parsed = blockSchema.safeParse(res.json)
    // A lagging back end answers {} here.
    if (!parsed.success) return tronError('malformed', `unexpected block header shape from ${path}`)
    const raw = parsed.data.block_header.raw_data
    return {
      status: 'success',
      number: raw.number,
      blockId: parsed.data.blockID.toLowerCase(),
      timestamp: raw.timestamp,
    }
  }

  async function getBlocks(
    node: Node,
    start: number,
    endExclusive: number,
    opts: ChainReadOptions,
  ): Promise<TronResult<{ blocks: ChainBlock[] }>> {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(endExclusive) || start < 0) {
      throw new TypeError(`Invalid block range [${start}, ${endExclusive})`)
    }
    if (endExclusive <= start || endExclusive - start > MAX_BLOCKS_PER_CALL) {
      throw new TypeError(
        `A block range holds 1–${MAX_BLOCKS_PER_CALL} blocks, got [${start}, ${endExclusive})`,
      )
    }
    const path = `/${node}/getblockbylimitnext`
    const res = await http.request(path, {
      body: { startNum: start, endNum: endExclusive },
      quoteAmounts: true,
      urgent: opts.urgent,
      signal: opts.signal,
    })
    if (res.status === 'error') return res
    // {} is the node's answer for "none of these blocks (yet)".
    if (isObject(res.json) && res.json.block === undefined && Object.keys(res.json).length === 0) {
      return { status: 'success', blocks: [] }
    }
    const list = isObject(res.json) ? res.json.block : undefined
    if (!Array.isArray(list)) return tronError('malformed', `unexpected block list shape from ${path}`)
    const blocks: ChainBlock[] = []
    for (const item of list) {
      const parsed = parseBlock(item)
      if (typeof parsed === 'string') return tronError('malformed', `${path}: ${parsed}`)
      // Only the contiguous run from `start` counts: a node may skip or reorder what it lacks.
      if (parsed.number !== start + blocks.length || parsed.number >= endExclusive) break
      const previous = blocks[blocks.length - 1]
      if (previous && parsed.parentHash !== previous.blockId) {
        return tronError(
          'malformed',
          `${path}: block ${parsed.number} does not link to block ${previous.number}`,
        )
      }
      blocks.push(parsed)
    }
    return { status: 'success', blocks }
  }

  async function getInfos(
    node: Node,
    blockNumber: number,
    opts: ChainReadOptions,
  ): Promise<TronResult<{ infos: ChainTxInfo[] }>> {
    if (!Number.isSafeInteger(blockNumber) || blockNumber < 1) {
      throw new TypeError(`Invalid block number: ${blockNumber}`)
    }
    const path = `/${node}/gettransactioninfobyblocknum`
    const res = await http.request(path, {
      body: { num: blockNumber },
      quoteAmounts: true,
      urgent: opts.urgent,
      signal: opts.signal,
    })
    if (res.status === 'error') return res
    if (!Array.isArray(res.json))
      return tronError('malformed', `${path}: expected an array for block ${blockNumber}`)
    const infos: ChainTxInfo[] = []
    for (const [i, item] of res.json.entries()) {
      const parsed = parseTxInfo(item)
      if (typeof parsed === 'string') return tronError('malformed', `${path}: element ${i}: ${parsed}`)
      if (parsed.blockNumber !== blockNumber) {
        return tronError(
          'malformed',
          `${path}: element ${i} belongs to block ${parsed.blockNumber}, not ${blockNumber}`,
        )
      }
      infos.push(parsed)
    }
    return { status: 'success', infos }
  }

  return {
    getSolidBlocks: (start, endExclusive, opts = {}) =>
      getBlocks('walletsolidity', start, endExclusive, opts),
    getSolidTransactionInfos: (blockNumber, opts = {}) => getInfos('walletsolidity', blockNumber, opts),
    getHeadBlocks: (start, endExclusive, opts = {}) => getBlocks('wallet', start, endExclusive, opts),
    getHeadTransactionInfos: (blockNumber, opts = {}) => getInfos('wallet', blockNumber, opts),

    getSolidHead: (opts = {}) => getHeader('/walletsolidity/getblock', opts),
    // The sighting watcher's starting point (decision 024).
    getHead: (opts = {}) => getHeader('/wallet/getblock', opts),
  }
}
