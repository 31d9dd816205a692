import type { ServerResponse } from 'node:http'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_6 } from '../../../../tests/support/evm/tokens'
import { type Received, startReceiver } from '../../../../tests/support/http-receiver'
import { freePort } from '../../../../tests/support/wait'
import type { ChainAdapter } from '../chain'
import { createEvmAdapter } from './evm-adapter'
import { parseEvmEnv } from './evm-env'

// Providers that fail, refuse wide ranges, rate-limit or lie, stood in for by real local HTTP
// servers in front of Anvil: reads move to the next provider, ranges shrink, liars are set aside.

type Rpc = { id: number; method: string; params: unknown[] }
type Answer = { result?: unknown; error?: unknown }
type Tamper = (
  req: Rpc,
  answer: { result?: unknown; error?: unknown },
) => { status?: number; body: unknown } | null

/** A JSON-RPC endpoint that forwards to Anvil (single calls and batches); `tamper` may refuse or rewrite an answer. */
async function proxy(anvil: Anvil, tamper: Tamper) {
  return startReceiver((req: Received, res: ServerResponse) => {
    void (async () => {
      const body = JSON.parse(req.body) as Rpc | Rpc[]
      const upstream = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: req.body,
      })
      const answer = (await upstream.json()) as Answer | Answer[]
      const calls = Array.isArray(body) ? body : [body]
      const answers = Array.isArray(answer) ? answer : [answer]
      let status = 200
      const out = calls.map((call, i) => {
        const changed = tamper(call, answers[i] as Answer)
        if (changed?.status) status = changed.status
        return changed ? changed.body : answers[i]
      })
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(Array.isArray(body) ? out : out[0]))
    })()
  })
}

describe('EVM providers', () => {
  let anvil: Anvil
  let buyer: Address
  let shop: Address
  let usdt: Address
  const closers: (() => Promise<void>)[] = []

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 137 })
    let deployer: Address
    ;[deployer, buyer, shop] = await accounts(anvil)
    usdt = await deployStablecoin(anvil, USDT_6)
    await mint(anvil, usdt, deployer, buyer, 10n ** 12n)
  }, 120_000)
  afterAll(async () => {
    for (const close of closers) await close()
    await anvil?.stop()
  })

  function polygon(env: Record<string, string>): ChainAdapter {
    const { chains, errors } = parseEvmEnv({
      EVM_POLYGON_ENABLED: 'true',
      EVM_POLYGON_CONFIRMATIONS: '2',
      EVM_POLYGON_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 6 }]),
      ...env,
    })
    expect(errors).toEqual([])
    const config = chains.find((c) => c.spec.key === 'polygon')
    if (!config) throw new Error('no polygon')
    return createEvmAdapter(config, { coolingBaseMs: 1, maxCoolingMs: 1, timeoutMs: 5000 })
  }

  async function payments(n: number) {
    const sent: string[] = []
    for (let i = 1; i <= n; i++) sent.push(await transfer(anvil, usdt, buyer, shop, BigInt(i) * 1_000_000n))
    await anvil.client.mine({ blocks: 2 })
    return sent
  }

  async function readAll(adapter: ChainAdapter, from: { number: number; hash: string }) {
    let checkpoint: { number: number; hash: string } = from
    const txIds: string[] = []
    for (;;) {
      const read = await adapter.readFinal({
        checkpoint,
        watch: new Set([shop]),
        maxBlocks: 1000,
        deadline: Date.now() + 10_000,
      })
      if (read.error) throw new Error(read.error.message)
      txIds.push(...read.blocks.flatMap((b) => b.transfers.map((t) => t.txId)))
      const last = read.blocks[read.blocks.length - 1]
      if (last) checkpoint = { number: last.number, hash: last.hash }
      if (!read.more) return txIds
    }
  }

  it('moves to the next provider when the first is down, and shows the fault', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    const adapter = polygon({
      EVM_POLYGON_PROVIDER_1_URL: dead,
      EVM_POLYGON_PROVIDER_1_NAME: 'down',
      EVM_POLYGON_PROVIDER_2_URL: anvil.url,
      EVM_POLYGON_PROVIDER_2_NAME: 'anvil',
    })
    const start = await adapter.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const sent = await payments(2)
    expect(await readAll(adapter, start)).toEqual(sent)
    const [down, up] = adapter.providers.health()
    expect(down?.lastError).not.toBeNull()
    expect(up?.successRate).toBe(1)
  })

  it('halves a range the provider refuses as too wide until it answers', async () => {
    const getLogsSpans: number[] = []
    const narrow = await proxy(anvil, (req) => {
      if (req.method !== 'eth_getLogs') return null
      const filter = req.params[0] as { fromBlock: string; toBlock: string }
      const span = Number(filter.toBlock) - Number(filter.fromBlock) + 1
      getLogsSpans.push(span)
      if (span <= 3) return null
      return {
        body: {
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32005, message: 'query exceeds max block range 3' },
        },
      }
    })
    closers.push(narrow.close)
    const adapter = polygon({ EVM_POLYGON_PROVIDER_1_URL: narrow.url })
    const start = await adapter.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const sent = await payments(6)
    expect(await readAll(adapter, start)).toEqual(sent)
    expect(getLogsSpans.some((s) => s > 3)).toBe(true)
    expect(adapter.providers.health()[0]?.lastError).toBeNull()
  })

  it('holds a rate-limited key back and reads from the next provider', async () => {
    const limited = await proxy(anvil, () => ({ status: 429, body: { error: 'too many requests' } }))
    closers.push(limited.close)
    const adapter = polygon({
      EVM_POLYGON_PROVIDER_1_URL: limited.url,
      EVM_POLYGON_PROVIDER_2_URL: anvil.url,
    })
    const head = await adapter.finalHead()
    expect(head.status).toBe('success')
    const asked = limited.received.length
    expect(adapter.providers.health()[0]?.state).toBe('suspended')
    await adapter.finalHead()
    expect(limited.received.length).toBe(asked)
  })

  it('asks the next provider when the first lags behind the chain another one has seen', async () => {
    const frozen = await anvil.client.getBlockNumber()
    // The laggard stopped at the current head: it answers every call, but never a newer block.
    const laggard = await proxy(anvil, (req, answer) =>
      req.method === 'eth_blockNumber' ? { body: { ...answer, result: `0x${frozen.toString(16)}` } } : null,
    )
    closers.push(laggard.close)
    const adapter = polygon({
      EVM_POLYGON_PROVIDER_1_URL: laggard.url,
      EVM_POLYGON_PROVIDER_1_NAME: 'laggard',
      EVM_POLYGON_PROVIDER_2_URL: anvil.url,
    })
    const start = await adapter.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const sent = await payments(2)
    // The follower's periodic look at every provider's head (the lag figure) finds the newer chain.
    await adapter.providers.refreshHeads(0)
    expect(await readAll(adapter, start)).toEqual(sent)
    expect(adapter.providers.health()[0]).toMatchObject({ name: 'laggard' })
    expect(adapter.providers.health()[0]?.lastError?.message).toMatch(/has no final block after \d+ yet/)
  })

  it('sets aside a provider whose blocks do not follow the checkpoint while another one’s do', async () => {
    const liar = await proxy(anvil, (req, answer) => {
      if (req.method !== 'eth_getBlockByNumber' || !answer.result) return null
      return {
        body: { ...answer, result: { ...(answer.result as object), parentHash: `0x${'66'.repeat(32)}` } },
      }
    })
    closers.push(liar.close)
    const adapter = polygon({
      EVM_POLYGON_PROVIDER_1_URL: liar.url,
      EVM_POLYGON_PROVIDER_1_NAME: 'liar',
      EVM_POLYGON_PROVIDER_2_URL: anvil.url,
    })
    const honest = polygon({ EVM_POLYGON_PROVIDER_1_URL: anvil.url })
    const start = await honest.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const sent = await payments(1)
    expect(await readAll(adapter, start)).toEqual(sent)
    expect(adapter.providers.health()[0]).toMatchObject({ name: 'liar', state: 'set_aside' })
  })
})
