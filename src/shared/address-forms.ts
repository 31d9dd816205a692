import { type ChainFamilyId, type ChainId, familyOfChain } from './chains'
import { looksLikeEvmAddress, normalizeEvmAddress } from './evm-address'
import { normalizeSolanaAddress, solanaPoolAddressProblem } from './solana-address'
import { isValidTronAddress } from './tron-address'

// Each family's address form for the screens and calls that take an address a person typed (a
// refund's, a reconciliation's): how it is stored and compared, whether a text being typed can
// still become one, and the refusal in words a buyer or operator reads. With the family list
// (chains.ts), this is the browser's side of the family objects: a new family adds its line here.

export interface AddressForm {
  /** The address in the family's normal form (the one stored and compared), or null when it is not one. */
  normalize(text: string): string | null
  /** Whether `text` can still become an address as the person goes on typing. */
  mayBecome(text: string): boolean
  /** Whether `text` looks like one, checksum aside (a reconciliation's address is only read from the chain). */
  looksLike(text: string): boolean
  /** Why a text is refused as a refund's address (English; the catalogues translate it). */
  refusal: string
  /** Why a text is refused as the address a reconciliation asks about. */
  mustBe: string
  /**
   * A line of the operator's pool list read as this family's: its stored form, why this family
   * refuses it (`shown` is the line as the refusal quotes it), or null when it is not this family's.
   */
  poolLine(line: string, shown: string): { address: string } | { invalid: string } | null
}

export const addressForms: Record<ChainFamilyId, AddressForm> = {
  tron: {
    normalize: (text) => (isValidTronAddress(text) ? text : null),
    mayBecome: (text) => /^(T[1-9A-HJ-NP-Za-km-z]{0,32})?$/.test(text),
    looksLike: isValidTronAddress,
    refusal: 'Enter a TRON address (it starts with T, 34 characters)',
    mustBe: 'must be a TRON address',
    poolLine: (line) => (line.length === 34 && isValidTronAddress(line) ? { address: line } : null),
  },
  evm: {
    normalize: normalizeEvmAddress,
    mayBecome: (text) => /^(0([xX][0-9a-fA-F]{0,39})?)?$/.test(text),
    looksLike: looksLikeEvmAddress,
    refusal: 'Enter an address that starts with 0x and has 40 hex digits after it',
    mustBe: 'must be an EVM address',
    poolLine: (line) => {
      const address = normalizeEvmAddress(line)
      return address ? { address } : null
    },
  },
  solana: {
    normalize: normalizeSolanaAddress,
    mayBecome: (text) => /^[1-9A-HJ-NP-Za-km-z]{0,44}$/.test(text),
    looksLike: (text) => normalizeSolanaAddress(text) !== null,
    refusal: 'Enter a Solana address (32 to 44 letters and digits, base58)',
    mustBe: 'must be a Solana address',
    poolLine: (line, shown) => {
      if (!normalizeSolanaAddress(line)) return null
      const problem = solanaPoolAddressProblem(line)
      return problem ? { invalid: `${shown} (Solana address that ${problem})` } : { address: line }
    },
  },
}

/** The address form of a chain's family. */
export function addressFormOf(chain: ChainId): AddressForm {
  return addressForms[familyOfChain[chain]]
}
