import {
  type Address,
  BaseError,
  createPublicClient,
  decodeEventLog,
  type Hash,
  HttpRequestError,
  http,
  parseAbiItem,
  RpcRequestError,
  TimeoutError,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { ChainError, ChainResult } from '../chain'
import type { KeyClient } from '../provider-failover'

// One key of one JSON-RPC provider: the reads the EVM family makes, through viem (request
// encoding, formatting, ABI decoding), each an expected failure as a value rather than a throw.
// A rate limit (HTTP 429) holds this key back for the time the provider names, or a few seconds.

export const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)

export interface EvmHeader {
  number: number
  hash: Hash
  parentHash: Hash
  /** ms */
  timestamp: number
}

export interface EvmTransferLog {
  token: Address
  from: Address
  to: Address
  value: bigint
  blockNumber: number
  blockHash: Hash
  /** ms, when the provider sends it with the log; null otherwise. */
  blockTimestamp: number | null
  txHash: Hash
  logIndex: number
}

export interface EvmReceipt {
  blockNumber: number
  blockHash: Hash
  status: 'success' | 'reverted'
  transfers: EvmTransferLog[]
}

export interface EvmRpc extends KeyClient {
  blockNumber(): Promise<ChainResult<{ number: number }>>
  /** The newest block's header (one request: its number and time). */
  latestHeader(): Promise<ChainResult<{ header: EvmHeader }>>
  chainId(): Promise<ChainResult<{ id: number }>>
  header(number: number): Promise<ChainResult<{ header: EvmHeader | null }>>
  headerByHash(hash: Hash): Promise<ChainResult<{ header: EvmHeader | null }>>
  /** Transfer logs of `tokens` to `recipients` in [from, to] (or in one block by hash). */
  transferLogs(
    q: { tokens: readonly Address[]; recipients: readonly Address[] } & (
      | { fromBlock: number; toBlock: number }
      | { blockHash: Hash }
    ),
  ): Promise<ChainResult<{ logs: EvmTransferLog[] }>>
  /** null when the node has no receipt (unknown or not mined yet). */
  receipt(hash: Hash, tokens: readonly Address[]): Promise<ChainResult<{ receipt: EvmReceipt | null }>>
  /** Whether the node knows the transaction at all (mined or waiting). */
  hasTransaction(hash: Hash): Promise<ChainResult<{ known: boolean }>>
}

export interface EvmRpcOptions {
  url: string
  fetch: typeof globalThis.fetch
  timeoutMs?: number
  signal?: AbortSignal
}

const PAUSE_AFTER_RATE_LIMIT_MS = 5_000

/** Error text of providers that refuse a getLogs range as too wide or too full (the caller halves it). */
export const RANGE_TOO_WIDE =
  /range|too many|limit exceeded|exceed|more than \d+ (results|logs)|response size|block count|query returned/i

/** A JSON-RPC call's failure as a chain error (a 429 carries how long to pause). */
function rpcFailure(error: unknown): ChainError {
  if (error instanceof TimeoutError) return { status: 'error', kind: 'timeout', message: error.shortMessage }
  const http = error instanceof BaseError ? error.walk((e) => e instanceof HttpRequestError) : null
  if (http instanceof HttpRequestError) {
    if (http.status === 429) {
      const retryAfter = Number(http.headers?.get('retry-after'))
      const ms = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : PAUSE_AFTER_RATE_LIMIT_MS
      return {
        status: 'error',
        kind: 'rate_limited',
        message: 'HTTP 429',
        retryAfterMs: ms,
        httpStatus: 429,
      }
    }
    if (http.status !== undefined) {
      return { status: 'error', kind: 'http', message: `HTTP ${http.status}`, httpStatus: http.status }
    }
    return { status: 'error', kind: 'network', message: http.shortMessage }
  }
  const rpc = error instanceof BaseError ? error.walk((e) => e instanceof RpcRequestError) : null
  if (rpc instanceof RpcRequestError) return { status: 'error', kind: 'http', message: rpc.details }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return { status: 'error', kind: 'malformed', message: message ?? 'unreadable answer' }
}

const headerOf = (b: { number: bigint | null; hash: Hash | null; parentHash: Hash; timestamp: bigint }) => {
  if (b.number === null || b.hash === null) throw new Error('the block has no number or hash')
  // EVM block times are whole seconds: a block stamped s was made during second s, so its time is
  // taken as the end of that second. A payment sent in the same second the order was placed (its
  // lease starts at a millisecond) is then inside the order's lease, as it was.
  return {
    number: Number(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: Number(b.timestamp) * 1000 + 999,
  }
}

export function createEvmRpc(opts: EvmRpcOptions): EvmRpc {
  let pausedUntil = 0
  const client = createPublicClient({
    transport: http(opts.url, {
      fetchFn: opts.fetch,
      retryCount: 0,
      timeout: opts.timeoutMs ?? 10_000,
      // Reads started together (a range's headers and logs) go in one JSON-RPC batch: one HTTP request.
      batch: { wait: 0 },
    }),
  })

  function fail(error: unknown): ChainError {
    const failure = rpcFailure(error)
    if (failure.kind === 'rate_limited') pausedUntil = Date.now() + (failure.retryAfterMs ?? 0)
    return failure
  }

  async function attempt<T>(read: () => Promise<T>): Promise<ChainResult<T>> {
    try {
      return { status: 'success', ...(await read()) } as ChainResult<T>
    } catch (error) {
      return fail(error)
    }
  }

  return {
    pausedUntil: () => (pausedUntil > Date.now() ? pausedUntil : 0),
    blockNumber: () =>
      attempt(async () => ({ number: Number(await client.getBlockNumber({ cacheTime: 0 })) })),
    latestHeader: () =>
      attempt(async () => ({ header: headerOf(await client.getBlock({ blockTag: 'latest' })) })),
    chainId: () => attempt(async () => ({ id: await client.getChainId() })),
    header: (number) =>
      attempt(async () => {
        const b = await client.getBlock({ blockNumber: BigInt(number) }).catch((e: unknown) => {
          if (e instanceof BaseError && e.name === 'BlockNotFoundError') return null
          throw e
        })
        return { header: b ? headerOf(b) : null }
      }),
    headerByHash: (hash) =>
      attempt(async () => {
        const b = await client.getBlock({ blockHash: hash }).catch((e: unknown) => {
          if (e instanceof BaseError && e.name === 'BlockNotFoundError') return null
          throw e
        })
        return { header: b ? headerOf(b) : null }
      }),
    transferLogs: (q) =>
      attempt(async () => {
        const range =
          'blockHash' in q
            ? { blockHash: q.blockHash }
            : { fromBlock: BigInt(q.fromBlock), toBlock: BigInt(q.toBlock) }
        const logs = await client.getLogs({
          address: [...q.tokens],
          event: transferEvent,
          args: { to: [...q.recipients] },
          strict: true,
          ...range,
        })
        return {
          logs: logs.map((l) => {
            if (
              l.blockNumber === null ||
              l.blockHash === null ||
              l.transactionHash === null ||
              l.logIndex === null
            )
              throw new Error('a log without its block or transaction')
            return {
              token: l.address,
              from: l.args.from,
              to: l.args.to,
              value: l.args.value,
              blockNumber: Number(l.blockNumber),
              blockHash: l.blockHash,
              blockTimestamp:
                typeof l.blockTimestamp === 'bigint' ? Number(l.blockTimestamp) * 1000 + 999 : null,
              txHash: l.transactionHash,
              logIndex: l.logIndex,
            }
          }),
        }
      }),
    receipt: (hash, tokens) =>
      attempt(async () => {
        const r = await client.getTransactionReceipt({ hash }).catch((e: unknown) => {
          if (e instanceof TransactionReceiptNotFoundError) return null
          throw e
        })
        if (!r) return { receipt: null }
        const accepted = new Set(tokens.map((t) => t.toLowerCase()))
        const transfers: EvmTransferLog[] = []
        for (const l of r.logs) {
          if (!accepted.has(l.address.toLowerCase())) continue
          const decoded = decodeTransfer(l.topics, l.data)
          if (!decoded) continue
          transfers.push({
            token: l.address,
            ...decoded,
            blockNumber: Number(r.blockNumber),
            blockHash: r.blockHash,
            blockTimestamp: null,
            txHash: r.transactionHash,
            logIndex: l.logIndex,
          })
        }
        return {
          receipt: {
            blockNumber: Number(r.blockNumber),
            blockHash: r.blockHash,
            status: r.status,
            transfers,
          },
        }
      }),
    hasTransaction: (hash) =>
      attempt(async () => {
        const tx = await client.getTransaction({ hash }).catch((e: unknown) => {
          if (e instanceof BaseError && e.name === 'TransactionNotFoundError') return null
          throw e
        })
        return { known: tx !== null }
      }),
  }
}

function decodeTransfer(
  topics: readonly Hash[],
  data: `0x${string}`,
): { from: Address; to: Address; value: bigint } | null {
  try {
    const { args } = decodeEventLog({ abi: [transferEvent], topics: topics as [Hash, ...Hash[]], data })
    return args
  } catch {
    return null
  }
}
