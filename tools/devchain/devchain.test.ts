import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tronBase58ToHex } from '../../src/shared/tron-address'
import { waitFor } from '../../tests/support/wait'
import { createDevchain, type Devchain } from './devchain'
import { APPROVAL_TOPIC, TRANSFER_TOPIC } from './sim-chain'

// Test mnemonic vectors: index 0 receives, index 1 sends.
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

interface Sent {
  transaction_id: string
  block_number: number
  block_timestamp: number
}

/** Submits a transfer and mines its block; solid (default) also mines until that block is solidified. */
async function send(body: Record<string, unknown>, solid = true): Promise<Sent> {
  const res = await post('/_sim/transfers', body)
  expect(res.status, res.text).toBe(200)
  const mined = await post('/_sim/mine', { blocks: solid ? LAG + 1 : 1 })
  expect(mined.status, mined.text).toBe(200)
  return res.json
}

const LAG = 19

const trc20 = (address: string, query = '') => get(`/v1/accounts/${address}/transactions/trc20${query}`)

beforeAll(async () => {
  chain = await createDevchain({ port: 0, autoMine: false })
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
    await send({ to: BUYER_WALLET, amount: 2 }, false)
    expect((await trc20(BUYER_WALLET_HEX)).json.data).toHaveLength(2)
    expect((await trc20(`0x${BUYER_WALLET_HEX.slice(2)}`)).json.data).toHaveLength(2)
    expect((await trc20(BUYER_WALLET_HEX, '?onlyConfirmed=true')).json.data).toHaveLength(1)
  })

  it('pages with an opaque fingerprint and links.next, and the last page has neither', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await send({ to: BUYER_WALLET, amount: `${i + 1}` })).transaction_id)
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
    await send({ to: BUYER_WALLET, amount: '99' })

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
    await send({ to: BUYER_WALLET, amount: '1' })
    const second = await send({ to: OTHER, from: BUYER_WALLET, amount: '3' })
    const third = await send({ to: BUYER_WALLET, amount: '4', contract: FAKE_USDT })
    // Mined last but not solidified yet: the only unconfirmed one.
    await send({ to: BUYER_WALLET, amount: '2' }, false)

    const values = async (q: string) => (await trc20(BUYER_WALLET, q)).json.data.map((d: Json) => d.value)
    expect(await values('')).toEqual(['2000000', '4000000', '3000000', '1000000'])
    expect(await values('?only_confirmed=true')).toEqual(['4000000', '3000000', '1000000'])
    expect(await values('?only_unconfirmed=true')).toEqual(['2000000'])
    expect(await values('?only_to=true')).toEqual(['2000000', '4000000', '1000000'])
    expect(await values('?only_from=true')).toEqual(['3000000'])
    expect(await values('?only_to=true&only_from=true')).toHaveLength(4)
    expect(
      await values(`?min_timestamp=${second.block_timestamp}&max_timestamp=${third.block_timestamp}`),
    ).toEqual(['4000000', '3000000'])
    expect(await values(`?contract_address=${USDT}`)).toEqual(['2000000', '3000000', '1000000'])
    expect(await values('?contract_address=41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toHaveLength(3)
    expect((await trc20(BUYER_WALLET, '?only_confirmed=true&only_unconfirmed=true')).status).toBe(400)

    // Confirmation is only a matter of blocks building on top.
    await post('/_sim/mine', { blocks: LAG })
    expect(await values('?only_unconfirmed=true')).toEqual([])
  })

  it('reports a counterfeit "USDT" with its own contract address', async () => {
    await send({ to: BUYER_WALLET, amount: '100', contract: FAKE_USDT })
    const [row] = (await trc20(BUYER_WALLET)).json.data
    expect(row.token_info).toEqual({ symbol: 'USDT', address: FAKE_USDT, decimals: 6, name: 'Tether USD' })
  })

  it('lists Approval rows only when asked for, and several Transfer logs of one transaction', async () => {
    const tx = await send({
      logs: [
        { to: BUYER_WALLET, amount: '5' },
        { to: BUYER_WALLET, amount: '7' },
      ],
    })
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
  it('decodes to a 12.5 USDT transfer log with the real field shapes', async () => {
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

  it('hides transactions of blocks not solidified yet from the solidity node only', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1' }, false)
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
    await post('/_sim/mine', { blocks: LAG })
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

  it('gives a TRX transfer a receipt without result', async () => {
    const trx = await send({ to: BUYER_WALLET, amount: '7', token: 'TRX' })
    const info = (await post('/walletsolidity/gettransactioninfobyid', { value: trx.transaction_id })).json
    expect(info).toEqual({
      id: trx.transaction_id,
      blockNumber: expect.any(Number),
      blockTimeStamp: trx.block_timestamp,
      contractResult: [''],
      receipt: { net_usage: expect.any(Number) },
    })
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
      [{ amount: '1' }, /to is required/],
      [{ to: BUYER_WALLET }, /amount is required/],
      [{ to: BUYER_WALLET, amount: '1', method: 'transferFrom', via_contract: OTHER }, /cannot be combined/],
      [{ to: BUYER_WALLET, amount: '1', spender: OTHER }, /spender applies to method transferFrom/],
      [{ to: BUYER_WALLET, amount: '1', rejected: true }, /rejected applies to TRX sent by a contract/],
      [{ to: BUYER_WALLET, amount: '1', token: 'TRX', failed: true }, /failed applies to contract calls/],
      [{ to: BUYER_WALLET, amount: '1', token: 'TRX', method: 'transferFrom' }, /method applies to USDT/],
      [
        { to: BUYER_WALLET, amount: '1', logs: [{ to: OTHER, amount: '1' }] },
        /to cannot be combined with logs/,
      ],
      [{ logs: [] }, /logs must hold 1 to 100 logs/],
      [{ logs: [{ to: 'nope', amount: '1' }] }, /logs\.0\.to is not a valid TRON address/],
      [{ logs: [{ to: OTHER, amount: '1' }], token: 'TRX' }, /logs applies to USDT/],
      [{ to: BUYER_WALLET, amount: '1', via_contract: 'x' }, /via_contract is not a valid TRON address/],
    ]
    for (const [body, message] of cases) {
      const res = await post('/_sim/transfers', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.success).toBe(false)
      expect(res.json.error).toMatch(message)
    }
    expect((await get('/_sim/state')).json.transactions).toBe(0)
    expect(
      (await post('/_sim/transfers', { to: BUYER_WALLET, amount: '1', confirmed: true })).json.error,
    ).toMatch(/unknown field\(s\): confirmed/)
  })

  it('parses amounts exactly, beyond float precision', async () => {
    await send({ to: BUYER_WALLET, amount: '123456789012345.123456' })
    expect((await trc20(BUYER_WALLET)).json.data[0].value).toBe('123456789012345123456')
  })

  it('reports state and per-route request counts', async () => {
    await send({ to: BUYER_WALLET, amount: '1' })
    await send({ to: BUYER_WALLET, amount: '1' }, false)
    await post('/_sim/transfers', { to: BUYER_WALLET, amount: '1' })
    const a = await trc20(BUYER_WALLET)
    const b = await trc20(OTHER)
    const c = await get('/walletsolidity/getnowblock', { headers: { 'TRON-PRO-API-KEY': 'k-123' } })
    expect((await get('/_sim/state')).json).toMatchObject({
      transactions: 3,
      confirmed: 1,
      unconfirmed: 1,
      pending: 1,
      auto_mine: false,
      solidify_lag: LAG,
    })
    expect((await get('/_sim/stats')).json).toEqual({
      requests: 3,
      byPath: { '/v1/accounts/:address/transactions/trc20': 2, '/walletsolidity/getnowblock': 1 },
      bytesByPath: {
        '/v1/accounts/:address/transactions/trc20': Buffer.byteLength(a.text) + Buffer.byteLength(b.text),
        '/walletsolidity/getnowblock': Buffer.byteLength(c.text),
      },
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

// ---- the block layer ----

const USDT_HEX = '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'
const OTHER_HEX = tronBase58ToHex(OTHER)
const ROUTER = 'TJeMgukfx2m8qXcwFbjE4w2sduaewLZDAr'
const word = (hex: string) => hex.padStart(64, '0')
const addressWord = (hex41: string) => word(hex41.slice(2))

async function heights(): Promise<{ head: number; solid: number }> {
  const state = (await get('/_sim/state')).json
  return { head: state.head_block, solid: state.solid_block }
}

async function blockByNum(num: number, prefix = 'wallet') {
  return (await post(`/${prefix}/getblockbynum`, { num })).json
}

/** The block holding a transfer, and that transaction's element in the block's tx-info array. */
async function onChain(sent: Sent, prefix = 'wallet') {
  const block = await blockByNum(sent.block_number, prefix)
  const infos = (await post(`/${prefix}/gettransactioninfobyblocknum`, { num: sent.block_number })).json
  const index = block.transactions.findIndex((t: Json) => t.txID === sent.transaction_id)
  expect(index).toBeGreaterThanOrEqual(0)
  return { block, tx: block.transactions[index], info: infos[index], infos }
}

describe('blocks', () => {
  it('mines into the next block, timestamps at least one interval apart, and reports heights', async () => {
    const before = await heights()
    expect(before.head - before.solid).toBe(LAG)
    const submitted = await post('/_sim/transfers', { to: BUYER_WALLET, amount: '1' })
    expect(submitted.json).toEqual({
      transaction_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      block_number: before.head + 1,
      block_timestamp: expect.any(Number),
    })
    // Not on chain before its block is produced.
    expect(await blockByNum(before.head + 1)).toEqual({})
    const mined = await post('/_sim/mine', { blocks: 2 })
    expect(mined.json).toEqual({ head: before.head + 2, solid: before.solid + 2 })
    const block = await blockByNum(before.head + 1)
    expect(block.block_header.raw_data.timestamp).toBe(submitted.json.block_timestamp)
    expect(block.transactions.map((t: Json) => t.txID)).toEqual([submitted.json.transaction_id])
    const previous = await blockByNum(before.head)
    const next = await blockByNum(before.head + 2)
    expect(
      block.block_header.raw_data.timestamp - previous.block_header.raw_data.timestamp,
    ).toBeGreaterThanOrEqual(3000)
    expect(
      next.block_header.raw_data.timestamp - block.block_header.raw_data.timestamp,
    ).toBeGreaterThanOrEqual(3000)
    expect(next.block_header.raw_data.parentHash).toBe(block.blockID)
    expect(block.block_header.raw_data.parentHash).toBe(previous.blockID)
    expect((await post('/_sim/mine', { blocks: 0 })).status).toBe(400)
    expect((await post('/_sim/mine', {})).json.head).toBe(before.head + 3)
    // solidify() mines exactly until the last transfer's block is solidified, then nothing more.
    chain.transfer({ to: BUYER_WALLET, amount: '1' })
    expect(chain.solidify()).toEqual({ head: before.head + 4 + LAG, solid: before.head + 4 })
    expect(chain.solidify()).toEqual({ head: before.head + 4 + LAG, solid: before.head + 4 })
  })

  it('prints blocks in the real shape, with no transactions key when empty', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '12.5' })
    const block = await blockByNum(sent.block_number)
    expect(Object.keys(block)).toEqual(['blockID', 'block_header', 'transactions'])
    expect(block.blockID.slice(0, 16)).toBe(sent.block_number.toString(16).padStart(16, '0'))
    expect(block.blockID).toMatch(/^[0-9a-f]{64}$/)
    expect(block.block_header).toEqual({
      raw_data: {
        number: sent.block_number,
        txTrieRoot: expect.stringMatching(/^[0-9a-f]{64}$/),
        witness_address: expect.stringMatching(/^41[0-9a-f]{40}$/),
        parentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        version: expect.any(Number),
        timestamp: sent.block_timestamp,
      },
      witness_signature: expect.stringMatching(/^[0-9a-f]{130}$/),
    })
    const [tx] = block.transactions
    expect(Object.keys(tx)).toEqual(['ret', 'signature', 'txID', 'raw_data', 'raw_data_hex'])
    expect(Object.keys(tx.raw_data)).toEqual([
      'contract',
      'ref_block_bytes',
      'ref_block_hash',
      'expiration',
      'fee_limit',
      'timestamp',
    ])
    // The blocks mined on top are empty: no transactions key at all.
    const empty = await blockByNum(sent.block_number + 1)
    expect(Object.keys(empty)).toEqual(['blockID', 'block_header'])
    expect(await blockByNum(0)).toEqual({})
    expect(await blockByNum(sent.block_number + 1000)).toEqual({})
    expect((await post('/wallet/getblockbynum', { num: 'x' })).json.Error).toMatch(/NumberFormatException/)
  })

  it('answers getnowblock, getblock and getnodeinfo for the head and the solidified head', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1' }, false)
    const { head, solid } = await heights()
    expect(sent.block_number).toBe(head)
    // getnowblock ignores its body, even an invalid one.
    const now = await get('/wallet/getnowblock', { method: 'POST', body: '{"num": 5' })
    expect(now.json.block_header.raw_data.number).toBe(head)
    expect(now.json.transactions).toHaveLength(1)
    expect((await post('/walletsolidity/getnowblock', {})).json.block_header.raw_data.number).toBe(solid)

    const header = (await post('/wallet/getblock', { detail: false })).json
    expect(Object.keys(header)).toEqual(['blockID', 'block_header'])
    expect(header.block_header.raw_data.number).toBe(head)
    expect((await get('/wallet/getblock', { method: 'POST' })).json.transactions).toBeUndefined()
    expect((await post('/wallet/getblock', { detail: true })).json.transactions).toHaveLength(1)
    expect(
      (await post('/walletsolidity/getblock', { detail: false })).json.block_header.raw_data.number,
    ).toBe(solid)
    expect((await post('/wallet/getblock', { id_or_num: String(solid), detail: true })).json.blockID).toBe(
      (await blockByNum(solid)).blockID,
    )
    expect((await post('/wallet/getblock', { id_or_num: header.blockID })).json.blockID).toBe(header.blockID)
    expect((await post('/walletsolidity/getblock', { id_or_num: header.blockID })).json).toEqual({})
    expect((await post('/walletsolidity/getblock', { id_or_num: String(head) })).json).toEqual({})

    const info = (await post('/wallet/getnodeinfo', {})).json
    expect(info.block).toBe(`Num:${head},ID:${header.blockID}`)
    expect(info.solidityBlock).toBe(`Num:${solid},ID:${(await blockByNum(solid)).blockID}`)
  })

  it('serves at most 100 existing blocks per getblockbylimitnext, solidified ones on the solidity node', async () => {
    const { head, solid } = (await post('/_sim/mine', { blocks: 2 })).json
    const range = (await post('/wallet/getblockbylimitnext', { startNum: head - 4, endNum: head + 10 })).json
    expect(Object.keys(range)).toEqual(['block'])
    expect(range.block.map((b: Json) => b.block_header.raw_data.number)).toEqual([
      head - 4,
      head - 3,
      head - 2,
      head - 1,
      head,
    ])
    const solidRange = (
      await post('/walletsolidity/getblockbylimitnext', { startNum: solid - 1, endNum: head + 1 })
    ).json
    expect(solidRange.block.map((b: Json) => b.block_header.raw_data.number)).toEqual([solid - 1, solid])
    const none = [
      { startNum: head + 1, endNum: head + 5 },
      { startNum: head, endNum: head },
      { startNum: head, endNum: head - 2 },
      { startNum: head - 101, endNum: head },
    ]
    for (const body of none)
      expect((await post('/wallet/getblockbylimitnext', body)).json, JSON.stringify(body)).toEqual({})
    // The simulated chain starts LAG blocks below its first head: older numbers do not exist.
    expect(
      (await post('/wallet/getblockbylimitnext', { startNum: head - 100, endNum: head })).json.block,
    ).toHaveLength(LAG + 2)
  })

  it('answers gettransactioninfobyblocknum with one element per block transaction, in block order', async () => {
    await post('/_sim/transfers', { to: BUYER_WALLET, amount: '1', token: 'TRX' })
    await post('/_sim/transfers', { to: BUYER_WALLET, amount: '2' })
    await post('/_sim/transfers', { to: OTHER, amount: '3', failed: true })
    const { head } = (await post('/_sim/mine', { blocks: 1 })).json
    const block = await blockByNum(head)
    const infos = (await post('/wallet/gettransactioninfobyblocknum', { num: head })).json
    expect(infos.map((i: Json) => i.id)).toEqual(block.transactions.map((t: Json) => t.txID))
    expect(
      infos.every(
        (i: Json) => i.blockNumber === head && i.blockTimeStamp === block.block_header.raw_data.timestamp,
      ),
    ).toBe(true)
    // The solidity node does not know that block yet.
    expect((await post('/walletsolidity/gettransactioninfobyblocknum', { num: head })).json).toEqual([])
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: head - 1 })).json).toEqual([])
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: head + 1 })).json).toEqual([])
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: 0 })).json).toEqual({})
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: -3 })).json).toEqual({})
    await post('/_sim/mine', { blocks: LAG })
    expect((await post('/walletsolidity/gettransactioninfobyblocknum', { num: head })).json).toEqual(infos)
  })
})

describe('transfer kinds on chain', () => {
  it('USDT transfer: TriggerSmartContract a9059cbb on the USDT contract, one Transfer log', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '12.5' })
    const { tx, info } = await onChain(sent, 'walletsolidity')
    expect(tx.ret).toEqual([{ contractRet: 'SUCCESS' }])
    expect(tx.raw_data.contract[0].parameter.value).toEqual({
      data: `a9059cbb${addressWord(BUYER_WALLET_HEX)}${word('bebc20')}`,
      owner_address: SENDER_HEX,
      contract_address: USDT_HEX,
    })
    expect(info).toEqual({
      id: sent.transaction_id,
      fee: expect.any(Number),
      blockNumber: sent.block_number,
      blockTimeStamp: sent.block_timestamp,
      contractResult: [word('1')],
      contract_address: USDT_HEX,
      receipt: expect.objectContaining({ result: 'SUCCESS' }),
      log: [
        {
          address: USDT_HEX.slice(2),
          topics: [TRANSFER_TOPIC, addressWord(SENDER_HEX), addressWord(BUYER_WALLET_HEX)],
          data: word('bebc20'),
        },
      ],
    })
  })

  it('transferFrom: the spender signs, the log names the token holder', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1', method: 'transferFrom', from: OTHER })
    const { tx, info } = await onChain(sent)
    const value = tx.raw_data.contract[0].parameter.value
    expect(value.data).toBe(
      `23b872dd${addressWord(OTHER_HEX)}${addressWord(BUYER_WALLET_HEX)}${word('f4240')}`,
    )
    expect(value.contract_address).toBe(USDT_HEX)
    expect(value.owner_address).not.toBe(OTHER_HEX)
    expect(info.log[0].topics.slice(1)).toEqual([addressWord(OTHER_HEX), addressWord(BUYER_WALLET_HEX)])
  })

  it('via_contract: the transaction calls another contract, USDT emits the log', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '3', via_contract: ROUTER })
    const { tx, info } = await onChain(sent)
    expect(tx.raw_data.contract[0].type).toBe('TriggerSmartContract')
    expect(tx.raw_data.contract[0].parameter.value.contract_address).toBe(tronBase58ToHex(ROUTER))
    expect(info.contract_address).toBe(tx.raw_data.contract[0].parameter.value.contract_address)
    expect(info.log).toEqual([
      {
        address: USDT_HEX.slice(2),
        topics: [TRANSFER_TOPIC, addressWord(SENDER_HEX), addressWord(BUYER_WALLET_HEX)],
        data: word('2dc6c0'),
      },
    ])
  })

  it('swap_trx: one call naming nobody, a USDT log to one address and internal TRX to others, listed as TronGrid does', async () => {
    const sent = await send({
      to: BUYER_WALLET,
      amount: '3',
      via_contract: ROUTER,
      unnamed: true,
      swap_trx: [{ to: OTHER, amount: '2.5' }],
    })
    const { tx, info } = await onChain(sent)
    const call = tx.raw_data.contract[0].parameter.value
    expect(tx.raw_data.contract[0].type).toBe('TriggerSmartContract')
    expect(call.contract_address).toBe(tronBase58ToHex(ROUTER))
    // Amounts and a deadline: neither recipient is in the call data.
    expect(call.data).toMatch(/^38ed1739[0-9a-f]{192}$/)
    expect(call.data).not.toContain(BUYER_WALLET_HEX.slice(2))
    expect(call.data).not.toContain(OTHER_HEX.slice(2))
    expect(info.log).toEqual([
      {
        address: USDT_HEX.slice(2),
        topics: [TRANSFER_TOPIC, addressWord(SENDER_HEX), addressWord(BUYER_WALLET_HEX)],
        data: word('2dc6c0'),
      },
    ])
    expect(info.internal_transactions).toEqual([
      {
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        caller_address: call.contract_address,
        transferTo_address: OTHER_HEX,
        callValueInfo: [{ callValue: 2_500_000 }],
        note: '63616c6c',
      },
    ])
    // The recipient of the internal TRX finds it in its own transactions list, as an internal item.
    const listed = (await get(`/v1/accounts/${OTHER}/transactions?only_to=true&search_internal=true`)).json
    expect(listed.data).toContainEqual({
      internal_tx_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      data: { note: '63616c6c', rejected: false, call_value: { _: 2_500_000 } },
      block_timestamp: sent.block_timestamp,
      to_address: OTHER_HEX,
      tx_id: sent.transaction_id,
      from_address: call.contract_address,
    })
    expect(
      (await post('/_sim/transfers', { to: OTHER, amount: '1', swap_trx: [{ to: OTHER, amount: '1' }] }))
        .status,
    ).toBe(400)
  })

  it('logs: a batch payout with several recipients, a counterfeit token and an Approval in one transaction', async () => {
    const sent = await send({
      via_contract: ROUTER,
      logs: [
        { to: BUYER_WALLET, amount: '1' },
        { to: OTHER, amount: '2' },
        { to: BUYER_WALLET, amount: '3', contract: FAKE_USDT },
        { to: BUYER_WALLET, amount: '4', type: 'Approval', from: SENDER },
        { to: BUYER_WALLET, amount: '0' },
      ],
    })
    const { info } = await onChain(sent)
    expect(
      info.log.map((l: Json) => [
        l.address === USDT_HEX.slice(2),
        l.topics[0],
        l.topics[2],
        BigInt(`0x${l.data}`),
      ]),
    ).toEqual([
      [true, TRANSFER_TOPIC, addressWord(BUYER_WALLET_HEX), 1_000_000n],
      [true, TRANSFER_TOPIC, addressWord(OTHER_HEX), 2_000_000n],
      [false, TRANSFER_TOPIC, addressWord(BUYER_WALLET_HEX), 3_000_000n],
      [true, APPROVAL_TOPIC, addressWord(BUYER_WALLET_HEX), 4_000_000n],
      [true, TRANSFER_TOPIC, addressWord(BUYER_WALLET_HEX), 0n],
    ])
    expect(info.log[3].topics[1]).toBe(addressWord(SENDER_HEX))
    // Unless given, the payer of a batch is the calling contract itself.
    expect(info.log[0].topics[1]).toBe(addressWord(info.contract_address))
  })

  it('a reverted call: REVERT in the block, FAILED without logs in the info', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '10', failed: true })
    const { tx, info } = await onChain(sent)
    expect(tx.ret).toEqual([{ contractRet: 'REVERT' }])
    expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'REVERT' } })
    expect(info.log).toBeUndefined()
    expect(info.internal_transactions).toBeUndefined()
  })

  it('out of energy: OUT_OF_ENERGY in the block and the receipt, FAILED, the fee burnt, no logs', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '10', failed: 'OUT_OF_ENERGY' })
    const { tx, info } = await onChain(sent)
    expect(tx.ret).toEqual([{ contractRet: 'OUT_OF_ENERGY' }])
    expect(info).toMatchObject({
      result: 'FAILED',
      contractResult: [''],
      receipt: { result: 'OUT_OF_ENERGY', net_fee: 345_000 },
    })
    expect(info.fee).toBe(info.receipt.energy_fee + info.receipt.net_fee)
    expect(Buffer.from(info.resMessage, 'hex').toString()).toMatch(/^Not enough energy for /)
    expect(info.log).toBeUndefined()
    expect((await trc20(BUYER_WALLET)).json.data).toEqual([])
  })

  it('/_sim/drop: a head transaction vanishes and its block and the later ones get new ids', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '10' }, false)
    await post('/_sim/mine', { blocks: 2 })
    const before = (await post('/wallet/getblockbynum', { num: sent.block_number })).json
    expect(before.transactions).toHaveLength(1)
    const dropped = await post('/_sim/drop', { txid: sent.transaction_id })
    expect(dropped.json).toEqual({ block_number: sent.block_number, reorganised_blocks: 3 })
    const after = (await post('/wallet/getblockbynum', { num: sent.block_number })).json
    expect(after.transactions).toBeUndefined()
    expect(after.blockID).not.toBe(before.blockID)
    const next = (await post('/wallet/getblockbynum', { num: sent.block_number + 1 })).json
    expect(next.block_header.raw_data.parentHash).toBe(after.blockID)
    expect((await post('/wallet/gettransactionbyid', { value: sent.transaction_id })).json).toEqual({})
    await post('/_sim/mine', { blocks: LAG })
    expect(
      (await post('/walletsolidity/gettransactioninfobyblocknum', { num: sent.block_number })).json,
    ).toEqual([])
    // Solidified transactions never vanish; an unknown id is a 400.
    const solid = await send({ to: BUYER_WALLET, amount: '1' })
    expect((await post('/_sim/drop', { txid: solid.transaction_id })).status).toBe(400)
    expect((await post('/_sim/drop', { txid: 'ab'.repeat(32) })).status).toBe(400)
  })

  it('zero-value USDT dust is accepted and logged', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '0' })
    const { info } = await onChain(sent)
    expect(info.log[0].data).toBe(word('0'))
  })

  it('TRX: a TransferContract with the int64 amount printed exactly, even above 2^53', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '9007199254.740993', token: 'TRX' })
    const block = await get(`/wallet/getblockbynum?num=${sent.block_number}`)
    expect(block.text).toContain('"amount":9007199254740993,')
    const { tx, info } = await onChain(sent)
    expect(tx.raw_data.contract[0]).toEqual({
      parameter: {
        value: { amount: expect.any(Number), owner_address: SENDER_HEX, to_address: BUYER_WALLET_HEX },
        type_url: 'type.googleapis.com/protocol.TransferContract',
      },
      type: 'TransferContract',
    })
    expect(tx.raw_data.fee_limit).toBeUndefined()
    expect(info).toEqual({
      id: sent.transaction_id,
      blockNumber: sent.block_number,
      blockTimeStamp: sent.block_timestamp,
      contractResult: [''],
      receipt: { net_usage: expect.any(Number) },
    })
  })

  it('TRX via_contract: internal_transactions carry the callValue, rejected when asked or reverted', async () => {
    const paid = await send({
      to: BUYER_WALLET,
      amount: '9007199254.740993',
      token: 'TRX',
      via_contract: ROUTER,
    })
    const { tx, info } = await onChain(paid)
    expect(tx.raw_data.contract[0].type).toBe('TriggerSmartContract')
    expect(info.log).toBeUndefined()
    expect(info.internal_transactions).toEqual([
      {
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        caller_address: tx.raw_data.contract[0].parameter.value.contract_address,
        transferTo_address: BUYER_WALLET_HEX,
        callValueInfo: [{ callValue: expect.any(Number) }],
        note: '63616c6c',
      },
    ])
    const text = (await post('/wallet/gettransactioninfobyid', { value: paid.transaction_id })).text
    expect(text).toContain('"callValue":9007199254740993}')

    const rejected = await send({
      to: BUYER_WALLET,
      amount: '1',
      token: 'TRX',
      via_contract: ROUTER,
      rejected: true,
    })
    expect((await onChain(rejected)).info.internal_transactions[0].rejected).toBe(true)
    const reverted = await send({
      to: BUYER_WALLET,
      amount: '1',
      token: 'TRX',
      via_contract: ROUTER,
      failed: true,
    })
    const revertedInfo = (await onChain(reverted)).info
    expect(revertedInfo.result).toBe('FAILED')
    expect(revertedInfo.internal_transactions[0].rejected).toBe(true)
  })

  it('noise: every produced block carries unrelated USDT transfers, with matching infos', async () => {
    const noisy = await createDevchain({ port: 0, autoMine: false, noisePerBlock: 5 })
    try {
      const sent = noisy.transfer({ to: BUYER_WALLET, amount: '1' })
      const { head } = noisy.mine(1)
      const res = await fetch(`${noisy.url}/wallet/getblockbynum`, {
        method: 'POST',
        body: JSON.stringify({ num: head }),
      })
      const block = (await res.json()) as Json
      expect(block.transactions).toHaveLength(6)
      expect(block.transactions[0].txID).toBe(sent.transaction_id)
      const again = (await (await fetch(`${noisy.url}/wallet/getblockbynum?num=${head}`)).json()) as Json
      expect(again).toEqual(block)
      const infos = (await (
        await fetch(`${noisy.url}/wallet/gettransactioninfobyblocknum`, {
          method: 'POST',
          body: JSON.stringify({ num: head }),
        })
      ).json()) as Json
      expect(infos.map((i: Json) => i.id)).toEqual(block.transactions.map((t: Json) => t.txID))
      expect(infos.slice(1).every((i: Json) => i.log?.[0]?.topics[0] === TRANSFER_TOPIC)).toBe(true)
    } finally {
      await noisy.close()
    }
  })
})

describe('block faults, downtime and the clock', () => {
  it('empty mode answers {} for blocks and [] for infos, and a path filter limits a fault to one endpoint', async () => {
    const sent = await send({ to: BUYER_WALLET, amount: '1' })
    await post('/_sim/faults', { mode: 'empty', count: 3 })
    expect(await blockByNum(sent.block_number)).toEqual({})
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: sent.block_number })).json).toEqual([])
    expect(
      (
        await post('/walletsolidity/getblockbylimitnext', {
          startNum: sent.block_number,
          endNum: sent.block_number + 1,
        })
      ).json,
    ).toEqual({})
    expect((await blockByNum(sent.block_number)).blockID).toEqual(expect.any(String))

    await post('/_sim/faults', { mode: 'http503', path: 'gettransactioninfobyblocknum' })
    expect(
      (await post('/walletsolidity/gettransactioninfobyblocknum', { num: sent.block_number })).status,
    ).toBe(503)
    expect((await blockByNum(sent.block_number, 'walletsolidity')).blockID).toEqual(expect.any(String))
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: sent.block_number })).status).toBe(503)
    await post('/_sim/faults', { mode: 'none' })
    expect((await post('/wallet/gettransactioninfobyblocknum', { num: sent.block_number })).status).toBe(200)
  })

  it('produces blocks on its clock, and keeps the chain going while the listener is stopped', async () => {
    const own = await createDevchain({ port: 0, blockIntervalMs: 40, solidifyLag: 3 })
    try {
      const start = own.heights()
      await waitFor('two blocks from the clock', () => own.heights().head >= start.head + 2)
      const before = own.heights()
      await own.stop()
      await expect(fetch(`${own.url}/wallet/getnowblock`)).rejects.toThrow()
      await waitFor('blocks while stopped', () => own.heights().head >= before.head + 3)
      await own.start()
      const now = (await (await fetch(`${own.url}/wallet/getnowblock`, { method: 'POST' })).json()) as Json
      expect(now.block_header.raw_data.number).toBeGreaterThanOrEqual(before.head + 3)
      const first = (await (await fetch(`${own.url}/wallet/getblockbynum?num=${start.head}`)).json()) as Json
      expect(first.block_header.raw_data.number).toBe(start.head)
      // A transfer answers with the block it will land in; the clock puts it there.
      const sent = own.transfer({ to: BUYER_WALLET, amount: '1' })
      await waitFor("the transfer's block", () => own.heights().head >= sent.block_number)
      const block = (await (
        await fetch(`${own.url}/wallet/getblockbynum?num=${sent.block_number}`)
      ).json()) as Json
      expect(block.block_header.raw_data.timestamp).toBe(sent.block_timestamp)
      expect(block.transactions[0].txID).toBe(sent.transaction_id)
    } finally {
      await own.close()
    }
  })
})
