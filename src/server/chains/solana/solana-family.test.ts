import { generateKeyPairSigner } from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { parseWalletAddressLines } from '../../../shared/wallet-addresses'
import { associatedTokenAccount } from './solana-address'
import { solanaFamily } from './solana-family'
import { SOLANA_USDC_MINT, SOLANA_USDT_MINT } from './solana-tokens'

// The Solana family's forms: addresses and signatures as written (case-sensitive), pool lines, the
// Solana Pay request's exact amounts, and the SOLANA_* settings' errors.

describe('the Solana family object', () => {
  it('keeps addresses and signatures exactly as written and refuses what is not one', async () => {
    const key = (await generateKeyPairSigner()).address
    expect(solanaFamily.normalizeAddress(` ${key} `)).toBe(key)
    expect(solanaFamily.normalizeAddress(key.toLowerCase() === key ? `${key}0` : key.toLowerCase())).not.toBe(
      key,
    )
    expect(solanaFamily.normalizeAddress('0x55d398326f99059fF775485246999027B3197955')).toBeNull()
    const sig = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
    expect(solanaFamily.normalizeTxId(sig)).toBe(sig)
    expect(solanaFamily.normalizeTxId('ab'.repeat(32))).toBeNull()
    expect(solanaFamily.normalizeTxId(sig.slice(0, 40))).toBeNull()
  })

  it('takes wallet keys into the pool and names each bad line', async () => {
    const key = (await generateKeyPairSigner()).address
    // A token account is derived by a program: no one holds its key.
    const pda = await associatedTokenAccount(key, SOLANA_USDT_MINT)
    expect(parseWalletAddressLines([key])).toEqual({
      ok: true,
      addresses: [key],
      entries: [{ address: key, family: 'solana' }],
    })
    const bad = parseWalletAddressLines([key, pda, 'So1anaNotAnAddress0OIl'])
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.error).toContain(`${pda} (Solana address that is not a wallet key`)
      expect(bad.error).toContain('So1anaNotAnAddress0OIl')
      expect(bad.error).not.toContain(`${key},`)
    }
  })

  it('writes a Solana Pay transfer request with the amount exact to the last unit', () => {
    const address = 'EWMwZURfpmJBphmR75ZYcNC9XBxs9aWM5CLr1U4dtiU9'
    const uri = (amountUnits: bigint, label?: string) =>
      solanaFamily.paymentUri({ address, mint: SOLANA_USDC_MINT, amountUnits, decimals: 6, label })
    expect(uri(25_000_000n, 'My Shop')).toBe(
      `solana:${address}?amount=25&spl-token=${SOLANA_USDC_MINT}&reference=${address}&label=My%20Shop`,
    )
    expect(uri(1n)).toBe(
      `solana:${address}?amount=0.000001&spl-token=${SOLANA_USDC_MINT}&reference=${address}`,
    )
    expect(uri(123_456_789_012_345_678n)).toContain('amount=123456789012.345678&')
    expect(solanaFamily.explorerTxUrl('solana', 'abc')).toBe('https://solscan.io/tx/abc')
  })

  it('reads SOLANA_* settings and names each bad one', async () => {
    const ok = solanaFamily.parseEnv({
      SOLANA_ENABLED: 'true',
      SOLANA_PROVIDER_1_URL: 'https://rpc.example/?api-key={key}',
      SOLANA_PROVIDER_1_KEYS: 'a,b',
      SOLANA_PROVIDER_1_PER_DAY: '30000',
      PUBLIC_URL: 'https://shop.example.com/',
    })
    expect(ok.errors).toEqual([])
    expect(ok.config).toMatchObject({
      enabled: true,
      pollMs: 1000,
      finalEveryMs: 60_000,
      payLabel: 'shop.example.com',
    })
    expect(ok.config.providers).toEqual([
      {
        name: 'rpc.example',
        url: 'https://rpc.example/?api-key={key}',
        keys: ['a', 'b'],
        rps: 10,
        perDay: 30000,
      },
    ])
    const bad = solanaFamily.parseEnv({ SOLANA_ENABLED: 'yes', SOLANA_POLL_MS: '5', SOLANA_COLOUR: 'x' })
    expect(bad.errors).toEqual([
      '  SOLANA_COLOUR: unknown setting (use SOLANA_ENABLED, SOLANA_POLL_MS, SOLANA_START_SLOT, SOLANA_FINAL_EVERY_MS, SOLANA_PAY_LABEL, SOLANA_PROVIDER_<n>_URL …)',
      '  SOLANA_ENABLED: must be true or false (got "yes")',
      expect.stringContaining('SOLANA_POLL_MS'),
    ])
    expect(solanaFamily.parseEnv({ SOLANA_ENABLED: 'true' }).errors).toEqual([
      '  SOLANA_PROVIDER_1_URL: Solana is enabled but has no JSON-RPC provider',
    ])
    await expect(solanaFamily.adapters(bad.config)).resolves.toEqual([])
  })
})
