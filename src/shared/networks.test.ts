import { describe, expect, it } from 'vitest'
import { networkWithStandard } from './networks'

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
