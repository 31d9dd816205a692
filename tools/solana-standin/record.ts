import {
  address,
  getAddressDecoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Transaction,
} from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { LiteSVM, TransactionMetadata } from 'litesvm'
import { RpcError } from './errors'
import type { RawInstruction } from './parse-instructions'
import type { TokenBalance } from './standin'

// What a validator records of a transaction, read from its wire form and from LiteSVM's result.

/** The SPL Token accounts among `keys` with their mint, owner and amount now (a token account is 165 bytes). */
export function tokenBalancesOf(svm: LiteSVM, keys: readonly string[]): TokenBalance[] {
  const out: TokenBalance[] = []
  keys.forEach((key, accountIndex) => {
    const acc = svm.getAccount(address(key))
    if (!acc.exists || acc.programAddress !== TOKEN_PROGRAM_ADDRESS || acc.data.length !== 165) return
    const data = acc.data
    const mint = getAddressDecoder().decode(data.slice(0, 32))
    const mintAcc = svm.getAccount(mint)
    out.push({
      accountIndex,
      mint,
      owner: getAddressDecoder().decode(data.slice(32, 64)),
      programId: TOKEN_PROGRAM_ADDRESS,
      amount: new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true),
      decimals: mintAcc.exists ? (mintAcc.data[44] ?? 0) : 0,
    })
  })
  return out
}

/** A signed wire transaction's parts: its first signature (its id), accounts and instructions. */
export function decodeWire(wire: Uint8Array) {
  const tx = getTransactionDecoder().decode(wire) as Transaction
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as {
    staticAccounts: string[]
    header: {
      numSignerAccounts: number
      numReadonlySignerAccounts: number
      numReadonlyNonSignerAccounts: number
    }
    instructions?: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[]
    lifetimeToken: string
  }
  const keys = message.staticAccounts.map(String)
  const signatureBytes = Object.values(tx.signatures)[0]
  if (!signatureBytes) throw new RpcError(-32602, 'transaction has no signature')
  const h = message.header
  const signers = h.numSignerAccounts
  const accountKeys = keys.map((pubkey, i) => ({
    pubkey,
    signer: i < signers,
    writable:
      i < signers
        ? i < signers - h.numReadonlySignerAccounts
        : i < keys.length - h.numReadonlyNonSignerAccounts,
  }))
  const instructions: RawInstruction[] = (message.instructions ?? []).map((ix) => ({
    programId: keys[ix.programAddressIndex] as string,
    accounts: (ix.accountIndices ?? []).map((i) => keys[i] as string),
    data: ix.data ?? new Uint8Array(),
  }))
  return {
    tx,
    signature: getBase58Decoder().decode(signatureBytes),
    keys,
    accountKeys,
    instructions,
    recentBlockhash: String(message.lifetimeToken),
    signers,
  }
}

/** The calls each outer instruction made (cross-program invocations), as the node lists them. */
export function innerOf(meta: TransactionMetadata, keys: readonly string[]) {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const c = inner.instruction()
        return {
          programId: keys[c.programIdIndex()] as string,
          accounts: [...c.accounts()].map((i) => keys[i] as string),
          data: c.data(),
          stackHeight: inner.stackHeight(),
        }
      }),
    }))
    .filter((x) => x.instructions.length > 0)
}
