import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDevchain, type Devchain } from './devchain'
import { APPROVAL_TOPIC, TRANSFER_TOPIC } from './sim-chain'

// tron-api.md §6 test vectors: index 0 receives, index 1 sends (the §3a worked example).
const BUYER_WALLET = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'
const BUYER_WALLET_HEX = '41c8599111f29c1e1e061265b4af93ea1f274ad78a'
const SENDER = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK'
const SENDER_HEX = '41b6e708a39781c96bd399c7657780ff9fe9f052a8'
const OTHER = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx'
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const FAKE_USDT = 'TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W'

let chain: Devchain

// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON and pin its shape with expect().
type Json = any

async function get(path: string, init?: RequestInit) {
  const res = await fetch(`${chain.url}${path}`, init)
  const text = await res.text()
  let json: Json
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, text, json }
}

function post(path: string, body: unknown) {
  return get(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function send(
  body: Record<string, unknown>,
): Promise<{ transaction_id: string; block_timestamp: number }> {
  const res = await post('/_sim/transfers', body)
  expect(res.status, res.text).toBe(200)
  return res.json
}

const trc20 = (address: string, query = '') => get(`/v1/accounts/${address}/transactions/trc20${query}`)

beforeAll(async () => {
  chain = await createDevchain({ port: 0 })
})

afterAll(async () => {
  await chain.close()
})

beforeEach(async () => {
  await post('/_sim/reset', {})
})

describe('GET /v1/accounts/{address}/transactions/trc20', () => {
  it('answers with the real envelope and exactly the seven item keys', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '12.5' })
    const res = await trc20(BUYER_WALLET)
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      data: [
        {
          transaction_id: sent.transaction_id,
          token_info: { symbol: 'USDT', address: USDT, decimals: 6, name: 'Tether USD' },
          block_timestamp: sent.block_timestamp,
          from: SENDER,
          to: BUYER_WALLET,
          type: 'Transfer',
          value: '12500000',
        },
      ],
      success: true,
      meta: { at: expect.any(Number), page_size: 1 },
    })
    expect(Object.keys(res.json.data[0]).sort()).toEqual(
      ['block_timestamp', 'from', 'to', 'token_info', 'transaction_id', 'type', 'value'].sort(),
    )
    expect(sent.transaction_id).toMatch(/^[0-9a-f]{64}$/)
  })

  it('answers an unknown address with 200 and no data, and a malformed one with 400', async () => {
    const empty = await trc20(OTHER)
    expect(empty.status).toBe(200)
    expect(empty.json).toEqual({ data: [], success: true, meta: { at: expect.any(Number), page_size: 0 } })

    const bad = await trc20('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({ success: false, error: expect.stringContaining('address') })
  })

  it('accepts hex addresses in the path and camelCase parameters', async () => {
    await send({ to: BUYER_WALLET, amount: 1 })
    await send({ to: BUYER_WALLET, amount: 2, confirmed: false })
    expect((await trc20(BUYER_WALLET_HEX)).json.data).toHaveLength(2)
    expect((await trc20(`0x${BUYER_WALLET_HEX.slice(2)}`)).json.data).toHaveLength(2)
    expect((await trc20(BUYER_WALLET_HEX, '?onlyConfirmed=true')).json.data).toHaveLength(1)
  })

  it('pages with an opaque fingerprint and links.next, and the last page has neither', async () => {
    const base = Date.now() - 60_000
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await send({ to: BUYER_WALLET, amount: `${i + 1}`, block_timestamp: base + i * 3000 }))
          .transaction_id,
      )
    }
    const query = '?only_confirmed=true&only_to=true&limit=2'
    const first = await trc20(BUYER_WALLET, query)
    expect(first.json.meta.page_size).toBe(2)
    expect(first.json.meta.fingerprint).toEqual(expect.any(String))
    const next = new URL(first.json.meta.links.next)
    expect(next.pathname).toBe(`/v1/accounts/${BUYER_WALLET}/transactions/trc20`)
    expect(next.searchParams.get('only_confirmed')).toBe('true')
    expect(next.searchParams.get('only_to')).toBe('true')
    expect(next.searchParams.get('limit')).toBe('2')
    expect(next.searchParams.get('fingerprint')).toBe(first.json.meta.fingerprint)

    // A transfer arriving between pages must not shift the cursor.
    await send({ to: BUYER_WALLET, amount: '99', block_timestamp: base + 100_000 })

    const second = await get(`${next.pathname}${next.search}`)
    expect(second.json.meta.page_size).toBe(2)
    const third = await trc20(BUYER_WALLET, `${query}&fingerprint=${second.json.meta.fingerprint}`)
    expect(third.json.meta).toEqual({ at: expect.any(Number), page_size: 1 })

    const seen = [...first.json.data, ...second.json.data, ...third.json.data].map(
      (d: Json) => d.transaction_id,
    )
    // Newest first by default.
    expect(seen).toEqual([...ids].reverse())

    const asc = await trc20(BUYER_WALLET, '?order_by=block_timestamp,asc&limit=200')
    expect(asc.json.data.map((d: Json) => d.value)).toEqual([
      '1000000',
      '2000000',
      '3000000',
      '4000000',
      '5000000',
      '99000000',
    ])

    expect((await trc20(BUYER_WALLET, '?fingerprint=notacursor')).status).toBe(400)
  })

  it('keeps the page size between 1 and 200, default 20', async () => {
    for (let i = 0; i < 21; i++) await send({ to: BUYER_WALLET, amount: '1' })
    expect((await trc20(BUYER_WALLET)).json.meta.page_size).toBe(20)
    expect((await trc20(BUYER_WALLET, '?limit=500')).json.meta.page_size).toBe(21)
    expect((await trc20(BUYER_WALLET, '?limit=0')).status).toBe(400)
    expect((await trc20(BUYER_WALLET, '?limit=abc')).status).toBe(400)
  })

  it('filters confirmed, unconfirmed, direction, time and contract', async () => {
    const t0 = Date.now() - 30_000
    await send({ to: BUYER_WALLET, amount: '1', block_timestamp: t0 })
    const pending = await send({
      to: BUYER_WALLET,
      amount: '2',
      confirmed: false,
      block_timestamp: t0 + 3000,
    })
    await send({ to: OTHER, from: BUYER_WALLET, amount: '3', block_timestamp: t0 + 6000 })
    await send({ to: BUYER_WALLET, amount: '4', contract: FAKE_USDT, block_timestamp: t0 + 9000 })

    const values = async (q: string) => (await trc20(BUYER_WALLET, q)).json.data.map((d: Json) => d.value)
    expect(await values('')).toEqual(['4000000', '3000000', '2000000', '1000000'])
    expect(await values('?only_confirmed=true')).toEqual(['4000000', '3000000', '1000000'])
    expect(await values('?only_unconfirmed=true')).toEqual(['2000000'])
    expect(await values('?only_to=true')).toEqual(['4000000', '2000000', '1000000'])
    expect(await values('?only_from=true')).toEqual(['3000000'])
    expect(await values('?only_to=true&only_from=true')).toHaveLength(4)
    expect(await values(`?min_timestamp=${t0 + 3000}&max_timestamp=${t0 + 6000}`)).toEqual([
      '3000000',
      '2000000',
    ])
    expect(await values(`?contract_address=${USDT}`)).toEqual(['3000000', '2000000', '1000000'])
    expect(await values('?contract_address=41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toHaveLength(3)
    expect((await trc20(BUYER_WALLET, '?only_confirmed=true&only_unconfirmed=true')).status).toBe(400)

    const confirmed = await post('/_sim/confirm', { transaction_id: pending.transaction_id })
    expect(confirmed.json).toEqual({
      transaction_id: pending.transaction_id,
      confirmed: true,
      block_timestamp: t0 + 3000,
    })
    expect(await values('?only_unconfirmed=true')).toEqual([])
    expect((await post('/_sim/confirm', { transaction_id: 'ab'.repeat(32) })).status).toBe(404)
  })

  it('reports a counterfeit "USDT" with its own contract address', async () => {
    await send({ to: BUYER_WALLET, amount: '100', contract: FAKE_USDT })
    const [row] = (await trc20(BUYER_WALLET)).json.data
    expect(row.token_info).toEqual({ symbol: 'USDT', address: FAKE_USDT, decimals: 6, name: 'Tether USD' })
  })

  it('lists Approval rows only when asked for, and several Transfer logs of one transaction', async () => {
    const tx = await send({ to: BUYER_WALLET, amount: '5' })
    await send({ to: BUYER_WALLET, amount: '7', txid: tx.transaction_id })
    await send({ to: BUYER_WALLET, amount: '9', type: 'Approval' })
    const rows = (await trc20(BUYER_WALLET, '?order_by=block_timestamp,asc')).json.data
    expect(rows.map((r: Json) => [r.transaction_id === tx.transaction_id, r.type, r.value])).toEqual([
      [true, 'Transfer', '5000000'],
      [true, 'Transfer', '7000000'],
      [false, 'Approval', '9000000'],
    ])
  })
})

describe('GET /v1/accounts/{address}/transactions (native TRX)', () => {
  it('returns full TransferContract transactions with sun amounts and hex addresses', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '7', token: 'TRX' })
    await send({ to: BUYER_WALLET, amount: '1' })
    const res = await get(`/v1/accounts/${BUYER_WALLET}/transactions?only_confirmed=true&only_to=true`)
    expect(res.status).toBe(200)
    expect(res.json.meta).toEqual({ at: expect.any(Number), page_size: 1 })
    const [tx] = res.json.data
    expect(tx).toMatchObject({
      ret: [{ contractRet: 'SUCCESS', fee: 0 }],
      txID: sent.transaction_id,
      blockNumber: expect.any(Number),
      block_timestamp: sent.block_timestamp,
      internal_transactions: [],
      raw_data: {
        contract: [
          {
            parameter: {
              value: { amount: 7_000_000, owner_address: SENDER_HEX, to_address: BUYER_WALLET_HEX },
              type_url: 'type.googleapis.com/protocol.TransferContract',
            },
            type: 'TransferContract',
          },
        ],
        ref_block_bytes: expect.stringMatching(/^[0-9a-f]{4}$/),
        ref_block_hash: expect.stringMatching(/^[0-9a-f]{16}$/),
        expiration: expect.any(Number),
        timestamp: expect.any(Number),
      },
    })
    expect(tx.signature[0]).toMatch(/^[0-9a-f]{130}$/)
    expect(tx.raw_data_hex).toMatch(/^[0-9a-f]+$/)
  })

  it('lists the caller’s own TRC20 calls as TriggerSmartContract, paged like trc20', async () => {
    await send({ to: OTHER, from: BUYER_WALLET, amount: '3' })
    await send({ to: OTHER, from: BUYER_WALLET, amount: '2', token: 'TRX' })
    const first = await get(`/v1/accounts/${BUYER_WALLET}/transactions?limit=1`)
    expect(first.json.meta.fingerprint).toEqual(expect.any(String))
    const second = await get(
      `/v1/accounts/${BUYER_WALLET}/transactions?limit=1&fingerprint=${first.json.meta.fingerprint}`,
    )
    expect(second.json.meta.fingerprint).toBeUndefined()
    const types = [...first.json.data, ...second.json.data]
      .map((t: Json) => t.raw_data.contract[0].type)
      .sort()
    expect(types).toEqual(['TransferContract', 'TriggerSmartContract'])
  })
})

describe('gettransactioninfobyid / gettransactionbyid', () => {
  it('decodes to the worked example of tron-api.md §3a', async () => {
    const sent = await send({ to: BUYER_WALLET, from: SENDER, amount: '12.5' })
    const info = await post('/walletsolidity/gettransactioninfobyid', { value: sent.transaction_id })
    expect(info.json).toMatchObject({
      id: sent.transaction_id,
      fee: expect.any(Number),
      blockNumber: expect.any(Number),
      blockTimeStamp: sent.block_timestamp,
      contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      receipt: { result: 'SUCCESS' },
      log: [
        {
          address: 'a614f803b6fd780986a42c78ec9c7f77e6ded13c',
          topics: [
            'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
            '000000000000000000000000b6e708a39781c96bd399c7657780ff9fe9f052a8',
            '000000000000000000000000c8599111f29c1e1e061265b4af93ea1f274ad78a',
          ],
          data: '0000000000000000000000000000000000000000000000000000000000bebc20',
        },
      ],
    })
    expect(info.json.result).toBeUndefined()
    // GET with ?value= answers the same.
    const viaGet = await get(`/wallet/gettransactioninfobyid?value=${sent.transaction_id}`)
    expect(viaGet.json).toEqual(info.json)
  })

  it('uses the real event ids', () => {
    const topic = (sig: string) => bytesToHex(keccak_256(utf8ToBytes(sig)))
    expect(TRANSFER_TOPIC).toBe(topic('Transfer(address,address,uint256)'))
    expect(APPROVAL_TOPIC).toBe(topic('Approval(address,address,uint256)'))
  })

  it('hides unconfirmed transactions from the solidity node only', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1', confirmed: false })
    expect(
      (await post('/walletsolidity/gettransactioninfobyid', { value: sent.transaction_id })).json,
    ).toEqual({})
    expect((await post('/walletsolidity/gettransactionbyid', { value: sent.transaction_id })).json).toEqual(
      {},
    )
    expect((await post('/wallet/gettransactioninfobyid', { value: sent.transaction_id })).json.id).toBe(
      sent.transaction_id,
    )
    expect((await post('/wallet/gettransactionbyid', { value: sent.transaction_id })).json.txID).toBe(
      sent.transaction_id,
    )
    await post('/_sim/confirm', { transaction_id: sent.transaction_id })
    expect(
      (await post('/walletsolidity/gettransactioninfobyid', { value: sent.transaction_id })).json.id,
    ).toBe(sent.transaction_id)
  })

  it('answers {} for an unknown id and a DecoderException for bad hex', async () => {
    expect((await post('/walletsolidity/gettransactioninfobyid', { value: 'ab'.repeat(32) })).json).toEqual(
      {},
    )
    const bad = await post('/walletsolidity/gettransactioninfobyid', { value: 'xyz' })
    expect(bad.status).toBe(200)
    expect(bad.json.Error).toMatch(/^class org\.bouncycastle\.util\.encoders\.DecoderException : /)
  })

  it('describes a TRC20 transfer call as TriggerSmartContract with a9059cbb call data', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '12.5' })
    const tx = (await post('/walletsolidity/gettransactionbyid', { value: sent.transaction_id })).json
    expect(tx.ret).toEqual([{ contractRet: 'SUCCESS' }])
    expect(tx.txID).toBe(sent.transaction_id)
    expect(tx.raw_data.fee_limit).toEqual(expect.any(Number))
    expect(tx.raw_data.contract[0]).toEqual({
      parameter: {
        value: {
          data:
            'a9059cbb000000000000000000000000c8599111f29c1e1e061265b4af93ea1f274ad78a' +
            '0000000000000000000000000000000000000000000000000000000000bebc20',
          owner_address: SENDER_HEX,
          contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
        },
        type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
      },
      type: 'TriggerSmartContract',
    })
  })

  it('records a reverted call without logs and keeps it out of the TRC20 list', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '10', failed: true })
    const info = (await post('/walletsolidity/gettransactioninfobyid', { value: sent.transaction_id })).json
    expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'REVERT' } })
    expect(info.log).toBeUndefined()
    expect((await trc20(BUYER_WALLET)).json.data).toEqual([])
    const tx = (await post('/wallet/gettransactionbyid', { value: sent.transaction_id })).json
    expect(tx.ret).toEqual([{ contractRet: 'REVERT' }])
  })

  it('gives a TRX transfer a receipt without result, several logs to a reused txid', async () => {
    const trx = await send({ to: BUYER_WALLET, amount: '7', token: 'TRX' })
    const info = (await post('/walletsolidity/gettransactioninfobyid', { value: trx.transaction_id })).json
    expect(info).toEqual({
      id: trx.transaction_id,
      blockNumber: expect.any(Number),
      blockTimeStamp: trx.block_timestamp,
      contractResult: [''],
      receipt: { net_usage: expect.any(Number) },
    })

    const a = await send({ to: BUYER_WALLET, amount: '1' })
    await send({ to: OTHER, amount: '2', txid: a.transaction_id })
    const multi = (await post('/walletsolidity/gettransactioninfobyid', { value: a.transaction_id })).json
    expect(multi.log).toHaveLength(2)
  })
})

describe('blocks and prices', () => {
  it('reports the solidified head at or above every confirmed transaction', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1' })
    const info = (await post('/walletsolidity/gettransactioninfobyid', { value: sent.transaction_id })).json
    const block = (await get('/walletsolidity/getnowblock')).json
    expect(block.block_header.raw_data.number).toBeGreaterThanOrEqual(info.blockNumber)
    expect(block.blockID).toMatch(/^[0-9a-f]{64}$/)
  })

  it('serves CoinGecko and Binance shapes, with a settable price', async () => {
    expect((await get('/api/v3/simple/price?ids=tron&vs_currencies=usd')).text).toBe('{"tron":{"usd":0.25}}')
    expect((await get('/api/v3/ticker/price?symbol=TRXUSDT')).json).toEqual({
      symbol: 'TRXUSDT',
      price: '0.25000000',
    })
    expect((await post('/_sim/price', { usd: '0.2871' })).status).toBe(200)
    expect((await get('/api/v3/simple/price?ids=tron&vs_currencies=usd')).json).toEqual({
      tron: { usd: 0.2871 },
    })
    expect((await get('/api/v3/ticker/price?symbol=TRXUSDT')).json.price).toBe('0.28710000')
    expect((await get('/api/v3/ticker/price?symbol=BTCUSDT')).status).toBe(400)
    expect((await post('/_sim/price', { usd: '-1' })).status).toBe(400)
  })
})

describe('control API', () => {
  it('rejects bad transfers with clear 400s', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ to: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ', amount: '1' }, /to is not a valid TRON address/],
      [{ to: BUYER_WALLET, amount: '1.0000001' }, /more than 6 decimals/],
      [{ to: BUYER_WALLET, amount: '-1' }, /amount/],
      [{ to: BUYER_WALLET, amount: '1e3' }, /amount/],
      [{ to: BUYER_WALLET, amount: 1e-7 }, /amount/],
      [{ to: BUYER_WALLET, amount: '0', token: 'TRX' }, /TRX amount/],
      [{ to: BUYER_WALLET, amount: '1', token: 'EUR' }, /token/],
      [{ to: BUYER_WALLET, ammount: '1' }, /unknown field\(s\): ammount/],
      [{ to: BUYER_WALLET, amount: '1', contract: 'nope' }, /contract is not a valid TRON address/],
    ]
    for (const [body, message] of cases) {
      const res = await post('/_sim/transfers', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.success).toBe(false)
      expect(res.json.error).toMatch(message)
    }
    expect((await get('/_sim/state')).json.transactions).toBe(0)
  })

  it('parses amounts exactly, beyond float precision', async () => {
    await send({ to: BUYER_WALLET, amount: '123456789012345.123456' })
    expect((await trc20(BUYER_WALLET)).json.data[0].value).toBe('123456789012345123456')
  })

  it('reports state and per-route request counts', async () => {
    await send({ to: BUYER_WALLET, amount: '1' })
    await send({ to: BUYER_WALLET, amount: '1', confirmed: false })
    await trc20(BUYER_WALLET)
    await trc20(OTHER)
    await get('/walletsolidity/getnowblock', { headers: { 'TRON-PRO-API-KEY': 'k-123' } })
    expect((await get('/_sim/state')).json).toMatchObject({ transactions: 2, confirmed: 1, unconfirmed: 1 })
    expect((await get('/_sim/stats')).json).toEqual({
      requests: 3,
      byPath: { '/v1/accounts/:address/transactions/trc20': 2, '/walletsolidity/getnowblock': 1 },
      apiKeys: { '(none)': 2, 'k-123': 1 },
      faulted: 0,
      peakPerSecond: 3,
    })
  })
})

describe('faults', () => {
  it('answers rate limits in the documented shapes', async () => {
    await post('/_sim/faults', { mode: 'http429', count: 1 })
    const r429 = await trc20(BUYER_WALLET)
    expect(r429.status).toBe(429)
    expect(r429.json).toEqual({
      Error: 'request rate exceeded the allowed_rps(10), and the query server is suspended for 1 s',
    })
    expect((await trc20(BUYER_WALLET)).status).toBe(200)

    await post('/_sim/faults', { mode: 'http403', count: 1 })
    const r403 = await post('/walletsolidity/gettransactioninfobyid', { value: 'ab'.repeat(32) })
    expect(r403.status).toBe(403)
    expect(r403.json).toEqual({
      Success: false,
      Error: 'The key exceeds the frequency limit(15), and the query server is suspended for 1s',
      StatusCode: 403,
    })
  })

  it('keeps failing until reset without a count, and leaves /_sim alone', async () => {
    await post('/_sim/faults', { mode: 'http503' })
    expect((await trc20(BUYER_WALLET)).status).toBe(503)
    expect((await trc20(BUYER_WALLET)).status).toBe(503)
    expect((await get('/_sim/state')).status).toBe(200)
    await post('/_sim/faults', { mode: 'http500', count: 2 })
    expect((await trc20(BUYER_WALLET)).status).toBe(500)
    expect((await trc20(BUYER_WALLET)).status).toBe(500)
    expect((await trc20(BUYER_WALLET)).status).toBe(200)
    expect((await get('/_sim/stats')).json).toMatchObject({ requests: 5, faulted: 4 })
    expect((await post('/_sim/faults', { mode: 'flaky' })).status).toBe(400)
  })

  it('sends broken JSON with status 200 in malformed mode', async () => {
    await post('/_sim/faults', { mode: 'malformed', count: 1 })
    const res = await trc20(BUYER_WALLET)
    expect(res.status).toBe(200)
    expect(() => JSON.parse(res.text)).toThrow()
  })

  it('holds the socket in timeout mode until the client gives up, and still closes', async () => {
    const own = await createDevchain({ port: 0 })
    own.setFault('timeout')
    const started = Date.now()
    await expect(
      fetch(`${own.url}/walletsolidity/getnowblock`, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow()
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)

    // A request still held while closing must not keep close() waiting.
    const pending = fetch(`${own.url}/walletsolidity/getnowblock`).catch((err: unknown) => err)
    while (own.stats().requests < 2) await new Promise((r) => setTimeout(r, 10))
    await own.close()
    expect(await pending).toBeInstanceOf(Error)
  })
})
