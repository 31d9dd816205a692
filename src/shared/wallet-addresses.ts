import { addressForms } from './address-forms'
import { type ChainFamilyId, chainFamilies } from './chains'
import { looksLikeEvmAddress } from './evm-address'

export const WALLET_ADDRESS_LENGTH = 34

export interface WalletLine {
  /** In its stored form: TRON base58 as written, EVM in its EIP-55 checksum form. */
  address: string
  family: ChainFamilyId
}

export type WalletLinesResult =
  | { ok: true; addresses: string[]; entries: WalletLine[] }
  | { ok: false; error: string }

/** The address of a line in its stored form and family, or why it is not one. */
function readLine(line: string): WalletLine | { invalid: string } {
  const shown = line.length > 60 ? `${line.slice(0, 57)}...` : line
  // Each family in the family list's order: the first that knows the line reads it.
  for (const family of chainFamilies) {
    const read = addressForms[family].poolLine(line, shown)
    if (read) return 'address' in read ? { address: read.address, family } : read
  }
  // 0x and 40 hex digits in mixed case whose checksum does not match: most likely a typo.
  return { invalid: looksLikeEvmAddress(line) ? `${shown} (EVM checksum does not match)` : shown }
}

/**
 * The admin's textarea rules: one address per line, trimmed, blank lines dropped; each a TRON
 * address (34-character base58check), an EVM address (0x + 40 hex; mixed case must match its
 * EIP-55 checksum) or a Solana wallet key (base58 of 32 bytes, on the ed25519 curve). None gives 'Please enter at least one wallet address'; any bad line refuses the
 * whole batch, each bad line named.
 */
export function parseWalletAddressLines(input: string | readonly string[]): WalletLinesResult {
  const lines = (typeof input === 'string' ? input.split(/\r?\n/) : input).map((line) => line.trim())
  const unique = [...new Set(lines.filter((line) => line !== ''))]
  if (unique.length === 0) return { ok: false, error: 'Please enter at least one wallet address' }
  const read = unique.map(readLine)
  const invalid = read.flatMap((r) => ('invalid' in r ? [r.invalid] : []))
  if (invalid.length > 0) {
    const shown = invalid.slice(0, 10)
    const more = invalid.length > shown.length ? ` (and ${invalid.length - shown.length} more)` : ''
    return { ok: false, error: `Invalid wallet address format: ${shown.join(', ')}${more}` }
  }
  const seen = new Set<string>()
  const entries = (read as WalletLine[]).filter((e) => !seen.has(e.address) && Boolean(seen.add(e.address)))
  return { ok: true, addresses: entries.map((e) => e.address), entries }
}
