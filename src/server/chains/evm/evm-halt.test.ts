import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, DEPTH, type EvmFixture } from '../../../../tests/support/evm/evm-fixture'
import { transfer } from '../../../../tests/support/evm/tokens'
import { adminSession, rpc } from '../../../../tests/support/test-app'
import { engines } from '../../../../tests/support/test-db'
import type { ChainOverview } from '../../../shared/chain-overview'
import { createChainFollower } from '../chain-follower'
import { readChainAgainFrom } from '../follower-lease'

// A chain's follower that stopped, as the operator sees it on the Chain tab (secure_fetch_chains):
// a reorganisation on BNB Smart Chain (Anvil) deeper than the depth stops its follower; the Chain
// tab's answer says so on that chain's row (why, since when), the other chain's row does not, and
// the operator's way on (npm run follower:reset: the chain read again from an earlier block, then a
// restart) clears it and the payment made after the reorganisation is credited.

describe.each(engines)('a stopped follower on the Chain tab (%s)', (engine) => {
  let f: EvmFixture
  let admin: Record<string, string>
  beforeAll(async () => {
    f = await createEvmFixture(engine, { env: { ADMIN_PASSWORD: 'evm-halt-Password-1' } })
    admin = await adminSession(f.t)
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  const chainsTab = async () => {
    const answer = await rpc(f.t.app, 'secure_fetch_chains', {}, admin)
    expect(answer.status).toBe(200)
    const chains = answer.body.chains as ChainOverview[]
    return Object.fromEntries(chains.map((c) => [c.chain, c])) as Record<string, ChainOverview>
  }

  const providerStates = async (chain: string) => {
    const answer = await rpc(f.t.app, 'secure_fetch_providers', { p_chain: chain }, admin)
    expect(answer.status).toBe(200)
    return (answer.body.providers as { state: string }[]).map((p) => p.state)
  }
  const chipStates = (row?: ChainOverview) => row?.providers.map((p) => p.state)

  it('the stopped chain’s row says why and since when, until the chain is read again from an earlier block', async () => {
    expect((await chainsTab()).bsc?.halted).toBeNull()
    expect(chipStates((await chainsTab()).bsc)).toEqual(['healthy'])
    // Blocks on top of the tokens' deployment, so the reorganisation leaves the buyer's balance.
    await f.nodes.bsc.anvil.client.mine({ blocks: 10 })
    await f.finalise('bsc')
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const [before] = await f.rows(sql`select checkpoint_block from follower_state where chain = 'bsc'`)
    const recorded = Number(before?.checkpoint_block)
    const startedAt = Date.now()
    await f.nodes.bsc.anvil.client.request({ method: 'anvil_reorg', params: [DEPTH + 2, []] } as never)
    // Anvil stamps the replacement blocks with their parent's time; a real chain's next block is later.
    const parent = await f.nodes.bsc.anvil.client.getBlock()
    const nowS = BigInt(Math.ceil(Date.now() / 1000))
    await f.nodes.bsc.anvil.client.setNextBlockTimestamp({
      timestamp: nowS > parent.timestamp ? nowS : parent.timestamp + 1n,
    })
    const due = (BigInt(Math.round(o.total * 100)) * 10n ** 18n) / 100n
    await transfer(f.nodes.bsc.anvil, f.nodes.bsc.tokens.USDT as Address, f.buyer, o.address, due)
    expect((await f.finalise('bsc')).at(-1)?.error?.kind).toBe('reorg')

    const tab = await chainsTab()
    expect(tab.bsc).toMatchObject({
      recorded,
      halted: { reason: expect.stringMatching(/does not follow the recorded block/) },
    })
    const since = Date.parse(tab.bsc?.halted?.since ?? '')
    expect(since).toBeGreaterThanOrEqual(startedAt - 1000)
    expect(since).toBeLessThanOrEqual(Date.now() + 1000)
    expect(tab.base?.halted).toBeNull()
    expect(tab.tron?.halted).toBeNull()
    // Its provider answers, but nothing is recorded from it: not "Healthy", on the row and the
    // provider panel alike; the other chain's provider is.
    expect(chipStates(tab.bsc)).toEqual(['chain_stopped'])
    expect(await providerStates('bsc')).toEqual(['chain_stopped'])
    expect(chipStates(tab.base)).toEqual(['healthy'])
    expect(await providerStates('base')).toEqual(['healthy'])
    // Another look of the stopped follower changes nothing: the first stop's time stays.
    expect((await f.nodes.bsc.follower.runOnce()).error?.kind).toBe('reorg')
    expect((await chainsTab()).bsc?.halted?.since).toBe(tab.bsc?.halted?.since)
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })

    // The operator's way on: the shop stopped, the chain read again from before the reorganisation,
    // the shop started (a new follower).
    await f.nodes.bsc.follower.stop()
    // What was recorded already is not recorded twice.
    expect(await readChainAgainFrom(f.t.database.db, 'bsc', recorded - 2 * DEPTH)).toBe(true)
    f.nodes.bsc.follower = createChainFollower({
      db: f.t.database.db,
      chain: f.t.app.services.chains.require('bsc'),
      rules: f.t.app.services.rules,
      batchBlocks: 50,
      leaseMs: 5000,
    })
    const results = await f.finalise('bsc')
    expect(results.every((r) => !r.error)).toBe(true)
    expect((await chainsTab()).bsc?.halted).toBeNull()
    expect(chipStates((await chainsTab()).bsc)).toEqual(['healthy'])
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })
  })
})
