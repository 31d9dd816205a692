import type { Address } from 'viem'
import type { ChainError, ChainResult, ChainToken, ChainTransfer } from '../chain'
import type { FailoverPool } from '../provider-failover'
import type { EvmChainSpec } from './chains'
import type { EvmChainConfig } from './evm-env'
import { type EvmHeader, type EvmRpc, type EvmTransferLog, RANGE_TOO_WIDE } from './evm-rpc'

// What the EVM adapter's parts share: the chain's settings, its provider pool and token table, and
// the two reads every part makes (transfer logs split to the provider's limits, block times).

/** One key's client, with the provider's getLogs range limit. */
export interface EvmKeyClient extends EvmRpc {
  readonly maxBlocks: number
  /** Whether this endpoint was seen serving the chain's id (asked once). */
  chainChecked: boolean
}

export interface EvmContext {
  spec: EvmChainSpec
  config: EvmChainConfig
  pool: FailoverPool<EvmKeyClient>
  tokens: readonly ChainToken[]
  contracts: readonly Address[]
  /** Blocks on top of a block (itself included) before it is final. */
  depth: number
}

/** Recipients per eth_getLogs request: providers bound the size of a topic list or of a request. */
export const RECIPIENTS_PER_REQUEST = 500

export type Counter = { requests: number }

/** The newest final block's number for a head. */
export function finalTop(ctx: EvmContext, head: number): number {
  return head - ctx.depth + 1
}

/** Fails the first read of an endpoint that serves another chain (a misconfigured URL). */
export async function checkChain(
  ctx: EvmContext,
  client: EvmKeyClient,
  n: Counter,
): Promise<ChainError | null> {
  if (client.chainChecked) return null
  n.requests += 1
  const id = await client.chainId()
  if (id.status === 'error') return id
  if (id.id !== ctx.spec.chainId) {
    return {
      status: 'error',
      kind: 'malformed',
      message: `the provider serves chain ${id.id}, not ${ctx.spec.name} (${ctx.spec.chainId})`,
    }
  }
  client.chainChecked = true
  return null
}

/**
 * Transfer logs of the accepted tokens to `recipients` in [from, to]: recipients in chunks, a range the
 * provider refuses as too wide halved until it answers. Never asks with no recipient (that would
 * be every transfer of the token).
 */
export async function transferLogs(
  ctx: EvmContext,
  client: EvmKeyClient,
  from: number,
  to: number,
  recipients: readonly Address[],
  n: Counter,
): Promise<ChainResult<{ logs: EvmTransferLog[] }>> {
  const logs: EvmTransferLog[] = []
  for (let i = 0; i < recipients.length; i += RECIPIENTS_PER_REQUEST) {
    const chunk = recipients.slice(i, i + RECIPIENTS_PER_REQUEST)
    const res = await logsOfRange(ctx, client, from, to, chunk, n)
    if (res.status === 'error') return res
    logs.push(...res.logs)
  }
  logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex)
  return { status: 'success', logs }
}

async function logsOfRange(
  ctx: EvmContext,
  client: EvmKeyClient,
  from: number,
  to: number,
  recipients: readonly Address[],
  n: Counter,
): Promise<ChainResult<{ logs: EvmTransferLog[] }>> {
  n.requests += 1
  const res = await client.transferLogs({ tokens: ctx.contracts, recipients, fromBlock: from, toBlock: to })
  if (res.status === 'success' || from === to || !RANGE_TOO_WIDE.test(res.message)) return res
  const mid = Math.floor((from + to) / 2)
  const left = await logsOfRange(ctx, client, from, mid, recipients, n)
  if (left.status === 'error') return left
  const right = await logsOfRange(ctx, client, mid + 1, to, recipients, n)
  if (right.status === 'error') return right
  return { status: 'success', logs: [...left.logs, ...right.logs] }
}

/** The header of each log's block (by hash, so it is the very block the log came from). */
export async function blockHeaders(
  client: EvmKeyClient,
  logs: readonly EvmTransferLog[],
  known: readonly EvmHeader[],
  n: Counter,
): Promise<ChainResult<{ headers: Map<string, EvmHeader> }>> {
  const headers = new Map(known.map((h) => [h.hash, h]))
  for (const log of logs) {
    if (headers.has(log.blockHash)) continue
    const sameNumber = [...headers.values()].find((h) => h.number === log.blockNumber)
    if (sameNumber) return malformed(`a log of block ${log.blockNumber} names another block than its header`)
    n.requests += 1
    const h = await client.headerByHash(log.blockHash)
    if (h.status === 'error') return h
    if (!h.header) return malformed(`block ${log.blockHash} of a log is unknown to the provider`)
    headers.set(log.blockHash, h.header)
  }
  return { status: 'success', headers }
}

export function toTransfer(
  ctx: EvmContext,
  log: EvmTransferLog,
  blockTimestamp: number,
): ChainTransfer | null {
  const token = ctx.tokens.find((t) => t.contract?.toLowerCase() === log.token.toLowerCase())
  if (!token) return null
  return {
    chain: ctx.spec.key,
    txId: log.txHash.toLowerCase(),
    source: 'log',
    eventIndex: log.logIndex,
    token: token.symbol,
    from: log.from,
    to: log.to,
    value: log.value,
    blockNumber: log.blockNumber,
    blockTimestamp,
  }
}

export function malformed(message: string): ChainError {
  return { status: 'error', kind: 'malformed', message }
}
