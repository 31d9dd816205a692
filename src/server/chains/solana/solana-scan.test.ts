import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../../../../tests/support/wait'
import { type RpcFront, serveRpc } from '../../../../tools/solana-standin/rpc'
import { createStandin, type Standin } from '../../../../tools/solana-standin/standin'
import { ataOf, transferInstructions } from '../../../../tools/solana-standin/transfers'
import type { ChainAdapter } from '../chain'
import { createSolanaAdapter } from './solana-adapter'
import { parseSolanaEnv } from './solana-env'

// What a look at the watched token accounts sends (decision 069): their balances, 100 to a
// getMultipleAccounts, and a signature listing only for an account never listed or whose balance
// moved; the stand-in's own getMultipleAccounts in Solana's documented shape; its drop. The
// requests are counted by method as they leave the adapter for the stand-in.

const FINALIZE_DEPTH = 4

describe('the Solana scanner reads balances before listings', () => {
  let standin: Standin
  let front: RpcFront
  let buyer: KeyPairSigner
  const sent: Record<string, number> = {}
  const counted: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[]
    for (const c of Array.isArray(body) ? body : [body]) sent[c.method] = (sent[c.method] ?? 0) + 1
    return fetch(input, init)
  }
  const since = () => {
    const before = { ...sent }
    return (method: string) => (sent[method] ?? 0) - (before[method] ?? 0)
  }
  const adapter = (pollMs = 100): ChainAdapter => {
    const { config, errors } = parseSolanaEnv({
      SOLANA_ENABLED: 'true',
      SOLANA_POLL_MS: String(pollMs),
      SOLANA_FINAL_EVERY_MS: '100',
      SOLANA_PROVIDER_1_URL: front.url,
    })
    if (errors.length > 0) throw new Error(errors.join('\n'))
    return createSolanaAdapter(config, { fetch: counted, coolingBaseMs: 1, maxCoolingMs: 1 })
  }
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(front.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return (await res.json()) as {
      result?: Record<string, unknown>
      error?: { code: number; message: string }
    }
  }
  const pay = async (to: string, units: bigint) =>
    (
      await standin.run(
        buyer,
        await transferInstructions({ payer: buyer, to, mint: standin.mints.usdt, amount: units }),
      )
    ).signature

  beforeAll(async () => {
    standin = await createStandin({ finalizeDepth: FINALIZE_DEPTH })
    front = await serveRpc(standin)
    buyer = await generateKeyPairSigner()
    standin.airdrop(buyer.address)
    await standin.mintTo(standin.mints.usdt, buyer.address, 10n ** 12n)
    standin.advance(FINALIZE_DEPTH + 1)
  })
  afterAll(async () => {
    standin.stop()
    await front.close()
  })

  it('answers getMultipleAccounts as Solana does: parsed token accounts at the commitment, null for none', async () => {
    const owner = (await generateKeyPairSigner()).address
    const ata = await ataOf(owner, standin.mints.usdt)
    const buyerAta = await ataOf(buyer.address, standin.mints.usdt)
    await pay(owner, 1_250_000n)
    const at = async (commitment: string) =>
      (await rpc('getMultipleAccounts', [[ata, buyerAta], { commitment, encoding: 'jsonParsed' }])).result
    // Processed only: the confirmed commitment has not seen the payment (nor the account it made).
    expect((await at('confirmed'))?.value).toMatchObject([null, { data: { program: 'spl-token' } }])
    standin.advance(1)
    const confirmed = await at('confirmed')
    expect(confirmed?.context).toEqual({ apiVersion: '2.2.0', slot: standin.slot('confirmed') })
    expect((confirmed?.value as unknown[] | undefined)?.[0]).toEqual({
      data: {
        parsed: {
          info: {
            isNative: false,
            mint: standin.mints.usdt,
            owner,
            state: 'initialized',
            tokenAmount: { amount: '1250000', decimals: 6, uiAmount: 1.25, uiAmountString: '1.25' },
          },
          type: 'account',
        },
        program: 'spl-token',
        space: 165,
      },
      executable: false,
      lamports: expect.any(Number),
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      rentEpoch: expect.any(Number),
      space: 165,
    })
    expect((await at('finalized'))?.value).toMatchObject([null, {}])
    const ahead = await rpc('getMultipleAccounts', [
      [ata],
      { commitment: 'confirmed', minContextSlot: standin.slot('processed') + 5 },
    ])
    expect(ahead.error).toMatchObject({ code: -32016 })
    expect((await rpc('getMultipleAccounts', [Array(101).fill(ata)])).error?.code).toBe(-32602)
  })

  it('lists only the accounts never listed or whose balance moved, and counts a read per 100 accounts', async () => {
    const chain = adapter()
    const owners = await Promise.all(
      Array.from({ length: 60 }, async () => (await generateKeyPairSigner()).address),
    )
    const watch = new Set(owners)
    // Three addresses were paid before (an address back from its cool-down): their USDT accounts exist.
    for (const o of owners.slice(0, 3)) await pay(o, 1n)
    standin.advance(1)
    const reader = chain.createHeadReader()
    let count = since()
    await reader.look(watch)
    // 120 token accounts (USDT and USDC of each): two balance reads; only the three accounts that
    // exist are listed (one that does not exist has received nothing).
    expect(count('getMultipleAccounts')).toBe(2)
    expect(count('getSignaturesForAddress')).toBe(3)
    count = since()
    await waitFor('a second look', async () => (await reader.look(watch)).requests > 0)
    expect(count('getMultipleAccounts')).toBe(2)
    expect(count('getSignaturesForAddress')).toBe(0)

    const paid = owners[7] as string
    count = since()
    const signature = await pay(paid, 4_000_000n)
    standin.advance(1)
    const seen = await waitFor('the payment at the head', async () =>
      (await reader.look(watch)).found.find((s) => s.txId === signature),
    )
    expect(seen).toMatchObject({ to: paid, value: 4_000_000n, from: buyer.address })
    // Only the paid order's USDT account was listed again (its balance and existence moved).
    expect(count('getSignaturesForAddress')).toBe(1)

    // Final without listing the account again (its status, or the finalized slot, says so).
    standin.advance(FINALIZE_DEPTH + 1)
    count = since()
    const start = standin.slot('finalized') - FINALIZE_DEPTH - 2
    const read = await waitFor('the payment read final', async () => {
      const r = await chain.readFinal({
        checkpoint: { number: start, hash: String(start) },
        watch,
        maxBlocks: 100,
        deadline: Date.now() + 5000,
      })
      return r.blocks.flatMap((b) => b.transfers).find((t) => t.txId === signature)
    })
    expect(read).toMatchObject({ value: 4_000_000n, to: paid })
    expect(count('getSignaturesForAddress')).toBe(0)
  })

  it('paces the balance reads to a key’s day: one request per 100 accounts per look', async () => {
    const { config } = parseSolanaEnv({
      SOLANA_ENABLED: 'true',
      SOLANA_PROVIDER_1_URL: front.url,
      SOLANA_PROVIDER_1_PER_DAY: '30000',
    })
    const chain = createSolanaAdapter(config, { fetch: counted })
    const owners = await Promise.all(
      Array.from({ length: 100 }, async () => (await generateKeyPairSigner()).address),
    )
    const watch = new Set(owners)
    const reader = chain.createHeadReader()
    const count = since()
    const first = Date.now()
    await reader.look(watch)
    expect(count('getMultipleAccounts')).toBe(2)
    // 30,000 a day, 85 % for the reads, less a finalized-slot look (2 requests) a minute: 0.262 a
    // second. Two reads a look (200 accounts) make a look every 7.6 s; listing each of the 200
    // accounts, as a look did before, would have come every 763 s.
    await waitFor('the next look', async () => (await reader.look(watch)).requests > 0, 20_000)
    expect(Date.now() - first).toBeGreaterThanOrEqual(7_000)
    expect(Date.now() - first).toBeLessThan(15_000)
    expect(count('getMultipleAccounts')).toBe(4)
    expect(count('getSignaturesForAddress')).toBe(0)
  }, 30_000)

  it('never moves the checkpoint past the slot its balance reads reached: a payment finalized since is read once they reach it', async () => {
    // The finalized slot asked every second (2 requests) leaves a day of 254,000 a balance read
    // every 2 s: between the two, the finalized slot read is newer than the last balance read.
    const { config } = parseSolanaEnv({
      SOLANA_ENABLED: 'true',
      SOLANA_PROVIDER_1_URL: front.url,
      SOLANA_PROVIDER_1_PER_DAY: '254000',
      SOLANA_FINAL_EVERY_MS: '1000',
    })
    const chain = createSolanaAdapter(config, { fetch: counted })
    const to = (await generateKeyPairSigner()).address
    const watch = new Set([to])
    const read = async (from: number) => {
      const r = await chain.readFinal({
        checkpoint: { number: from, hash: String(from) },
        watch,
        maxBlocks: 100,
        deadline: Date.now() + 5000,
      })
      if (r.error) throw new Error(r.error.message)
      return r
    }
    const first = await read(standin.slot('finalized') - 1)
    const firstAt = Date.now()
    const cp = first.blocks.at(-1)?.number ?? standin.slot('finalized') - 1
    const signature = await pay(to, 9_000_000n)
    const paidSlot = standin.transaction(signature)?.slot as number
    standin.advance(FINALIZE_DEPTH + 1)
    await waitFor('the finalized slot due again', () => Date.now() - firstAt > 1000)
    // The payment is final and the finalized slot read now is past it, but this account's balance
    // was last read before it (the next read is a second away): the checkpoint stays before it.
    const count = since()
    const early = await read(cp)
    expect(count('getSlot')).toBe(1)
    expect(count('getMultipleAccounts')).toBe(0)
    expect(early.blocks.flatMap((b) => b.transfers)).toEqual([])
    expect(early.blocks.at(-1)?.number ?? cp).toBeLessThan(paidSlot)
    let at = early.blocks.at(-1)?.number ?? cp
    const got = await waitFor(
      'the payment read once the balance is read again',
      async () => {
        const r = await read(at)
        at = r.blocks.at(-1)?.number ?? at
        return r.blocks.flatMap((b) => b.transfers).find((t) => t.txId === signature)
      },
      15_000,
    )
    expect(got).toMatchObject({ to, value: 9_000_000n })
  }, 30_000)

  it('does not lose a payment swept out before the next look: the listing at the order’s end names it', async () => {
    const chain = adapter(60_000)
    const order = await generateKeyPairSigner()
    standin.airdrop(order.address)
    const reader = chain.createHeadReader()
    const fromMs = (standin.slotTime(standin.slot('processed')) ?? 0) - 1000
    await reader.look(new Set([order.address]))
    await pay(order.address, 2_000_000n)
    const signature = standin.signaturesFor(await ataOf(order.address, standin.mints.usdt))[0]?.signature
    // The operator's wallet sweeps the address at once: its balance is back where the look left it.
    const sweep = await standin.run(
      order,
      await transferInstructions({
        payer: order,
        to: buyer.address,
        mint: standin.mints.usdt,
        amount: 2_000_000n,
      }),
    )
    expect(sweep.err).toBeNull()
    standin.advance(FINALIZE_DEPTH + 1)
    if (!chain.listReceived) throw new Error('the Solana adapter lists what an address received')
    const listed = await chain.listReceived(order.address, { fromMs, toMs: Date.now() + 60_000 })
    if (listed.status === 'error') throw new Error(listed.message)
    expect(listed.txIds).toContain(signature)
  })

  it('drops a confirmed transaction back out of the stand-in, and refuses a finalized one', async () => {
    const owner = (await generateKeyPairSigner()).address
    const ata = await ataOf(owner, standin.mints.usdt)
    const doomed = await pay(owner, 3_000_000n)
    standin.advance(1)
    expect(await standin.tokenBalance(owner, standin.mints.usdt)).toBe(3_000_000n)
    const drop = (signature: string) =>
      fetch(`${front.url}control/drop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ signature }),
      })
    expect((await drop(doomed)).status).toBe(200)
    // The account the payment made is gone again, and nothing names the transaction.
    expect((await rpc('getMultipleAccounts', [[ata], { commitment: 'confirmed' }])).result?.value).toEqual([
      null,
    ])
    expect((await rpc('getSignaturesForAddress', [ata, { commitment: 'confirmed' }])).result).toEqual([])
    expect((await rpc('getSignatureStatuses', [[doomed]])).result?.value).toEqual([null])
    const kept = await pay(owner, 1_000_000n)
    standin.advance(FINALIZE_DEPTH + 1)
    const refused = await drop(kept)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('finalized')
    expect(await standin.tokenBalance(owner, standin.mints.usdt)).toBe(1_000_000n)
  })
})
