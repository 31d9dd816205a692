import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../../tests/support/http-receiver'
import { freePort } from '../../../../tests/support/wait'
import { createDevchain, type Devchain, type TransferRequest } from '../../../../tools/devchain/devchain'
import { tronBase58ToHex } from '../../../shared/tron-address'
import { extractTransfers } from './extract-transfers'
import { type ChainBlock, createTronClient, type TronClientOptions } from './tron-client'

// Test mnemonic vectors: index 0 is the shop's wallet, index 1 the buyer paying it.
const SHOP_WALLET = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'
const BUYER = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'
const OTHER = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx'
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const FAKE_USDT = 'TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W'

let chain: Devchain

// biome-ignore lint/suspicious/noExplicitAny: tampered copies of real answers are arbitrary JSON.
type Json = any

beforeAll(async () => {
  chain = await createDevchain({ port: 0, autoMine: false })
})

afterAll(async () => {
  await chain.close()
})

beforeEach(() => {
  chain.reset()
})

function client(overrides: Partial<TronClientOptions> = {}) {
  return createTronClient({
    baseUrl: chain.url,
    usdtContract: USDT,
    maxRps: 100,
    timeoutMs: 2000,
    ...overrides,
  })
}

/** Submits a transfer and mines its block; solid (default) also mines until it is solidified. */
function send(request: TransferRequest, solid = true) {
  const sent = chain.transfer(request)
  if (solid) chain.solidify()
  else chain.mine(1)
  return sent
}

function expectSuccess<T extends { status: string }>(
  result: T,
): asserts result is Extract<T, { status: 'success' }> {
  expect(
    result,
    JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
  ).toMatchObject({
    status: 'success',
  })
}

describe('listTrc20Incoming', () => {
  it('follows fingerprint pages and returns values as bigint', async () => {
    let last = send({ to: SHOP_WALLET, amount: '1.5' })
    for (let i = 2; i <= 5; i++) last = send({ to: SHOP_WALLET, amount: `${i}.5` })
    const result = await client().listTrc20Incoming(SHOP_WALLET, { limit: 2 })
    expectSuccess(result)
    expect(result.complete).toBe(true)
    expect(result.skipped).toBe(0)
    expect(result.transfers.map((t) => t.value)).toEqual([
      5_500_000n,
      4_500_000n,
      3_500_000n,
      2_500_000n,
      1_500_000n,
    ])
    expect(result.transfers[0]).toEqual({
      transactionId: expect.stringMatching(/^[0-9a-f]{64}$/),
      contract: USDT,
      from: BUYER,
      to: SHOP_WALLET,
      type: 'Transfer',
      value: 5_500_000n,
      blockTimestamp: last.block_timestamp,
    })
    expect(chain.stats().byPath['/v1/accounts/:address/transactions/trc20']).toBe(3)
  })

  it('stops at maxPages and says the list is incomplete', async () => {
    for (let i = 0; i < 5; i++) send({ to: SHOP_WALLET, amount: '1' })
    const result = await client({ maxPages: 2 }).listTrc20Incoming(SHOP_WALLET, { limit: 2 })
    expectSuccess(result)
    expect(result.transfers).toHaveLength(4)
    expect(result.complete).toBe(false)
  })

  it('asks for confirmed incoming USDT since minTimestamp, with the API key header', async () => {
    const seen: { url: URL; key: string | null }[] = []
    const spy: typeof fetch = (input, init) => {
      seen.push({ url: new URL(String(input)), key: new Headers(init?.headers).get('TRON-PRO-API-KEY') })
      return fetch(input, init)
    }
    const t0 = send({ to: SHOP_WALLET, amount: '1' }).block_timestamp + 1
    const wanted = send({ to: SHOP_WALLET, amount: '2' })
    send({ to: OTHER, from: SHOP_WALLET, amount: '4' })
    send({ to: SHOP_WALLET, amount: '5', contract: FAKE_USDT })
    send({ to: SHOP_WALLET, amount: '3' }, false)

    const tron = client({ apiKey: 'test-key', fetch: spy })
    const result = await tron.listTrc20Incoming(SHOP_WALLET, { minTimestamp: t0 })
    expectSuccess(result)
    expect(result.transfers.map((t) => t.transactionId)).toEqual([wanted.transaction_id])
    expect(Object.fromEntries(seen[0]?.url.searchParams ?? [])).toEqual({
      only_confirmed: 'true',
      only_to: 'true',
      limit: '200',
      contract_address: USDT,
      min_timestamp: String(t0),
    })
    expect(seen[0]?.key).toBe('test-key')
    expect(chain.stats().apiKeys).toEqual({ 'test-key': 1 })

    const withPending = await tron.listTrc20Incoming(SHOP_WALLET, { minTimestamp: t0, onlyConfirmed: false })
    expectSuccess(withPending)
    expect(withPending.transfers.map((t) => t.value)).toEqual([3_000_000n, 2_000_000n])
  })

  it('reports a counterfeit "USDT" under its real contract so the matcher can reject it', async () => {
    send({ to: SHOP_WALLET, amount: '100', contract: FAKE_USDT })
    send({ to: SHOP_WALLET, amount: '10' })
    const tron = client()
    const genuineOnly = await tron.listTrc20Incoming(SHOP_WALLET)
    expectSuccess(genuineOnly)
    expect(genuineOnly.transfers.map((t) => t.contract)).toEqual([USDT])

    const everyToken = await tron.listTrc20Incoming(SHOP_WALLET, { contract: null })
    expectSuccess(everyToken)
    expect(everyToken.transfers.map((t) => [t.contract, t.value])).toEqual([
      [USDT, 10_000_000n],
      [FAKE_USDT, 100_000_000n],
    ])
  })

  it('passes Approval rows and same-transaction transfers through for the matcher', async () => {
    send({
      logs: [
        { to: SHOP_WALLET, amount: '5' },
        { to: SHOP_WALLET, amount: '7' },
      ],
    })
    send({ to: SHOP_WALLET, amount: '9', type: 'Approval' })
    const result = await client().listTrc20Incoming(SHOP_WALLET)
    expectSuccess(result)
    expect(result.transfers.map((t) => [t.type, t.value]).sort()).toEqual([
      ['Approval', 9_000_000n],
      ['Transfer', 5_000_000n],
      ['Transfer', 7_000_000n],
    ])
  })

  it('skips entries missing value, timestamp or id, and keeps the rest', async () => {
    const good = {
      transaction_id: 'ab'.repeat(32),
      token_info: { symbol: 'USDT', address: USDT, decimals: 6, name: 'Tether USD' },
      block_timestamp: 1785511209000,
      from: BUYER,
      to: SHOP_WALLET,
      type: 'Transfer',
      value: '340282366920938463463374607431768211456',
    }
    const { value: _v, ...noValue } = good
    const { block_timestamp: _t, ...noTimestamp } = good
    const { transaction_id: _i, ...noId } = good
    const page = {
      data: [noValue, good, noTimestamp, noId, { ...good, value: 12.5 }],
      success: true,
      meta: {},
    }
    const stub: typeof fetch = async () => new Response(JSON.stringify(page), { status: 200 })
    const result = await client({ fetch: stub }).listTrc20Incoming(SHOP_WALLET)
    expectSuccess(result)
    expect(result.skipped).toBe(4)
    expect(result.transfers.map((t) => t.value)).toEqual([2n ** 128n])
  })

  it('rejects a malformed address: a programming error, not an explorer failure', async () => {
    await expect(client().listTrc20Incoming('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')).rejects.toThrow(TypeError)
    expect(chain.stats().requests).toBe(0)
  })
})

describe('listTrxIncoming', () => {
  it('returns successful TransferContract payments in sun with base58 addresses', async () => {
    const paid = send({ to: SHOP_WALLET, amount: '7.25', token: 'TRX' })
    send({ to: SHOP_WALLET, amount: '1' })
    send({ to: OTHER, from: SHOP_WALLET, amount: '2', token: 'TRX' })
    const result = await client().listTrxIncoming(SHOP_WALLET)
    expectSuccess(result)
    expect(result.transfers).toEqual([
      {
        transactionId: paid.transaction_id,
        from: BUYER,
        to: SHOP_WALLET,
        value: 7_250_000n,
        blockTimestamp: paid.block_timestamp,
        blockNumber: expect.any(Number),
      },
    ])
  })

  it('ignores other contract types and failed transfers, keeps int64 amounts exact', async () => {
    const base = {
      txID: 'cd'.repeat(32),
      ret: [{ contractRet: 'SUCCESS', fee: 0 }],
      blockNumber: 70695838,
      block_timestamp: 1742740623000,
      internal_transactions: [],
    }
    const transfer = (amount: string) => ({
      parameter: {
        value: {
          amount,
          owner_address: '41b6e708a39781c96bd399c7657780ff9fe9f052a8',
          to_address: '41c8599111f29c1e1e061265b4af93ea1f274ad78a',
        },
        type_url: 'type.googleapis.com/protocol.TransferContract',
      },
      type: 'TransferContract',
    })
    const items = [
      { ...base, raw_data: { contract: [transfer('__BIG__')] } },
      {
        ...base,
        txID: 'ef'.repeat(32),
        ret: [{ contractRet: 'REVERT' }],
        raw_data: { contract: [transfer('1')] },
      },
      {
        ...base,
        txID: '12'.repeat(32),
        raw_data: {
          contract: [
            {
              parameter: {
                value: {
                  data: 'a9059cbb',
                  owner_address: '41b6e708a39781c96bd399c7657780ff9fe9f052a8',
                  contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
                },
              },
              type: 'TriggerSmartContract',
            },
          ],
        },
      },
      { ...base, txID: 'nothex' },
    ]
    // The explorer sends amounts as JSON numbers; this one is above 2^53 and must survive parsing.
    const body = JSON.stringify({ data: items, success: true, meta: { at: 1, page_size: 4 } }).replace(
      '"__BIG__"',
      '9007199254740993',
    )
    const stub: typeof fetch = async () => new Response(body, { status: 200 })
    const result = await client({ fetch: stub }).listTrxIncoming(SHOP_WALLET)
    expectSuccess(result)
    expect(result.skipped).toBe(1)
    expect(result.transfers.map((t) => [t.transactionId, t.from, t.to, t.value])).toEqual([
      ['cd'.repeat(32), BUYER, SHOP_WALLET, 9_007_199_254_740_993n],
    ])
  })
})

describe('getTransactionInfo, and a transaction read from its block', () => {
  /** What the buyer's hash check records: the transaction's block and receipts, through extractTransfers. */
  async function transfersOf(txid: string, ours: string[]) {
    const tron = client()
    const info = await tron.getTransactionInfo(txid)
    expectSuccess(info)
    const number = info.blockNumber as number
    const blocks = await tron.getSolidBlocks(number, number + 1)
    expectSuccess(blocks)
    const block = blocks.blocks[0] as ChainBlock
    const infos = await tron.getSolidTransactionInfos(number)
    expectSuccess(infos)
    return extractTransfers(block, infos.infos, new Set(ours), USDT, txid).map((t) => ({
      from: t.from,
      to: t.to,
      value: t.value,
      token: t.token,
    }))
  }

  it('decodes the USDT Transfer log of a 12.5 USDT payment', async () => {
    const sent = send({ to: SHOP_WALLET, from: BUYER, amount: '12.5' })
    const info = await client().getTransactionInfo(sent.transaction_id)
    expectSuccess(info)
    expect(info).toEqual({ status: 'success', found: true, blockNumber: expect.any(Number) })
    expect(await transfersOf(sent.transaction_id, [SHOP_WALLET])).toEqual([
      { from: BUYER, to: SHOP_WALLET, value: 12_500_000n, token: 'USDT' },
    ])
  })

  it('never takes a counterfeit contract for USDT, and reads every log of one transaction', async () => {
    const fake = send({ to: SHOP_WALLET, amount: '100', contract: FAKE_USDT })
    const multi = send({
      logs: [
        { to: SHOP_WALLET, amount: '1', from: BUYER },
        { to: OTHER, amount: '2', from: BUYER },
      ],
    })
    expect(await transfersOf(fake.transaction_id, [SHOP_WALLET])).toEqual([])
    expect(
      (await transfersOf(multi.transaction_id, [SHOP_WALLET, OTHER])).map((t) => [t.to, t.value]),
    ).toEqual([
      [SHOP_WALLET, 1_000_000n],
      [OTHER, 2_000_000n],
    ])
  })

  it('does not find unconfirmed transactions on the solidity node', async () => {
    const sent = send({ to: SHOP_WALLET, amount: '1' }, false)
    const tron = client()
    const solid = await tron.getTransactionInfo(sent.transaction_id)
    expectSuccess(solid)
    expect(solid).toMatchObject({ found: false, blockNumber: null })
    const latest = await tron.getTransactionInfo(sent.transaction_id, { solidified: false })
    expectSuccess(latest)
    expect(latest).toMatchObject({ found: true, blockNumber: expect.any(Number) })
    await expect(tron.getTransactionInfo('xyz')).rejects.toThrow(TypeError)
  })

  it('decodes no transfers from a reverted call', async () => {
    const sent = send({ to: SHOP_WALLET, amount: '1', failed: true })
    expect(await transfersOf(sent.transaction_id, [SHOP_WALLET])).toEqual([])
  })

  it('reads TRX transfers from the block', async () => {
    const trx = send({ to: SHOP_WALLET, amount: '7', token: 'TRX' })
    expect(await transfersOf(trx.transaction_id, [SHOP_WALLET])).toEqual([
      { from: BUYER, to: SHOP_WALLET, value: 7_000_000n, token: 'TRX' },
    ])
  })

  it('reads the solidified head', async () => {
    const sent = send({ to: SHOP_WALLET, amount: '1' })
    const tron = client()
    const head = await tron.getSolidHead()
    const info = await tron.getTransactionInfo(sent.transaction_id)
    expectSuccess(head)
    expectSuccess(info)
    expect(head.number).toBeGreaterThanOrEqual(info.blockNumber ?? Number.POSITIVE_INFINITY)
  })
})

describe('failures are values', () => {
  it('treats 429 as a rate limit, pauses every request for the hinted time, then recovers', async () => {
    const tron = client()
    chain.setFault('http429')
    const limited = await tron.getSolidHead()
    expect(limited).toMatchObject({ status: 'error', kind: 'rate_limited', httpStatus: 429 })
    if (limited.status !== 'error') return
    expect(limited.retryAfterMs).toBeGreaterThan(900)
    expect(limited.retryAfterMs).toBeLessThanOrEqual(1000)
    expect(tron.pausedUntil()).toBeGreaterThan(Date.now())

    chain.setFault('none')
    const started = Date.now()
    const [a, b] = await Promise.all([tron.getSolidHead(), tron.listTrc20Incoming(SHOP_WALLET)])
    expect(Date.now() - started).toBeGreaterThanOrEqual(850)
    expect(a.status).toBe('success')
    expect(b.status).toBe('success')
    expect(tron.pausedUntil()).toBe(0)
  })

  it('treats 403 with the frequency-limit body as a rate limit with its hint', async () => {
    chain.setFault('http403', 1)
    const limited = await client().getTransactionInfo('ab'.repeat(32))
    expect(limited).toMatchObject({ status: 'error', kind: 'rate_limited', httpStatus: 403 })
    if (limited.status === 'error') expect(limited.retryAfterMs).toBeGreaterThan(900)
  })

  it('recognises the full-node rate-limit body even with status 200, but not wording inside list data', async () => {
    const fullNode: typeof fetch = async () =>
      new Response(
        '{"Error":"The key exceeds the frequency limit(15), and the query server is suspended for 2s"}',
        { status: 200 },
      )
    const limited = await client({ fetch: fullNode }).getTransactionInfo('ab'.repeat(32))
    expect(limited).toMatchObject({ status: 'error', kind: 'rate_limited' })
    if (limited.status === 'error') expect(limited.retryAfterMs).toBeGreaterThan(1900)

    // Token names are chosen by whoever deploys the token.
    const row = {
      transaction_id: 'ab'.repeat(32),
      token_info: { symbol: 'USDT', address: FAKE_USDT, decimals: 6, name: 'allowed_rps frequency limit' },
      block_timestamp: 1785511209000,
      from: BUYER,
      to: SHOP_WALLET,
      type: 'Transfer',
      value: '1',
    }
    const poisoned: typeof fetch = async () =>
      new Response(JSON.stringify({ data: [row], success: true, meta: { at: 1, page_size: 1 } }), {
        status: 200,
      })
    const tron = client({ fetch: poisoned })
    const listed = await tron.listTrc20Incoming(SHOP_WALLET, { contract: null })
    expectSuccess(listed)
    expect(listed.transfers).toHaveLength(1)
    expect(tron.pausedUntil()).toBe(0)
  })

  it('backs off exponentially, capped, when a 503 gives no hint', async () => {
    const tron = client({ backoffBaseMs: 40, maxBackoffMs: 100 })
    chain.setFault('http503')
    const waits: number[] = []
    for (let i = 0; i < 3; i++) {
      const r = await tron.getSolidHead()
      expect(r).toMatchObject({ status: 'error', kind: 'rate_limited', httpStatus: 503 })
      if (r.status === 'error') waits.push(r.retryAfterMs ?? -1)
    }
    expect(waits[0]).toBeGreaterThan(20)
    expect(waits[0]).toBeLessThanOrEqual(40)
    expect(waits[1]).toBeGreaterThan(60)
    expect(waits[1]).toBeLessThanOrEqual(80)
    expect(waits[2]).toBeGreaterThan(80)
    expect(waits[2]).toBeLessThanOrEqual(100)
    chain.setFault('none')
    expect((await tron.getSolidHead()).status).toBe('success')
  })

  it('reports other HTTP errors, malformed JSON, timeouts and refused connections', async () => {
    const tron = client({ timeoutMs: 300 })
    chain.setFault('http500', 1)
    expect(await tron.listTrxIncoming(SHOP_WALLET)).toMatchObject({
      status: 'error',
      kind: 'http',
      httpStatus: 500,
    })

    chain.setFault('malformed', 1)
    expect(await tron.listTrc20Incoming(SHOP_WALLET)).toMatchObject({ status: 'error', kind: 'malformed' })

    chain.setFault('timeout', 1)
    const started = Date.now()
    expect(await tron.getTransactionInfo('ab'.repeat(32))).toMatchObject({ status: 'error', kind: 'timeout' })
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(280)
    expect(elapsed).toBeLessThan(2000)

    // Recovered: the fault count is used up and nothing is paused.
    expect((await tron.listTrc20Incoming(SHOP_WALLET)).status).toBe('success')

    const port = await freePort()
    const offline = createTronClient({
      baseUrl: `http://127.0.0.1:${port}`,
      usdtContract: USDT,
      timeoutMs: 1000,
    })
    expect(await offline.getSolidHead()).toMatchObject({ status: 'error', kind: 'network' })
  })

  it('reports an explorer refusal (400 for a bad request) as an http error', async () => {
    const stub: typeof fetch = async () =>
      new Response('{"success":false,"error":"Invalid address"}', { status: 400 })
    expect(await client({ fetch: stub }).listTrc20Incoming(SHOP_WALLET)).toMatchObject({
      status: 'error',
      kind: 'http',
      httpStatus: 400,
    })
  })
})

describe('request budget', () => {
  it('spaces every request of the client to maxRps, across concurrent callers', async () => {
    const tron = client({ maxRps: 10 })
    chain.resetStats()
    const started = Date.now()
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? tron.getSolidHead() : tron.listTrc20Incoming(SHOP_WALLET),
      ),
    )
    const elapsed = Date.now() - started
    expect(results.every((r) => r.status === 'success')).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(1900)
    const stats = chain.stats()
    expect(stats.requests).toBe(20)
    // Server-side arrival jitter can put one extra request inside a 1 s window, never more.
    expect(stats.peakPerSecond).toBeLessThanOrEqual(11)
  })

  it('lets an urgent request (a buyer waiting) leave before routine polling already queued', async () => {
    const tron = client({ maxRps: 10 })
    const done: string[] = []
    const routine = Array.from({ length: 6 }, (_, i) =>
      tron.listTrc20Incoming(SHOP_WALLET).then(() => done.push(`routine ${i}`)),
    )
    const urgent = tron.listTrc20Incoming(OTHER, { urgent: true }).then(() => done.push('urgent'))
    await Promise.all([...routine, urgent])
    // The first routine request had already left; the urgent one goes next, not seventh.
    expect(done.indexOf('urgent')).toBeLessThanOrEqual(2)
    expect(done).toHaveLength(7)
  })
})

// ---- the chain follower's reads ----

const ROUTER = 'TJeMgukfx2m8qXcwFbjE4w2sduaewLZDAr'
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const abiWord = (address: string) => tronBase58ToHex(address).slice(2).padStart(64, '0')

/** A real HTTP server answering every request with `body` (a tampered copy of a devchain answer). */
function serve(body: string): Promise<{ url: string; close(): Promise<void> }> {
  return startReceiver((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(body)
  })
}

async function devchainText(path: string, body: unknown): Promise<string> {
  const res = await fetch(`${chain.url}${path}`, { method: 'POST', body: JSON.stringify(body) })
  return res.text()
}

describe('getSolidBlocks', () => {
  it('reads solidified blocks with their TRX transfers and called contracts, up to the solid head', async () => {
    const trx = chain.transfer({ to: SHOP_WALLET, amount: '9007199254.740993', token: 'TRX' })
    const usdt = chain.transfer({ to: SHOP_WALLET, amount: '1' })
    const routed = chain.transfer({ to: SHOP_WALLET, amount: '2', via_contract: ROUTER })
    const failed = chain.transfer({ to: SHOP_WALLET, amount: '3', failed: true })
    chain.solidify()
    const { solid } = chain.mine(1)
    const start = trx.block_number
    expect(usdt.block_number).toBe(start)
    const tron = client()
    const result = await tron.getSolidBlocks(start, start + 100)
    expectSuccess(result)
    // Everything from `start` to the solidified head, nothing beyond it.
    expect(result.blocks.map((b) => b.number)).toEqual(
      Array.from({ length: solid - start + 1 }, (_, i) => start + i),
    )
    const [first, second] = result.blocks
    expect(first).toEqual({
      number: start,
      blockId: expect.stringMatching(/^[0-9a-f]{64}$/),
      parentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      timestamp: trx.block_timestamp,
      transactions: [
        {
          txId: trx.transaction_id,
          contractRet: 'SUCCESS',
          type: 'TransferContract',
          trx: { from: BUYER, to: SHOP_WALLET, value: 9_007_199_254_740_993n },
          calledContract: null,
          callData: null,
          caller: null,
        },
        {
          txId: usdt.transaction_id,
          contractRet: 'SUCCESS',
          type: 'TriggerSmartContract',
          trx: null,
          calledContract: USDT,
          callData: expect.stringMatching(/^a9059cbb[0-9a-f]{128}$/),
          caller: expect.any(String),
        },
        {
          txId: routed.transaction_id,
          contractRet: 'SUCCESS',
          type: 'TriggerSmartContract',
          trx: null,
          calledContract: ROUTER,
          callData: expect.stringMatching(/^[0-9a-f]{136}$/),
          caller: expect.any(String),
        },
        {
          txId: failed.transaction_id,
          contractRet: 'REVERT',
          type: 'TriggerSmartContract',
          trx: null,
          calledContract: USDT,
          callData: expect.stringMatching(/^a9059cbb[0-9a-f]{128}$/),
          caller: expect.any(String),
        },
      ],
    })
    // An empty block has no transactions key; the client gives an empty list.
    expect(second?.transactions).toEqual([])
    expect(second?.parentHash).toBe(first?.blockId)

    const head = await tron.getSolidHead()
    expectSuccess(head)
    expect(head.number).toBe(solid)
    expect(head.blockId).toBe(result.blocks.at(-1)?.blockId)
  })

  it('answers no blocks for a range the solidity node does not have yet, and for {}', async () => {
    const { head, solid } = chain.mine(1)
    const tron = client()
    const ahead = await tron.getSolidBlocks(solid + 1, head + 1)
    expectSuccess(ahead)
    expect(ahead.blocks).toEqual([])
    chain.setFault('empty', 1)
    const lagging = await tron.getSolidBlocks(solid - 5, solid + 1)
    expectSuccess(lagging)
    expect(lagging.blocks).toEqual([])
    await expect(tron.getSolidBlocks(10, 10)).rejects.toThrow(TypeError)
    await expect(tron.getSolidBlocks(10, 111)).rejects.toThrow(TypeError)
    await expect(tron.getSolidBlocks(-1, 5)).rejects.toThrow(TypeError)
  })

  it('keeps only the contiguous run from start, and rejects unlinked or mislabelled blocks as malformed', async () => {
    const { solid } = chain.mine(5)
    const start = solid - 4
    const real = JSON.parse(
      await devchainText('/walletsolidity/getblockbylimitnext', { startNum: start, endNum: start + 5 }),
    )
    expect(real.block).toHaveLength(5)
    const cases: [string, (blocks: Json[]) => unknown, (r: unknown) => void][] = [
      [
        'a gap',
        (b) => ({ block: [b[0], b[1], b[3], b[4]] }),
        (r) =>
          expect(r).toMatchObject({ status: 'success', blocks: [{ number: start }, { number: start + 1 }] }),
      ],
      [
        'a late start',
        (b) => ({ block: b.slice(1) }),
        (r) => expect(r).toMatchObject({ status: 'success', blocks: [] }),
      ],
      [
        'a broken parent link',
        (b) => ({ block: [b[0], unlinked(b[1])] }),
        (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' }),
      ],
      [
        'a blockID of another number',
        (b) => ({ block: [{ ...b[0], blockID: b[1].blockID }] }),
        (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' }),
      ],
      [
        'no blockID',
        (b) => ({ block: [{ ...b[0], blockID: undefined }] }),
        (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' }),
      ],
      [
        'not a list',
        () => ({ block: {} }),
        (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' }),
      ],
      ['an array', () => [], (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' })],
    ]
    for (const [name, tamper, check] of cases) {
      const stub = await serve(JSON.stringify(tamper(structuredClone(real.block))))
      try {
        const result = await client({ baseUrl: stub.url }).getSolidBlocks(start, start + 5)
        check(result)
      } catch (err) {
        throw new Error(`${name}: ${err}`)
      } finally {
        await stub.close()
      }
    }
  })

  it('rejects a block with a transfer missing its amount or a call without a contract', async () => {
    const start = chain.transfer({ to: SHOP_WALLET, amount: '1', token: 'TRX' }).block_number
    chain.solidify()
    const text = await devchainText('/walletsolidity/getblockbylimitnext', {
      startNum: start,
      endNum: start + 1,
    })
    for (const broken of [
      text.replace(/"amount":\d+,/, ''),
      text.replace(/"to_address":"41/, '"to_address":"42'),
    ]) {
      const stub = await serve(broken)
      try {
        expect(await client({ baseUrl: stub.url }).getSolidBlocks(start, start + 1)).toMatchObject({
          status: 'error',
          kind: 'malformed',
        })
      } finally {
        await stub.close()
      }
    }
  })

  it('turns explorer faults into error values', async () => {
    const { solid } = chain.mine(1)
    const tron = client({ timeoutMs: 300, backoffBaseMs: 10, maxBackoffMs: 20 })
    chain.setFault('http503', 1, 'getblockbylimitnext')
    expect(await tron.getSolidBlocks(solid, solid + 1)).toMatchObject({
      status: 'error',
      kind: 'rate_limited',
    })
    chain.setFault('malformed', 1)
    expect(await tron.getSolidBlocks(solid, solid + 1)).toMatchObject({ status: 'error', kind: 'malformed' })
    chain.setFault('timeout', 1)
    expect(await tron.getSolidBlocks(solid, solid + 1)).toMatchObject({ status: 'error', kind: 'timeout' })
    await new Promise((r) => setTimeout(r, 30))
    const ok = await tron.getSolidBlocks(solid, solid + 1)
    expectSuccess(ok)
    expect(ok.blocks).toHaveLength(1)
  })
})

function unlinked(block: Json): Json {
  // Keeps the block's own id and number but claims a parent that is not the previous block.
  return {
    ...block,
    block_header: {
      ...block.block_header,
      raw_data: { ...block.block_header.raw_data, parentHash: 'ff'.repeat(32) },
    },
  }
}

describe('getSolidTransactionInfos', () => {
  it('decodes logs, success and internal TRX transfers of every transaction in block order', async () => {
    const usdt = chain.transfer({ to: SHOP_WALLET, amount: '12.5' })
    const trx = chain.transfer({ to: SHOP_WALLET, amount: '7', token: 'TRX' })
    const failed = chain.transfer({ to: SHOP_WALLET, amount: '3', failed: true })
    const batch = chain.transfer({
      via_contract: ROUTER,
      logs: [
        { to: SHOP_WALLET, amount: '1' },
        { to: OTHER, amount: '2', contract: FAKE_USDT },
      ],
    })
    const internal = chain.transfer({
      to: SHOP_WALLET,
      amount: '9007199254.740993',
      token: 'TRX',
      via_contract: ROUTER,
    })
    const rejected = chain.transfer({
      to: SHOP_WALLET,
      amount: '1',
      token: 'TRX',
      via_contract: ROUTER,
      rejected: true,
    })
    chain.solidify()
    const block = usdt.block_number
    const result = await client().getSolidTransactionInfos(block)
    expectSuccess(result)
    const common = { blockNumber: block, blockTimestamp: usdt.block_timestamp }
    expect(result.infos).toEqual([
      {
        txId: usdt.transaction_id,
        ...common,
        success: true,
        result: 'SUCCESS',
        logs: [
          {
            address: USDT,
            topics: [TRANSFER_TOPIC, abiWord(BUYER), abiWord(SHOP_WALLET)],
            data: (12_500_000).toString(16).padStart(64, '0'),
          },
        ],
        internalTransfers: [],
      },
      { txId: trx.transaction_id, ...common, success: true, result: null, logs: [], internalTransfers: [] },
      {
        txId: failed.transaction_id,
        ...common,
        success: false,
        result: 'REVERT',
        logs: [],
        internalTransfers: [],
      },
      {
        txId: batch.transaction_id,
        ...common,
        success: true,
        result: 'SUCCESS',
        logs: [
          expect.objectContaining({
            address: USDT,
            topics: [TRANSFER_TOPIC, abiWord(ROUTER), abiWord(SHOP_WALLET)],
          }),
          expect.objectContaining({
            address: FAKE_USDT,
            topics: [TRANSFER_TOPIC, abiWord(ROUTER), abiWord(OTHER)],
          }),
        ],
        internalTransfers: [],
      },
      {
        txId: internal.transaction_id,
        ...common,
        success: true,
        result: 'SUCCESS',
        logs: [],
        internalTransfers: [
          { index: 0, from: ROUTER, to: SHOP_WALLET, value: 9_007_199_254_740_993n, rejected: false },
        ],
      },
      {
        txId: rejected.transaction_id,
        ...common,
        success: true,
        result: 'SUCCESS',
        logs: [],
        internalTransfers: [{ index: 0, from: ROUTER, to: SHOP_WALLET, value: 1_000_000n, rejected: true }],
      },
    ])
  })

  it('answers [] for an empty block and a block the solidity node lacks; {} is malformed', async () => {
    const { head, solid } = chain.mine(1)
    const tron = client()
    for (const num of [solid, head]) {
      const r = await tron.getSolidTransactionInfos(num)
      expectSuccess(r)
      expect(r.infos).toEqual([])
    }
    const stub = await serve('{}')
    try {
      expect(await client({ baseUrl: stub.url }).getSolidTransactionInfos(solid)).toMatchObject({
        status: 'error',
        kind: 'malformed',
      })
    } finally {
      await stub.close()
    }
    await expect(tron.getSolidTransactionInfos(0)).rejects.toThrow(TypeError)
  })

  it('skips TRC10 and zero internal values, and rejects elements of another block or with bad shapes', async () => {
    const num = chain.transfer({
      to: SHOP_WALLET,
      amount: '1',
      token: 'TRX',
      via_contract: ROUTER,
    }).block_number
    chain.transfer({ to: SHOP_WALLET, amount: '1' })
    chain.solidify()
    const real = JSON.parse(await devchainText('/walletsolidity/gettransactioninfobyblocknum', { num }))
    expect(real).toHaveLength(2)
    const internalTx = real[0].internal_transactions[0]
    const withTokens = structuredClone(real)
    withTokens[0].internal_transactions = [
      { ...internalTx, callValueInfo: [{ callValue: 5, tokenId: '1002000' }] },
      { ...internalTx, callValueInfo: [{}] },
      internalTx,
    ]
    const cases: [unknown, (r: unknown) => void][] = [
      [
        withTokens,
        (r) =>
          expect(r).toMatchObject({
            status: 'success',
            infos: [{ internalTransfers: [{ index: 2, value: 1_000_000n }] }, {}],
          }),
      ],
      [
        [{ ...real[0], blockNumber: num + 1 }],
        (r) => expect(r).toMatchObject({ status: 'error', kind: 'malformed' }),
      ],
      [
        [{ ...real[1], log: [{ ...real[1].log[0], address: 'nope' }] }],
        (r) => expect(r).toMatchObject({ kind: 'malformed' }),
      ],
      [
        [{ ...real[1], log: [{ ...real[1].log[0], topics: ['0x12'] }] }],
        (r) => expect(r).toMatchObject({ kind: 'malformed' }),
      ],
      [[{ ...real[1], id: undefined }], (r) => expect(r).toMatchObject({ kind: 'malformed' })],
    ]
    for (const [body, check] of cases) {
      const stub = await serve(JSON.stringify(body))
      try {
        check(await client({ baseUrl: stub.url }).getSolidTransactionInfos(num))
      } finally {
        await stub.close()
      }
    }
  })

  it('turns explorer faults into error values, and a lagging back end into []', async () => {
    const num = chain.transfer({ to: SHOP_WALLET, amount: '1' }).block_number
    chain.solidify()
    const tron = client({ backoffBaseMs: 10, maxBackoffMs: 20 })
    chain.setFault('empty', 1, 'gettransactioninfobyblocknum')
    const lagging = await tron.getSolidTransactionInfos(num)
    expectSuccess(lagging)
    expect(lagging.infos).toEqual([])
    chain.setFault('http429', 1)
    expect(await tron.getSolidTransactionInfos(num)).toMatchObject({ status: 'error', kind: 'rate_limited' })
  })
})

describe('getSolidHead', () => {
  it('reads the header of the solidified head', async () => {
    const { solid } = chain.mine(2)
    const tron = client()
    const s = await tron.getSolidHead()
    expectSuccess(s)
    expect(s).toEqual({
      status: 'success',
      number: solid,
      blockId: expect.stringMatching(/^[0-9a-f]{64}$/),
      timestamp: expect.any(Number),
    })
    expect(chain.stats().byPath).toMatchObject({ '/walletsolidity/getblock': 1 })
    chain.setFault('empty', 1)
    expect(await tron.getSolidHead()).toMatchObject({ status: 'error', kind: 'malformed' })
  })
})
