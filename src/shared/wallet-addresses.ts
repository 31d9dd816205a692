import { isValidTronAddress } from './tron-address'

export const WALLET_ADDRESS_LENGTH = 34

export type WalletLinesResult = { ok: true; addresses: string[] } | { ok: false; error: string }

/**
 * The admin's textarea rules: one address per line, trimmed, blank lines dropped;
 * none gives 'Please enter at least one wallet address'; any line that is not exactly 34 characters
 * (and, stricter than the pattern alone, not a real base58check TRON address) refuses the whole batch.
 */
export function parseWalletAddressLines(input: string | readonly string[]): WalletLinesResult {
  const lines = (typeof input === 'string' ? input.split(/\r?\n/) : input).map((line) => line.trim())
  const addresses = [...new Set(lines.filter((line) => line !== ''))]
  if (addresses.length === 0) return { ok: false, error: 'Please enter at least one wallet address' }
  const invalid = addresses.filter(
    (address) => address.length !== WALLET_ADDRESS_LENGTH || !isValidTronAddress(address),
  )
  if (invalid.length > 0) {
    const shown = invalid.slice(0, 10).map((line) => (line.length > 60 ? `${line.slice(0, 57)}...` : line))
    const more = invalid.length > shown.length ? ` (and ${invalid.length - shown.length} more)` : ''
    return { ok: false, error: `Invalid wallet address format: ${shown.join(', ')}${more}` }
  }
  return { ok: true, addresses }
}
