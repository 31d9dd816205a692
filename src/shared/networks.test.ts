import { describe, expect, it } from 'vitest'
import { paymentNetworksAnswerSchema } from './network-schemas'
import { networkWithStandard, paymentNetworksOf } from './networks'

describe('networkWithStandard', () => {
  it('names the token standard of a stablecoin on each network', () => {
    expect(networkWithStandard('TRON', 'USDT')).toBe('TRON (TRC-20)')
    expect(networkWithStandard('BNB Smart Chain', 'USDT')).toBe('BNB Smart Chain (BEP-20)')
    expect(networkWithStandard('Base', 'USDC')).toBe('Base (ERC-20)')
  })

  it('gives a native coin and an unknown name no standard', () => {
    expect(networkWithStandard('TRON', 'TRX')).toBe('TRON')
    expect(networkWithStandard('Somewhere', 'USDT')).toBe('Somewhere')
  })
})

describe('paymentNetworksOf', () => {
  const tron = {
    chain: 'tron',
    family: 'tron',
    tokens: [{ symbol: 'USDT', decimals: 6 }],
    confirmations: null,
  }
  const bsc = {
    chain: 'bsc',
    family: 'evm',
    tokens: [
      { symbol: 'USDT', decimals: 18 },
      { symbol: 'USDC', decimals: 18 },
    ],
    confirmations: 15,
  }
  const answers: unknown[] = [
    { success: true, networks: [tron] },
    { success: true, networks: [tron, bsc] },
    { success: true, networks: [] },
    { success: true, networks: [{ ...bsc, extra: 'kept out' }] },
    { success: false, networks: [tron] },
    { success: true },
    { success: true, networks: 'tron' },
    { success: true, networks: [null] },
    { success: true, networks: [{ ...tron, chain: 'cosmos' }] },
    { success: true, networks: [{ ...tron, family: 'utxo' }] },
    { success: true, networks: [{ ...tron, confirmations: 1.5 }] },
    { success: true, networks: [{ ...tron, confirmations: '12' }] },
    { success: true, networks: [{ ...tron, confirmations: undefined }] },
    { success: true, networks: [{ ...tron, tokens: [{ symbol: 'DAI', decimals: 18 }] }] },
    { success: true, networks: [{ ...tron, tokens: [{ symbol: 'USDT', decimals: '6' }] }] },
    { success: true, networks: [{ ...tron, tokens: 'USDT' }] },
    { success: true, networks: [tron, { ...bsc, chain: 7 }] },
    null,
    'success',
  ]

  it('takes exactly the answers the schema takes, and gives what the schema gives', () => {
    for (const answer of answers) {
      const parsed = paymentNetworksAnswerSchema.safeParse(answer)
      expect(paymentNetworksOf(answer), JSON.stringify(answer)).toEqual(
        parsed.success ? parsed.data.networks : null,
      )
    }
    expect(paymentNetworksOf(answers[1])).toEqual([tron, bsc])
  })
})
