import type { Address, Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../../tests/support/evm/anvil'
import {
  accounts,
  approve,
  deployRouter,
  deployStablecoin,
  FAKE_USDT,
  mint,
  revertedTransfer,
  routerPay,
  transfer,
  USDC_18,
  USDT_18,
} from '../../../../tests/support/evm/tokens'
import type { ChainAdapter } from '../chain'
import { createEvmAdapter, normalizeEvmAddress, normalizeEvmTxHash } from './evm-adapter'
import { parseEvmEnv } from './evm-env'

// The EVM family's reads against a real node (Anvil, chain id 56, a block per transaction): what
// the follower, the sighting watcher and the buyer's hash are given.

const DEPTH = 3

function adapterFor(
  anvil: Anvil,
  tokens: { symbol: string; contract: string; decimals: number }[],
  extra = {},
) {
  const { chains, errors } = parseEvmEnv({
    EVM_BSC_ENABLED: 'true',
    EVM_BSC_PROVIDER_1_URL: anvil.url,
    EVM_BSC_CONFIRMATIONS: String(DEPTH),
    EVM_BSC_TOKENS: JSON.stringify(tokens),
    ...extra,
  })
  expect(errors).toEqual([])
  const config = chains.find((c) => c.spec.key === 'bsc')
  if (!config) throw new Error('no bsc')
  return createEvmAdapter(config, { coolingBaseMs: 1, maxCoolingMs: 1 })
}

async function mineBlocks(anvil: Anvil, n: number) {
  await anvil.client.mine({ blocks: n })
}

/** Reads final blocks from `checkpoint` until caught up. */
async function readAll(
  adapter: ChainAdapter,
  checkpoint: { number: number; hash: string | null },
  watch: Set<string>,
) {
  const blocks = []
  for (;;) {
    const read = await adapter.readFinal({ checkpoint, watch, maxBlocks: 100, deadline: Date.now() + 10_000 })
    if (read.error) return { blocks, error: read.error, checkpoint }
    blocks.push(...read.blocks)
    const last = read.blocks[read.blocks.length - 1]
    if (last) checkpoint = { number: last.number, hash: last.hash }
    if (!read.more) return { blocks, checkpoint }
  }
}

describe('EVM family on Anvil', () => {
  let anvil: Anvil
  let buyer: Address
  let shop: Address
  let other: Address
  let deployer: Address
  let usdt: Address
  let usdc: Address
  let fake: Address
  let router: Address
  let adapter: ChainAdapter
  let watch: Set<string>

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    ;[deployer, buyer, shop, other] = await accounts(anvil)
    usdt = await deployStablecoin(anvil, USDT_18)
    usdc = await deployStablecoin(anvil, USDC_18)
    fake = await deployStablecoin(anvil, FAKE_USDT)
    router = await deployRouter(anvil)
    for (const token of [usdt, usdc, fake]) await mint(anvil, token, deployer, buyer, 10n ** 24n)
    adapter = adapterFor(anvil, [
      { symbol: 'USDT', contract: usdt, decimals: 18 },
      { symbol: 'USDC', contract: usdc, decimals: 18 },
    ])
    watch = new Set([shop])
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('normalises addresses to their checksum and hashes to lower case', () => {
    expect(normalizeEvmAddress(shop.toLowerCase())).toBe(shop)
    expect(normalizeEvmAddress(` ${shop} `)).toBe(shop)
    // A mixed-case address with a wrong checksum is a typo.
    const broken = shop.slice(0, 2) + shop.slice(2).replace(/[a-f]/, (c) => c.toUpperCase())
    expect(normalizeEvmAddress(broken)).toBeNull()
    expect(normalizeEvmAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull()
    expect(normalizeEvmTxHash(`0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`)
    expect(normalizeEvmTxHash('0x12')).toBeNull()
  })

  it('gives an EIP-681 payment URI with the token, chain id and base units', () => {
    const token = adapter.tokens.find((t) => t.symbol === 'USDT')
    if (!token) throw new Error('no USDT')
    expect(adapter.paymentUri({ address: shop, token, amountUnits: 12_500_000_000_000_000_000n })).toBe(
      `ethereum:${usdt}@56/transfer?address=${shop}&uint256=12500000000000000000`,
    )
  })

  it('reads final transfers of accepted tokens to our addresses only: transfer and transferFrom pay, a counterfeit and a revert do not', async () => {
    const start = await adapter.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const paid18 = await transfer(anvil, usdt, buyer, shop, 12_340_000_000_000_000_000n)
    await transfer(anvil, fake, buyer, shop, 50_000_000n)
    const paidUsdc = await transfer(anvil, usdc, buyer, shop, 7n * 10n ** 18n)
    await transfer(anvil, usdc, buyer, other, 10n ** 18n)
    const failed = await revertedTransfer(anvil, usdc, other, shop, 10n ** 20n)
    await approve(anvil, usdt, buyer, router, 10n ** 18n)
    const routed = await routerPay(anvil, router, other, usdt, buyer, shop, 10n ** 18n)
    // Not final yet: nothing is read past head − depth.
    const early = await readAll(adapter, { number: start.number, hash: start.hash }, watch)
    expect(early.blocks.flatMap((b) => b.transfers).map((t) => t.txId)).not.toContain(routed)
    await mineBlocks(anvil, DEPTH)
    const read = await readAll(adapter, { number: start.number, hash: start.hash }, watch)
    expect(read.error).toBeUndefined()
    const transfers = read.blocks.flatMap((b) => b.transfers)
    expect(transfers.map((t) => [t.txId, t.token, t.value, t.from, t.to, t.source])).toEqual([
      [paid18, 'USDT', 12_340_000_000_000_000_000n, buyer, shop, 'log'],
      [paidUsdc, 'USDC', 7n * 10n ** 18n, buyer, shop, 'log'],
      [routed, 'USDT', 10n ** 18n, buyer, shop, 'log'],
    ])
    expect(transfers.every((t) => t.chain === 'bsc' && t.blockTimestamp > 0)).toBe(true)
    // Blocks are in order, each follows the one before where they are adjacent, and the last is the final head.
    const numbers = read.blocks.map((b) => b.number)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    const head = Number(await anvil.client.getBlockNumber())
    expect(read.checkpoint.number).toBe(head - DEPTH + 1)
    const view = await adapter.lookupTransaction(failed, { watch })
    expect(view).toMatchObject({
      status: 'success',
      state: 'final',
      success: false,
      failure: 'REVERT',
      transfers: [],
    })
  })

  it('answers the buyer a pending, final, failed or unknown transaction', async () => {
    const sent = await transfer(anvil, usdt, buyer, shop, 5n * 10n ** 18n)
    const pending = await adapter.lookupTransaction(sent, { watch })
    expect(pending).toMatchObject({ status: 'success', state: 'pending', success: true, transfers: [] })
    const alsoToUs = await transfer(anvil, usdc, buyer, shop, 10n ** 18n)
    await mineBlocks(anvil, DEPTH)
    const final = await adapter.lookupTransaction(sent, { watch })
    if (final.status === 'error') throw new Error(final.message)
    expect(final.state).toBe('final')
    expect(final.transfers.map((t) => [t.token, t.value, t.to])).toEqual([['USDT', 5n * 10n ** 18n, shop]])
    // Every transfer to us in that block: with a block per transaction, just this one.
    expect(final.blockTransfers.map((t) => t.txId)).toEqual([sent])
    expect(final.blockTransfers.map((t) => t.txId)).not.toContain(alsoToUs)
    const unknown = await adapter.lookupTransaction(`0x${'12'.repeat(32)}`, { watch })
    expect(unknown).toMatchObject({ status: 'success', state: 'unknown' })
  })

  it('reads within the provider’s range limit, several passes to catch up', async () => {
    const narrow = adapterFor(anvil, [{ symbol: 'USDT', contract: usdt, decimals: 18 }], {
      EVM_BSC_PROVIDER_1_MAX_BLOCKS: '2',
    })
    const start = await narrow.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const sent: Hash[] = []
    for (let i = 1; i <= 5; i++) sent.push(await transfer(anvil, usdt, buyer, shop, BigInt(i) * 10n ** 18n))
    await mineBlocks(anvil, DEPTH)
    const first = await narrow.readFinal({
      checkpoint: { number: start.number, hash: start.hash },
      watch,
      maxBlocks: 100,
      deadline: Date.now() + 10_000,
    })
    expect(first.more).toBe(true)
    expect(first.blocks[first.blocks.length - 1]?.number).toBe(start.number + 2)
    const all = await readAll(narrow, { number: start.number, hash: start.hash }, watch)
    expect(all.blocks.flatMap((b) => b.transfers).map((t) => t.txId)).toEqual(sent)
  })

  it('sees head transfers as sightings, and after a reorganisation above the depth only what survives becomes final', async () => {
    const start = await adapter.finalHead()
    if (start.status === 'error') throw new Error(start.message)
    const reader = adapter.createHeadReader()
    await reader.look(watch)
    const doomed = await transfer(anvil, usdt, buyer, shop, 3n * 10n ** 18n)
    const look = await reader.look(watch)
    expect(look.error).toBeUndefined()
    expect(look.found.map((s) => [s.txId, s.token, s.value, s.failure])).toEqual([
      [doomed, 'USDT', 3n * 10n ** 18n, null],
    ])
    // The block holding it is replaced (depth 1 < confirmation depth): the transfer is gone.
    await anvil.client.request({ method: 'anvil_reorg', params: [1, []] } as never)
    const survivor = await transfer(anvil, usdt, buyer, shop, 4n * 10n ** 18n)
    const after = await reader.look(watch)
    expect(after.found.map((s) => s.txId)).toEqual([survivor])
    await mineBlocks(anvil, DEPTH)
    const read = await readAll(adapter, { number: start.number, hash: start.hash }, watch)
    expect(read.error).toBeUndefined()
    expect(read.blocks.flatMap((b) => b.transfers).map((t) => t.txId)).toEqual([survivor])
  })

  it('refuses to read past a checkpoint a reorganisation replaced: a reorg error, no blocks', async () => {
    await mineBlocks(anvil, DEPTH + 2)
    const checkpoint = await adapter.finalHead()
    if (checkpoint.status === 'error') throw new Error(checkpoint.message)
    // Deeper than the confirmation depth: the checkpoint block itself is replaced.
    await anvil.client.request({ method: 'anvil_reorg', params: [DEPTH + 1, []] } as never)
    await transfer(anvil, usdt, buyer, shop, 10n ** 18n)
    await mineBlocks(anvil, DEPTH)
    const read = await adapter.readFinal({
      checkpoint: { number: checkpoint.number, hash: checkpoint.hash },
      watch,
      maxBlocks: 100,
      deadline: Date.now() + 10_000,
    })
    expect(read.blocks).toEqual([])
    expect(read.error?.kind).toBe('reorg')
  })

  it('refuses a provider that serves another chain', async () => {
    const { chains } = parseEvmEnv({ EVM_BASE_ENABLED: 'true', EVM_BASE_PROVIDER_1_URL: anvil.url })
    const base = chains.find((c) => c.spec.key === 'base')
    if (!base) throw new Error('no base')
    const wrong = createEvmAdapter(base, { coolingBaseMs: 1, maxCoolingMs: 1 })
    const head = await wrong.finalHead()
    expect(head).toMatchObject({ status: 'error', kind: 'malformed' })
    expect(head.status === 'error' && head.message).toMatch(/serves chain 56, not Base \(8453\)/)
  })
})
