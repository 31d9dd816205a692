import type { ChainToken, ChainTransfer, TokenSymbol } from '../chain'
import { TOKEN_PROGRAM } from './solana-address'
import { blockTimeMs } from './solana-context'
import type { ParsedInstruction, ParsedTransaction, TokenBalance } from './solana-types'

// The accepted tokens' transfers in one transaction, read as the node parsed it: every SPL Token
// `transfer` and `transferChecked`, whether the transaction called the token program itself or
// another program did (inner instructions), into a token account whose mint is an accepted one
// (the exact mint address, so a counterfeit "USDT" never counts) and whose owner is the recipient.
// The token accounts' mints and owners come from the transaction's token balances, which the node
// writes for every token account the transaction touches. A failed transaction (meta.err) moves
// nothing: its transfers are answered as attempted, with the failure, for the buyer's explanation.

export interface ReadTransfers {
  transfers: ChainTransfer[]
  /** The chain's error, in words, of a failed transaction; null when it succeeded. */
  failure: string | null
}

/** Each instruction's index in the ledger: an outer one i as i×1000, the calls it made i×1000+1, +2, … */
export function eventIndexOf(outer: number, inner: number | null): number {
  return outer * 1000 + (inner === null ? 0 : inner + 1)
}

const TOKEN_ERRORS = [
  'NotRentExempt',
  'InsufficientFunds',
  'InvalidMint',
  'MintMismatch',
  'OwnerMismatch',
  'FixedSupply',
  'AlreadyInUse',
  'InvalidNumberOfProvidedSigners',
  'InvalidNumberOfRequiredSigners',
  'UninitializedState',
  'NativeNotSupported',
  'NonNativeHasBalance',
  'InvalidInstruction',
  'InvalidState',
  'Overflow',
  'AuthorityTypeNotSupported',
  'MintCannotFreeze',
  'AccountFrozen',
]

/** A failed transaction's error in a few words: "InsufficientFunds (instruction 2)", "BlockhashNotFound", … */
export function failureText(err: unknown, tx: ParsedTransaction): string {
  if (typeof err === 'string') return err
  const ie = (err as { InstructionError?: [number, unknown] } | null)?.InstructionError
  if (Array.isArray(ie)) {
    const [index, what] = ie
    const program = tx.transaction.message.instructions[index]?.programId
    const custom = (what as { Custom?: number } | null)?.Custom
    const word =
      typeof what === 'string'
        ? what
        : typeof custom === 'number'
          ? program === TOKEN_PROGRAM
            ? (TOKEN_ERRORS[custom] ?? `Custom ${custom}`)
            : `Custom ${custom}`
          : JSON.stringify(what)
    return `${word} (instruction ${index + 1})`.slice(0, 200)
  }
  return JSON.stringify(err).slice(0, 200)
}

function keyOf(k: { pubkey: string } | string): string {
  return typeof k === 'string' ? k : k.pubkey
}

const DIGITS = /^\d{1,30}$/

export function readTransfers(
  tx: ParsedTransaction,
  tokens: readonly ChainToken[],
  chain: ChainTransfer['chain'],
): ReadTransfers {
  const keys = tx.transaction.message.accountKeys.map(keyOf)
  const accounts = new Map<string, { mint: string; owner: string | null }>()
  const note = (b: TokenBalance) => {
    const key = keys[b.accountIndex]
    if (key && (b.programId === undefined || b.programId === TOKEN_PROGRAM)) {
      accounts.set(key, { mint: b.mint, owner: b.owner ?? null })
    }
  }
  for (const b of tx.meta?.preTokenBalances ?? []) note(b)
  for (const b of tx.meta?.postTokenBalances ?? []) note(b)
  const txId = tx.transaction.signatures[0] ?? ''
  const time = blockTimeMs(tx.blockTime)
  const transfers: ChainTransfer[] = []
  const visit = (ix: ParsedInstruction, eventIndex: number) => {
    if (ix.programId !== TOKEN_PROGRAM || typeof ix.parsed !== 'object' || !ix.parsed) return
    const { type, info } = ix.parsed
    if ((type !== 'transfer' && type !== 'transferChecked') || !info) return
    const destination = typeof info.destination === 'string' ? accounts.get(info.destination) : undefined
    const source = typeof info.source === 'string' ? accounts.get(info.source) : undefined
    if (!destination?.owner) return
    if (type === 'transferChecked' && info.mint !== destination.mint) return
    const token = tokens.find((t) => t.contract === destination.mint)
    if (!token) return
    const amount =
      type === 'transfer' ? info.amount : (info.tokenAmount as { amount?: unknown } | undefined)?.amount
    if (typeof amount !== 'string' || !DIGITS.test(amount)) return
    const authority = info.authority ?? info.multisigAuthority
    transfers.push({
      chain,
      txId,
      source: 'log',
      eventIndex,
      token: token.symbol as TokenSymbol,
      from: source?.owner ?? (typeof authority === 'string' ? authority : ''),
      to: destination.owner,
      value: BigInt(amount),
      blockNumber: tx.slot,
      blockTimestamp: time,
    })
  }
  tx.transaction.message.instructions.forEach((ix, i) => {
    visit(ix, eventIndexOf(i, null))
  })
  for (const group of tx.meta?.innerInstructions ?? []) {
    group.instructions.forEach((ix, j) => {
      visit(ix, eventIndexOf(group.index, j))
    })
  }
  transfers.sort((a, b) => a.eventIndex - b.eventIndex)
  const err = tx.meta?.err ?? null
  return { transfers, failure: err === null ? null : failureText(err, tx) }
}
