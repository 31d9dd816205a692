import { type Address, isAddress, isOffCurveAddress } from '@solana/addresses'

// Solana's address and signature forms. An address is 32 bytes in base58 and case-sensitive: its
// normal form is the text itself, never changed in case. A pool address must also be an ed25519
// public key (on the curve), the only kind a wallet holds the key of: a program-derived address
// (a token account, for one) can sign nothing and would lose what is sent to it. A transaction is
// named by its first signature, 64 bytes in base58, case-sensitive too.

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Any Solana address (32 bytes of base58), as it is; null when it is not one. */
export function normalizeSolanaAddress(text: string): string | null {
  const t = text.trim()
  return t.length >= 32 && t.length <= 44 && isAddress(t) ? t : null
}

/** Why a line is not a pool address of the Solana family; null when it is one. */
export function solanaPoolAddressProblem(text: string): string | null {
  const a = normalizeSolanaAddress(text)
  if (a === null) return 'is not a Solana address (32 bytes in base58)'
  if (isOffCurveAddress(a as Address))
    return 'is not a wallet key (an account derived by a program cannot receive a payment safely)'
  return null
}

function base58Length(text: string): number | null {
  if (!BASE58.test(text)) return null
  let n = 0n
  for (const c of text) n = n * 58n + BigInt(ALPHABET.indexOf(c))
  let bytes = 0
  while (n > 0n) {
    n >>= 8n
    bytes += 1
  }
  for (const c of text) {
    if (c !== '1') break
    bytes += 1
  }
  return bytes
}

/** A transaction signature (64 bytes of base58), as it is, never lowercased; null when it is not one. */
export function normalizeSolanaSignature(text: string): string | null {
  const t = text.trim()
  if (t.length < 64 || t.length > 88) return null
  return base58Length(t) === 64 ? t : null
}
