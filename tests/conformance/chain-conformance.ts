import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  ChainAdapter,
  ChainFamilyId,
  ChainId,
  ChainTransfer,
  TokenSymbol,
} from '../../src/server/chains/chain'
import type { Engine } from '../support/test-db'
import { waitFor } from '../support/wait'
import { type ProviderProxy, startProviderProxy, type Tamper } from './provider-proxy'
import { shopCases } from './shop-conformance'

// The chain conformance suite (decision 064): what every chain family's adapter must do against its
// own node or stand-in, written once. A family's test file builds a ConformanceHarness (its node,
// a buyer who pays, the node's idea of finality, what its node can and cannot do) and calls
// runChainConformance. Every case reads through the ChainAdapter interface only, so a family passes
// or fails on what the follower, the sighting watcher, the buyer's hash, refunds and
// reconciliation are given. A case the node cannot stage is skipped with the reason in its name.

export interface ConformanceHarness {
  /** The chain the cases run on, and its family. */
  chain: ChainId
  family: ChainFamilyId
  /** The shop's settings that enable this chain with these providers (the cases through the shop). */
  env(providerUrls: string[]): Record<string, string>
  /** The stablecoin the cases pay, with its decimals on this chain. */
  token: { symbol: TokenSymbol; decimals: number }
  /** The buyer's address in the family's normal form (the `from` of every payment). */
  buyer: string
  /** The node's own URL (one provider). */
  nodeUrl: string
  /** An adapter reading through these providers in this order (short cool-downs, for tests). */
  adapter(providerUrls: string[]): ChainAdapter
  /** A new address of the shop's, in the family's normal form, that nothing has paid yet. */
  newAddress(): Promise<string>
  /** The buyer sends `units` of the token to `to`; the transaction id in the family's normal form. */
  pay(to: string, units: bigint): Promise<string>
  /** The same transfer of a counterfeit: another token with the same symbol and decimals. */
  counterfeit(to: string, units: bigint): Promise<string>
  /** A transfer of the token that the chain records as failed (it lands, it moves nothing). */
  fail(to: string, units: bigint): Promise<string>
  /** Puts what was sent where the head reader sees it, without making it final. */
  toHead(): Promise<unknown>
  /** Makes everything sent so far final (depth, solidification or commitment). */
  finalize(): Promise<unknown>
  /** The newest final block (or slot) as the node itself says. */
  finalHeight(): Promise<number>
  /** Moves the chain's clock forward; later blocks carry the later time. */
  warp(ms: number): Promise<unknown>
  /**
   * Takes a transaction that is at the head, not final, out of the chain (a reorganisation); absent
   * when the node cannot (runChainConformance is then told why).
   */
  drop?: (txId: string) => Promise<unknown>
  /** How a provider of this chain lies in a way the adapter can check, and the rewrite that does it. */
  lie: { what: string; tamper: Tamper }
  close(): Promise<void>
}

type Checkpoint = { number: number; hash: string | null }

async function finalHead(adapter: ChainAdapter): Promise<Checkpoint> {
  const head = await adapter.finalHead()
  if (head.status === 'error') throw new Error(`finalHead: ${head.message}`)
  return { number: head.number, hash: head.hash }
}

/**
 * Reads final blocks from `from` as the follower does, over and over, until `done` holds for what
 * was read (and nothing more is waiting). Read errors are kept: a case that expects failover
 * checks that none reached the result.
 */
async function follow(
  adapter: ChainAdapter,
  from: Checkpoint,
  watch: ReadonlySet<string>,
  done: (r: { transfers: ChainTransfer[]; checkpoint: Checkpoint }) => boolean,
  what: string,
) {
  let checkpoint = from
  const transfers: ChainTransfer[] = []
  const errors: string[] = []
  try {
    await waitFor(
      what,
      async () => {
        const read = await adapter.readFinal({
          checkpoint,
          watch,
          maxBlocks: 100,
          deadline: Date.now() + 5000,
        })
        transfers.push(...read.blocks.flatMap((b) => b.transfers))
        const last = read.blocks[read.blocks.length - 1]
        if (last) checkpoint = { number: last.number, hash: last.hash }
        if (read.error) errors.push(`${read.error.kind}: ${read.error.message}`)
        return !read.more && done({ transfers, checkpoint })
      },
      20_000,
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}; read errors: ${errors.slice(-3).join(' | ') || 'none'}`)
  }
  return { transfers, checkpoint, errors }
}

/** The chain's clock: its newest block's time. */
async function chainNow(adapter: ChainAdapter): Promise<number> {
  const t = await adapter.headTime()
  if (t === null) throw new Error('headTime: no provider answered')
  return t
}

const ids = (transfers: readonly { txId: string }[]) => transfers.map((t) => t.txId)

export interface ConformanceOptions {
  /**
   * The database engines the cases through the shop run on: `engines` from tests/support/test-db,
   * imported in the family's test file, where the engine check (docs/testing.md) reads it.
   */
  engines: readonly Engine[]
  /** What the family's node cannot stage, each with the reason (the case is skipped and says why). */
  cannot?: { drop?: string }
}

/** The suite, titled `name` (the family and its node: "TRON on the devchain"). */
export function runChainConformance(
  name: string,
  setup: () => Promise<ConformanceHarness>,
  { engines, cannot = {} }: ConformanceOptions,
): void {
  let h: ConformanceHarness
  let adapter: ChainAdapter
  const proxies: ProviderProxy[] = []
  const whole = (n: number) => BigInt(n) * 10n ** BigInt(h.token.decimals)
  const proxy = async () => {
    const p = await startProviderProxy(h.nodeUrl)
    proxies.push(p)
    return p
  }
  /** Until a read reaches the node's own final height. */
  const upToFinal = async (a: ChainAdapter, from: Checkpoint, watch: ReadonlySet<string>) => {
    const height = await h.finalHeight()
    return follow(a, from, watch, (r) => r.checkpoint.number >= height, `a read up to final block ${height}`)
  }
  const until = (a: ChainAdapter, from: Checkpoint, watch: ReadonlySet<string>, txIds: string[]) =>
    follow(a, from, watch, (r) => txIds.every((id) => ids(r.transfers).includes(id)), `transfers ${txIds}`)

  describe(`chain conformance: ${name}`, () => {
    beforeAll(async () => {
      h = await setup()
      adapter = h.adapter([h.nodeUrl])
    }, 120_000)
    afterAll(async () => {
      for (const p of proxies) await p.close()
      await h?.close()
    })

    it('reads exact, short and over payments final, in base units of the token, with the block time', async () => {
      const start = await finalHead(adapter)
      const chainBefore = await chainNow(adapter)
      const [exact, short, over] = [await h.newAddress(), await h.newAddress(), await h.newAddress()]
      const due = whole(12) + whole(1) / 2n
      const sent = [await h.pay(exact, due), await h.pay(short, due - 1n), await h.pay(over, due + whole(10))]
      await h.finalize()
      const chainAfter = await chainNow(adapter)
      const read = await until(adapter, start, new Set([exact, short, over]), sent)
      expect(read.transfers.map((t) => [t.txId, t.to, t.from, t.token, t.value])).toEqual([
        [sent[0], exact, h.buyer, h.token.symbol, due],
        [sent[1], short, h.buyer, h.token.symbol, due - 1n],
        [sent[2], over, h.buyer, h.token.symbol, due + whole(10)],
      ])
      for (const t of read.transfers) {
        expect(t.blockNumber).toBeGreaterThan(start.number)
        expect(t.blockTimestamp).toBeGreaterThanOrEqual(chainBefore - 1000)
        expect(t.blockTimestamp).toBeLessThanOrEqual(chainAfter)
      }
    })

    it('reads a late payment with the chain’s block time, whatever the server’s clock says', async () => {
      const to = await h.newAddress()
      const start = await finalHead(adapter)
      const chainBefore = await chainNow(adapter)
      const warp = 20 * 60_000
      await h.warp(warp)
      const sent = await h.pay(to, whole(3))
      await h.finalize()
      const [t] = (await until(adapter, start, new Set([to]), [sent])).transfers
      expect(t?.value).toBe(whole(3))
      expect(t?.blockTimestamp).toBeGreaterThanOrEqual(chainBefore + warp - 1000)
      expect(await adapter.headTime()).toBeGreaterThanOrEqual(t?.blockTimestamp ?? 0)
    })

    it('never reads a counterfeit token with the same symbol, at the head or final', async () => {
      const to = await h.newAddress()
      const start = await finalHead(adapter)
      const reader = adapter.createHeadReader()
      await reader.look(new Set([to]))
      const fake = await h.counterfeit(to, whole(50))
      const real = await h.pay(to, whole(5))
      await h.toHead()
      const seen = await waitFor('the genuine transfer at the head', async () => {
        const look = await reader.look(new Set([to]))
        return ids(look.found).includes(real) ? look.found : null
      })
      expect(ids(seen)).not.toContain(fake)
      await h.finalize()
      const read = await until(adapter, start, new Set([to]), [real])
      expect(ids(read.transfers)).toEqual([real])
      const view = await adapter.lookupTransaction(fake, { watch: new Set([to]) })
      expect(view).toMatchObject({ status: 'success', state: 'final', transfers: [] })
    })

    it('never reads a failed transaction, and lookupTransaction says it failed', async () => {
      const to = await h.newAddress()
      const start = await finalHead(adapter)
      const failed = await h.fail(to, whole(7))
      const after = await h.pay(to, 1n)
      await h.finalize()
      const read = await until(adapter, start, new Set([to]), [after])
      expect(ids(read.transfers)).toEqual([after])
      const view = await adapter.lookupTransaction(failed, { watch: new Set([to]) })
      if (view.status === 'error') throw new Error(view.message)
      expect(view).toMatchObject({ state: 'final', success: false, transfers: [] })
      expect(view.failure).toEqual(expect.any(String))
      expect(view.blockTransfers.map((t) => t.txId)).not.toContain(failed)
    })

    it('reads nothing final before the depth or commitment, and then reads it', async () => {
      const to = await h.newAddress()
      const start = await finalHead(adapter)
      const reader = adapter.createHeadReader()
      await reader.look(new Set([to]))
      const sent = await h.pay(to, whole(2))
      await h.toHead()
      const sighting = await waitFor('the transfer at the head', async () =>
        (await reader.look(new Set([to]))).found.find((s) => s.txId === sent),
      )
      expect(sighting).toMatchObject({ value: whole(2), token: h.token.symbol, failure: null })
      const early = await upToFinal(adapter, start, new Set([to]))
      expect(ids(early.transfers)).not.toContain(sent)
      expect(await adapter.lookupTransaction(sent, { watch: new Set([to]) })).toMatchObject({
        status: 'success',
        state: 'pending',
        transfers: [],
      })
      await h.finalize()
      const read = await until(adapter, early.checkpoint, new Set([to]), [sent])
      expect(read.transfers.map((t) => [t.txId, t.value])).toEqual([[sent, whole(2)]])
    })

    const dropTitle = 'a transfer seen at the head and then dropped is never read final'
    ;(cannot.drop ? it.skip : it)(
      cannot.drop ? `${dropTitle} — skipped: ${cannot.drop}` : dropTitle,
      async () => {
        const dropTx = h.drop
        if (!dropTx) throw new Error('the harness gives no drop and names no reason it cannot')
        const to = await h.newAddress()
        const start = await finalHead(adapter)
        const reader = adapter.createHeadReader()
        await reader.look(new Set([to]))
        const doomed = await h.pay(to, whole(4))
        await h.toHead()
        await waitFor('the doomed transfer at the head', async () =>
          ids((await reader.look(new Set([to]))).found).includes(doomed),
        )
        await dropTx(doomed)
        const survivor = await h.pay(to, whole(6))
        await h.finalize()
        const read = await until(adapter, start, new Set([to]), [survivor])
        expect(ids(read.transfers)).toEqual([survivor])
        expect(await adapter.lookupTransaction(doomed, { watch: new Set([to]) })).toMatchObject({
          status: 'success',
          state: 'unknown',
        })
      },
    )

    it('reconciles a period: the final transfers of the accepted tokens inside it, nothing else', async () => {
      const [a, b] = [await h.newAddress(), await h.newAddress()]
      const before = await h.pay(a, whole(1))
      await h.finalize()
      await h.warp(60_000)
      const fromMs = (await chainNow(adapter)) + 1
      const paidA = await h.pay(a, whole(8))
      await h.counterfeit(a, whole(8))
      await h.fail(b, whole(9))
      const paidB = await h.pay(b, whole(9) + 1n)
      await h.finalize()
      const toMs = (await chainNow(adapter)) + 1
      const got = await waitFor('both payments in the period', async () => {
        const r = await adapter.receivedInPeriod([a, b], { fromMs, toMs })
        return ids(r.transfers).includes(paidA) && ids(r.transfers).includes(paidB) ? r : null
      })
      expect(got.unread).toEqual([])
      expect(
        got.transfers
          .map((t) => [t.txId, t.to, t.token, t.value])
          .sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      ).toEqual(
        [
          [paidA, a, h.token.symbol, whole(8)],
          [paidB, b, h.token.symbol, whole(9) + 1n],
        ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      )
      expect(ids(got.transfers)).not.toContain(before)
    })

    it('proves a refund by watching its address and by its hash', async () => {
      const refundTo = await h.newAddress()
      const since = (await chainNow(adapter)) - 1000
      const refund = await h.pay(refundTo, whole(11))
      await h.finalize()
      const watched = await waitFor('the refund in transfersTo', async () => {
        const list = await adapter.transfersTo(refundTo, h.token.symbol, since)
        return list?.some((t) => t.txId === refund) ? list : null
      })
      expect(watched).toMatchObject([{ txId: refund, from: h.buyer, value: whole(11) }])
      const view = await adapter.lookupTransaction(refund, { watch: new Set() })
      if (view.status === 'error') throw new Error(view.message)
      expect(view).toMatchObject({ state: 'final', success: true })
      expect(view.transfers.map((t) => [t.from, t.to, t.token, t.value])).toEqual([
        [h.buyer, refundTo, h.token.symbol, whole(11)],
      ])
    })

    it('reads through the next provider while the first one is down', async () => {
      const down = await proxy()
      down.set({ kind: 'refuse' })
      const two = h.adapter([down.url, h.nodeUrl])
      const to = await h.newAddress()
      const start = await finalHead(two)
      const sent = await h.pay(to, whole(1))
      await h.finalize()
      const read = await until(two, start, new Set([to]), [sent])
      expect(read.transfers.map((t) => t.value)).toEqual([whole(1)])
      expect(await two.lookupTransaction(sent, { watch: new Set([to]) })).toMatchObject({ state: 'final' })
      expect(down.asked.refused).toBeGreaterThan(0)
      expect(two.providers.health()[0]?.lastError).not.toBeNull()
    })

    it('reads what a lagging provider has not seen yet from the next one', async () => {
      const laggard = await proxy()
      const two = h.adapter([laggard.url, h.nodeUrl])
      const to = await h.newAddress()
      const start = await finalHead(two)
      // Everything asked so far is answered as it was, for ever: the first provider stopped here.
      await upToFinal(two, start, new Set([to]))
      laggard.set({ kind: 'freeze' })
      const sent = await h.pay(to, whole(3))
      await h.finalize()
      await two.providers.refreshHeads(0)
      const read = await until(two, start, new Set([to]), [sent])
      expect(read.transfers.map((t) => [t.txId, t.value])).toEqual([[sent, whole(3)]])
      expect(laggard.asked.frozen).toBeGreaterThan(0)
    })

    it('never believes a provider that lies (the honest one is read instead)', async () => {
      const liar = await proxy()
      const two = h.adapter([liar.url, h.nodeUrl])
      const to = await h.newAddress()
      const start = await finalHead(two)
      liar.set({ kind: 'tamper', tamper: h.lie.tamper })
      const sent = await h.pay(to, whole(4))
      await h.finalize()
      const read = await until(two, start, new Set([to]), [sent])
      expect(read.transfers.map((t) => [t.txId, t.to, t.value])).toEqual([[sent, to, whole(4)]])
      expect(liar.asked.tampered).toBeGreaterThan(0)
      const [first] = two.providers.health()
      expect(first?.state === 'set_aside' || first?.lastError !== null).toBe(true)
    })

    shopCases(() => h, engines)
  })
}
