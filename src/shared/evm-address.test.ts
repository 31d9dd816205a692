import { describe, expect, it } from 'vitest'
import { looksLikeEvmAddress, normalizeEvmAddress } from './evm-address'

// EIP-55's own test vectors.
const vectors = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
]

describe('EVM addresses', () => {
  it.each(vectors)('%s is kept in its checksum form, from any case', (address) => {
    expect(normalizeEvmAddress(address)).toBe(address)
    expect(normalizeEvmAddress(address.toLowerCase())).toBe(address)
    expect(normalizeEvmAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address)
    expect(normalizeEvmAddress(` ${address}\t`)).toBe(address)
  })

  it('refuses a mixed-case address whose checksum is wrong, and what is not an address', () => {
    expect(normalizeEvmAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull()
    expect(normalizeEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBeNull()
    expect(normalizeEvmAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull()
    expect(normalizeEvmAddress('0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull()
    expect(normalizeEvmAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull()
    expect(looksLikeEvmAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true)
    expect(looksLikeEvmAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false)
  })
})
