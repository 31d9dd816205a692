import type { Address } from 'viem'
import type { BlockRef, ChainError, ChainResult, FinalBlock, FinalRead, FinalReadOptions } from '../chain'
import type { AnswerProblem, ProviderHandle } from '../provider-types'
import {
  blockHeaders,
  type Counter,
  checkChain,
  type EvmContext,
  finalTop,
  malformed,
  toTransfer,
  transferLogs,
} from './evm-context'
import type { EvmHeader, EvmTransferLog } from './evm-rpc'

// The follower's reads on an EVM chain. A block is final once `depth` blocks (itself included) are
// on the chain; one pass reads one range after the checkpoint, up to the final head and as wide as
// the follower and the provider allow: the range's first block (it must follow the checkpoint), its
// last block (the new checkpoint), and the accepted tokens' Transfer logs to our addresses in it
// (eth_getLogs with the recipients in the topic filter), so the cost does not grow with the orders.
// A first block whose parent is not the checkpoint, on every provider that answers, is a reorg
// deeper than the confirmation depth: the follower stops for this chain and writes nothing.

export async function evmFinalHead(ctx: EvmContext): Promise<ChainResult<BlockRef>> {
  const n: Counter = { requests: 0 }
  return ctx.pool.route<BlockRef, ChainError>(async (client, p): Promise<ChainResult<BlockRef>> => {
    const wrong = await checkChain(ctx, client, n)
    if (wrong) return wrong
    const head = await client.blockNumber()
    if (head.status === 'error') return head
    const top = Math.max(0, finalTop(ctx, head.number))
    ctx.pool.sawHead(p, top)
    const h = await client.header(top)
    if (h.status === 'error') return h
    if (!h.header) return malformed(`the provider has no block ${top} below its head ${head.number}`)
    return { status: 'success', number: h.header.number, hash: h.header.hash, timestamp: h.header.timestamp }
  })
}

type RangeRead =
  | { empty: true; top: number }
  | {
      empty: false
      top: number
      first: EvmHeader
      last: EvmHeader
      logs: EvmTransferLog[]
      headers: Map<string, EvmHeader>
    }

/**
 * A provider with no final block after the checkpoint may be behind the chain: behind another
 * provider's known head it is a fault (the next one is asked); silent for a few looks it is doubtful
 * (the next one is asked, and its answer kept only if nobody does better), as on TRON.
 */
function lagging(ctx: EvmContext, p: ProviderHandle, checkpoint: number): AnswerProblem {
  const best = ctx.pool.bestHead()
  if (best !== null && best > checkpoint)
    return { fault: `has no final block after ${checkpoint} yet (another has ${best})` }
  const staleAfterMs = Math.max(6_000, 3 * ctx.config.pollMs)
  if (Date.now() - p.freshAt <= staleAfterMs) return null
  p.freshAt = Date.now()
  return {
    fault: `no final block after ${checkpoint} for ${Math.round(staleAfterMs / 1000)} s`,
    doubtful: true,
  }
}

export async function evmReadFinal(ctx: EvmContext, opts: FinalReadOptions): Promise<FinalRead> {
  const { checkpoint } = opts
  const recipients = [...opts.watch] as Address[]
  const n: Counter = { requests: 0 }
  let agreed = false
  let disagreed = 0
  const res = await ctx.pool.route<RangeRead, ChainError>(
    async (client, p): Promise<ChainResult<RangeRead>> => {
      const wrong = await checkChain(ctx, client, n)
      if (wrong) return wrong
      const head = await client.blockNumber()
      if (head.status === 'error') return head
      const top = finalTop(ctx, head.number)
      ctx.pool.sawHead(p, top)
      if (top <= checkpoint.number) return { status: 'success', empty: true, top }
      const from = checkpoint.number + 1
      const to = Math.min(top, checkpoint.number + Math.max(1, Math.min(opts.maxBlocks, client.maxBlocks)))
      // One batch: the range's first block (its parent is checked), its last (the new checkpoint), its logs.
      n.requests += 2
      const [first, last, logs] = await Promise.all([
        client.header(from),
        client.header(to),
        recipients.length === 0
          ? Promise.resolve({ status: 'success' as const, logs: [] })
          : transferLogs(ctx, client, from, to, recipients, n),
      ])
      if (first.status === 'error') return first
      if (!first.header) return malformed(`the provider has no block ${from} below its head ${head.number}`)
      if (last.status === 'error') return last
      if (!last.header) return malformed(`the provider has no block ${to} below its head ${head.number}`)
      if (logs.status === 'error') return logs
      const headers = await blockHeaders(client, logs.logs, [first.header, last.header], n)
      if (headers.status === 'error') return headers
      return {
        status: 'success',
        empty: false,
        top,
        first: first.header,
        last: last.header,
        logs: logs.logs,
        headers: headers.headers,
      }
    },
    (answer, p) => {
      if (answer.empty) return lagging(ctx, p, checkpoint.number)
      p.freshAt = Date.now()
      if (checkpoint.hash === null) return null
      if (answer.first.parentHash.toLowerCase() === checkpoint.hash.toLowerCase()) {
        agreed = true
        return null
      }
      disagreed += 1
      return {
        fault: `block ${answer.first.number} does not follow the checkpoint ${checkpoint.number} (parent ${answer.first.parentHash}, checkpoint ${checkpoint.hash})`,
        disagrees: true,
      }
    },
  )
  if (res.status === 'error') {
    if (disagreed > 0 && !agreed) {
      return {
        blocks: [],
        more: false,
        error: {
          status: 'error',
          kind: 'reorg',
          message: `${ctx.spec.name}: block ${checkpoint.number + 1} does not follow the recorded block ${checkpoint.number} on any provider (a reorganisation deeper than ${ctx.depth} blocks)`,
        },
      }
    }
    return { blocks: [], more: false, error: res }
  }
  if (res.empty) return { blocks: [], more: false }
  return { blocks: assemble(ctx, res), more: res.last.number < res.top }
}

/** The range's first and last blocks and every block holding a transfer to us, in order. */
function assemble(ctx: EvmContext, r: Extract<RangeRead, { empty: false }>): FinalBlock[] {
  const byNumber = new Map<number, FinalBlock>()
  const put = (number: number, hash: string, parentHash: string, timestamp: number) => {
    if (!byNumber.has(number)) byNumber.set(number, { number, hash, parentHash, timestamp, transfers: [] })
    return byNumber.get(number) as FinalBlock
  }
  put(r.first.number, r.first.hash, r.first.parentHash, r.first.timestamp)
  for (const log of r.logs) {
    const header = r.headers.get(log.blockHash) as EvmHeader
    const block = put(header.number, header.hash, header.parentHash, header.timestamp)
    const transfer = toTransfer(ctx, log, header.timestamp)
    if (transfer) block.transfers.push(transfer)
  }
  put(r.last.number, r.last.hash, r.last.parentHash, r.last.timestamp)
  return [...byNumber.values()].sort((a, b) => a.number - b.number)
}
