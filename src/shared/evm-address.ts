import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

// EVM addresses (every EVM chain): 0x and 40 hex digits, stored in their EIP-55 checksum form.
// A mixed-case address must carry a valid checksum (it catches a typo); an all-lower or all-upper
// one carries none and is taken as written. The checksum is computed here (keccak-256 from
// @noble/hashes) rather than by viem, so that naming an address does not load viem's client code
// along with it (decision 067).

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/

/** Looks like an EVM address (0x + 40 hex), whatever its checksum. */
export function looksLikeEvmAddress(text: string): boolean {
  return EVM_HEX.test(text.trim())
}

/** A transaction hash in its one stored form (0x and 64 hex digits, lower case), or null. */
export function normalizeEvmTxHash(text: string): string | null {
  const t = text.trim()
  return /^0x[0-9a-fA-F]{64}$/.test(t) ? t.toLowerCase() : null
}

/**
 * EIP-55's checksum form of 0x and 40 hex digits in any case (the checksum it may carry is not
 * checked): each letter upper case where the keccak-256 of the lower-case hex has a nibble of 8 or more.
 */
export function evmChecksum(address: string): `0x${string}` {
  const hex = address.slice(2).toLowerCase()
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)))
  let out: `0x${string}` = '0x'
  for (let i = 0; i < hex.length; i++)
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? hex[i]?.toUpperCase() : hex[i]
  return out
}

/** The address in its one stored form (EIP-55 checksum), or null when it is not a valid one. */
export function normalizeEvmAddress(text: string): string | null {
  const t = text.trim()
  if (!EVM_HEX.test(t)) return null
  const lower = t.slice(2) === t.slice(2).toLowerCase()
  const upper = t.slice(2) === t.slice(2).toUpperCase()
  const checksummed = evmChecksum(t)
  return lower || upper || checksummed === t ? checksummed : null
}
