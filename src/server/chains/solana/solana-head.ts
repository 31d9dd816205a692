import type { HeadLook, HeadReader, HeadSighting } from '../chain'
import {
  blockTimeMs,
  type Counter,
  getTransaction,
  type SolanaContext,
  tokenAccountsOf,
} from './solana-context'
import type { Scanner } from './solana-scan'
import { readTransfers } from './solana-transfers'

// Transfers to open orders' addresses at the `confirmed` commitment, not finalized yet: the buyer's
// "detected — confirming". The listings are the follower's (solana-scan.ts): a look reads the
// balances of the token accounts due and lists only those that moved, then reads each new
// signature's transaction once. A failed transaction is seen too (its attempted transfer, with the chain's error), so the
// buyer's page can say why nothing arrives. A sighting never pays.

export function createSolanaHeadReader(ctx: SolanaContext, scanner: Scanner): HeadReader {
  let lastBlockTime = 0
  let newest: number | null = null

  async function look(watch: ReadonlySet<string>): Promise<HeadLook> {
    const n: Counter = { requests: 0 }
    const accounts = await tokenAccountsOf(ctx, watch)
    const floor = ctx.final?.slot ?? 0
    const scan = await scanner.ensure([...accounts.keys()], floor, { lane: 'sightings' })
    if (scan.error)
      return { requests: scan.requests, found: [], head: null, lastBlockTime, error: scan.error }
    n.requests += scan.requests
    const found: HeadSighting[] = []
    let head: number | null = null
    const seen = new Set<string>()
    for (const account of accounts.keys()) {
      for (const item of scanner.listing(account)?.items ?? []) {
        if (item.slot <= floor || seen.has(item.signature)) continue
        seen.add(item.signature)
        const got = await getTransaction(ctx, item.signature, 'confirmed', n, { lane: 'sightings' })
        if (got.status === 'error')
          return { requests: n.requests, found, head: null, lastBlockTime, error: got }
        if (!got.tx) continue
        const { transfers, failure } = readTransfers(got.tx, ctx.tokens, 'solana')
        for (const t of transfers) {
          if (!watch.has(t.to)) continue
          found.push({
            txId: t.txId,
            source: failure ? 'call' : 'log',
            eventIndex: t.eventIndex,
            token: t.token,
            value: t.value,
            from: t.from,
            to: t.to,
            blockNumber: item.slot,
            blockTimestamp: t.blockTimestamp,
            failure,
          })
        }
        if (head === null || item.slot > head) head = item.slot
        lastBlockTime = Math.max(lastBlockTime, blockTimeMs(item.blockTime))
      }
    }
    const moved = head !== null && head !== newest
    if (head !== null) newest = head
    return { requests: n.requests, found, head: moved ? head : null, lastBlockTime }
  }

  return {
    look,
    reset() {
      newest = null
    },
  }
}
