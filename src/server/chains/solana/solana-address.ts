import { getAddressEncoder, getProgramDerivedAddress } from '@solana/addresses'
import {
  normalizeSolanaAddress,
  normalizeSolanaSignature,
  solanaPoolAddressProblem,
} from '../../../shared/solana-address'

export { normalizeSolanaAddress, normalizeSolanaSignature, solanaPoolAddressProblem }

// Solana's address and signature forms (shared/solana-address.ts, which the admin's pool form uses
// too) and the associated token account of an owner for a mint.

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'

const atas = new Map<string, string>()

/** The associated token account of `owner` for `mint` (the account a wallet sends that token to). */
export async function associatedTokenAccount(owner: string, mint: string): Promise<string> {
  const key = `${owner}:${mint}`
  const known = atas.get(key)
  if (known) return known
  const enc = getAddressEncoder()
  const [pda] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM as never,
    seeds: [enc.encode(owner as never), enc.encode(TOKEN_PROGRAM as never), enc.encode(mint as never)],
  })
  if (atas.size > 100_000) atas.clear()
  atas.set(key, pda)
  return pda
}
