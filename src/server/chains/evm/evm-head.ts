import type { Address } from 'viem'
import type { ChainError, ChainResult, HeadLook, HeadReader, HeadSighting } from '../chain'
import {
  blockHeaders,
  type Counter,
  checkChain,
  type EvmContext,
  finalTop,
  toTransfer,
  transferLogs,
} from './evm-context'
import type { EvmHeader, EvmTransferLog } from './evm-rpc'

// Transfers to open orders' addresses in blocks that are not final yet (after the final head, up
// to the head): the buyer's "detected — confirming N of M". One look reads the blocks since the
// last look (the newest block's header, then one eth_getLogs for the new range), so two requests a
// look whatever the number of open orders. A sighting never pays; one a reorganisation removes is
// dropped once the follower passes its block without it. A reverted transfer makes no log, so
// nothing is seen of it here: the buyer's transaction hash explains it (lookupTransaction).

interface LookRead {
  head: EvmHeader
  from: number
  to: number
  logs: EvmTransferLog[]
  headers: Map<string, EvmHeader>
}

export function createEvmHeadReader(ctx: EvmContext): HeadReader {
  /** The newest block looked at; null: start after the final head. */
  let cursor: number | null = null
  let lastBlockTime = 0

  async function look(watch: ReadonlySet<string>): Promise<HeadLook> {
    const n: Counter = { requests: 0 }
    const recipients = [...watch] as Address[]
    const res = await ctx.pool.route<LookRead, ChainError>(
      async (client): Promise<ChainResult<LookRead>> => {
        const wrong = await checkChain(ctx, client, n)
        if (wrong) return wrong
        n.requests += 1
        const latest = await client.latestHeader()
        if (latest.status === 'error') return latest
        const head = latest.header
        const afterFinal = finalTop(ctx, head.number) + 1
        // A head below the cursor: the chain was reorganised shorter; read its unfinished part again.
        const start = cursor === null || cursor > head.number ? afterFinal : Math.max(afterFinal, cursor + 1)
        const to = Math.min(head.number, start + client.maxBlocks - 1)
        if (start > to || recipients.length === 0) {
          return {
            status: 'success',
            head,
            from: start,
            to: Math.max(start - 1, to),
            logs: [],
            headers: new Map(),
          }
        }
        const logs = await transferLogs(ctx, client, start, to, recipients, n)
        if (logs.status === 'error') return logs
        const headers = await blockHeaders(client, logs.logs, [head], n)
        if (headers.status === 'error') return headers
        return { status: 'success', head, from: start, to, logs: logs.logs, headers: headers.headers }
      },
      undefined,
      { lane: 'sightings' },
    )
    if (res.status === 'error')
      return { requests: n.requests, found: [], head: null, lastBlockTime, error: res }
    const found: HeadSighting[] = []
    for (const log of res.logs) {
      const header = res.headers.get(log.blockHash) as EvmHeader
      const t = toTransfer(ctx, log, header.timestamp)
      if (!t || t.blockNumber === null) continue
      found.push({ ...t, source: 'log', blockNumber: t.blockNumber, failure: null })
    }
    const moved = cursor === null || res.to !== cursor
    cursor = res.to
    lastBlockTime = Math.max(lastBlockTime, res.head.timestamp)
    return { requests: n.requests, found, head: moved ? res.head.number : null, lastBlockTime }
  }

  return {
    look,
    reset() {
      cursor = null
    },
  }
}
