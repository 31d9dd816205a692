import { type Address, address, type Instruction, type KeyPairSigner } from '@solana/kit'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'

// The instructions a buyer's wallet sends to pay: create the recipient's associated token account
// if needed, then an SPL Token transfer (transferChecked, as wallets send, or the older transfer)
// from the buyer's associated token account; a Solana Pay reference rides on the transfer as a
// read-only account, as the Solana Pay specification asks.

export async function ataOf(owner: string, mint: string): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  })
  return ata
}

export async function transferInstructions(p: {
  payer: KeyPairSigner
  to: string
  mint: string
  amount: bigint
  /** 'transferChecked' (default) or the older 'transfer', which names no mint. */
  kind?: 'transfer' | 'transferChecked'
  reference?: string
  /** Create the recipient's token account first (idempotent). Default true. */
  createAccount?: boolean
}): Promise<Instruction[]> {
  const source = await ataOf(p.payer.address, p.mint)
  const destination = await ataOf(p.to, p.mint)
  const out: Instruction[] = []
  if (p.createAccount !== false) {
    out.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: p.payer,
        ata: destination,
        owner: address(p.to),
        mint: address(p.mint),
      }),
    )
  }
  const transfer =
    p.kind === 'transfer'
      ? getTransferInstruction({ source, destination, authority: p.payer, amount: p.amount })
      : getTransferCheckedInstruction({
          source,
          mint: address(p.mint),
          destination,
          authority: p.payer,
          amount: p.amount,
          decimals: 6,
        })
  const withReference = p.reference
    ? { ...transfer, accounts: [...(transfer.accounts ?? []), { address: address(p.reference), role: 0 }] }
    : transfer
  out.push(withReference as Instruction)
  return out
}
