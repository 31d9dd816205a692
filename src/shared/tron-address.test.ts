import { describe, expect, it } from 'vitest'
import {
  isValidTronAddress,
  normalizeTronAddress,
  tronAddressFromAbiWord,
  tronAddressToAbiWord,
  tronBase58ToHex,
  tronHexToBase58,
} from './tron-address'

// BIP-44 path m/44'/195'/0'/0/i of the well-known "abandon … about" test mnemonic; hex recomputed independently.
const vectors = [
  ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', '41c8599111f29c1e1e061265b4af93ea1f274ad78a'],
  ['TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK', '41b6e708a39781c96bd399c7657780ff9fe9f052a8'],
  ['TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx', '41f4f35fff5ca9ee43aca2c57ded9d9ec66ac42dd0'],
  ['TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W', '41ac892261ed306c7c91ff84895811fa2e5e58333d'],
  ['TT2X2yyubp7qpAWYYNE5JQWBtoZ7ikQFsY', '41bb1a70862e804bfe2885f6c7efc8fdf3f0148b00'],
  // USDT contracts: mainnet and the Nile/Shasta testnets.
  ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'],
  ['TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', '41eca9bc828a3005b9a3b909f2cc5c2a54794de05f'],
  ['TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs', '4142a1e39aefa49290f2b3f9ed688d7cecf86cd6e0'],
] as const

describe('tron-address', () => {
  it.each(vectors)('%s ↔ %s', (base58, hex) => {
    expect(isValidTronAddress(base58)).toBe(true)
    expect(tronBase58ToHex(base58)).toBe(hex)
    expect(tronHexToBase58(hex)).toBe(base58)
    expect(tronHexToBase58(hex.toUpperCase())).toBe(base58)
    expect(tronHexToBase58(hex.slice(2))).toBe(base58)
    expect(tronHexToBase58(`0x${hex.slice(2)}`)).toBe(base58)
    expect(normalizeTronAddress(base58)).toBe(base58)
    expect(normalizeTronAddress(hex)).toBe(base58)
  })

  it('decodes the addresses of a real USDT Transfer log: the contract, and the 32-byte topic words', () => {
    expect(tronHexToBase58('a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    )
    expect(tronAddressFromAbiWord('000000000000000000000000b6e708a39781c96bd399c7657780ff9fe9f052a8')).toBe(
      'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK',
    )
    expect(tronAddressFromAbiWord('000000000000000000000000c8599111f29c1e1e061265b4af93ea1f274ad78a')).toBe(
      'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
    )
    expect(tronAddressToAbiWord('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH')).toBe(
      '000000000000000000000000c8599111f29c1e1e061265b4af93ea1f274ad78a',
    )
    expect(
      tronAddressFromAbiWord('100000000000000000000000c8599111f29c1e1e061265b4af93ea1f274ad78a'),
    ).toBeNull()
    expect(tronAddressFromAbiWord('c8599111f29c1e1e061265b4af93ea1f274ad78a')).toBeNull()
  })

  it('rejects a bad checksum', () => {
    // Last character changed: same length and alphabet, checksum no longer matches.
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')).toBe(false)
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdh')).toBe(false)
    expect(() => tronBase58ToHex('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')).toThrow(TypeError)
  })

  it('rejects the wrong length', () => {
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd')).toBe(false)
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdHH')).toBe(false)
    expect(isValidTronAddress('')).toBe(false)
    // 40 hex chars would be a bare 20-byte address, so 38 is the short case.
    expect(() => tronHexToBase58('41c8599111f29c1e1e061265b4af93ea1f274a')).toThrow(TypeError)
    expect(() => tronHexToBase58('41c8599111f29c1e1e061265b4af93ea1f274ad78a00')).toThrow(TypeError)
  })

  it('rejects a valid base58check payload with the wrong version byte', () => {
    // Bitcoin's genesis coinbase address: valid base58check, version 0x00, 34 chars.
    expect(isValidTronAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(false)
    expect(() => tronHexToBase58('42c8599111f29c1e1e061265b4af93ea1f274ad78a')).toThrow(TypeError)
    expect(normalizeTronAddress('42c8599111f29c1e1e061265b4af93ea1f274ad78a')).toBeNull()
  })

  it('rejects characters outside the alphabet and non-strings', () => {
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWY0H')).toBe(false)
    expect(isValidTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYlH')).toBe(false)
    expect(isValidTronAddress(undefined)).toBe(false)
    expect(isValidTronAddress(42)).toBe(false)
    expect(() => tronHexToBase58('zz8599111f29c1e1e061265b4af93ea1f274ad78a')).toThrow(TypeError)
    expect(normalizeTronAddress('not an address')).toBeNull()
  })
})
