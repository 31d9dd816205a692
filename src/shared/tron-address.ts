import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { createBase58check } from '@scure/base'

// TRON addresses: base58check(0x41 ‖ 20 bytes) with a 4-byte double-SHA256 checksum, always 34 chars.
// Node APIs use hex '41…' (42 chars), logs and ABI data the bare 20 bytes, v1 event results '0x…'.

const base58check = createBase58check(sha256)

export const TRON_ADDRESS_PREFIX = 0x41

const HEX_20 = /^[0-9a-f]{40}$/
const HEX_21 = /^41[0-9a-f]{40}$/
const HEX_ABI_WORD = /^0{24}[0-9a-f]{40}$/

function decodeBase58(address: string): Uint8Array | null {
  if (address.length !== 34) return null
  let bytes: Uint8Array
  try {
    bytes = base58check.decode(address)
  } catch {
    return null
  }
  return bytes.length === 21 && bytes[0] === TRON_ADDRESS_PREFIX ? bytes : null
}

/** True for a 34-character base58check TRON address with version byte 0x41 and a valid checksum. */
export function isValidTronAddress(value: unknown): value is string {
  return typeof value === 'string' && decodeBase58(value) !== null
}

/** '41…' lowercase hex (42 chars) of a base58 address. Throws TypeError when the address is invalid. */
export function tronBase58ToHex(address: string): string {
  const bytes = decodeBase58(address)
  if (!bytes) throw new TypeError(`Invalid TRON address: ${JSON.stringify(address)}`)
  return bytesToHex(bytes)
}

/** Parses '41…' (42 hex), bare 20-byte hex (40) or '0x…' into the '41…' lowercase form, or null. */
function parseHexAddress(hex: string): string | null {
  let h = hex.toLowerCase()
  if (h.startsWith('0x')) h = h.slice(2)
  if (HEX_21.test(h)) return h
  if (HEX_20.test(h)) return `41${h}`
  return null
}

/**
 * Base58 form of a hex address: '41…' (42 hex chars), the bare 20 bytes of logs/ABI (40), or '0x' + 40.
 * Throws TypeError for anything else.
 */
export function tronHexToBase58(hex: string): string {
  const h = typeof hex === 'string' ? parseHexAddress(hex) : null
  if (!h) throw new TypeError(`Invalid TRON hex address: ${JSON.stringify(hex)}`)
  return base58check.encode(hexToBytes(h))
}

/** Accepts any form the v1 API accepts (base58, '41…', '0x…') and returns base58, or null when invalid. */
export function normalizeTronAddress(input: string): string | null {
  if (isValidTronAddress(input)) return input
  const h = typeof input === 'string' ? parseHexAddress(input) : null
  return h ? base58check.encode(hexToBytes(h)) : null
}

/** The 32-byte ABI word (64 hex chars, left-padded) used in event topics and call data. */
export function tronAddressToAbiWord(address: string): string {
  return `${'0'.repeat(24)}${tronBase58ToHex(address).slice(2)}`
}

/** Base58 address from a 32-byte ABI word such as a Transfer topic, or null when it is not one. */
export function tronAddressFromAbiWord(word: string): string | null {
  const w = typeof word === 'string' ? word.toLowerCase().replace(/^0x/, '') : ''
  return HEX_ABI_WORD.test(w) ? base58check.encode(hexToBytes(`41${w.slice(24)}`)) : null
}
