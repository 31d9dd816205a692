import { getAddress, isAddress } from 'viem'

// EVM addresses (every EVM chain): 0x and 40 hex digits, stored in their EIP-55 checksum form.
// A mixed-case address must carry a valid checksum (it catches a typo); an all-lower or all-upper
// one carries none and is taken as written.

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/

/** Looks like an EVM address (0x + 40 hex), whatever its checksum. */
export function looksLikeEvmAddress(text: string): boolean {
  return EVM_HEX.test(text.trim())
}

/** The address in its one stored form (EIP-55 checksum), or null when it is not a valid one. */
export function normalizeEvmAddress(text: string): string | null {
  const t = text.trim()
  if (!EVM_HEX.test(t)) return null
  const lower = t.slice(2) === t.slice(2).toLowerCase()
  const upper = t.slice(2) === t.slice(2).toUpperCase()
  if (lower || upper) return getAddress(t.toLowerCase())
  return isAddress(t, { strict: true }) ? getAddress(t) : null
}
