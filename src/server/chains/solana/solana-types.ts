// The parts of Solana's JSON-RPC answers the family reads (getSignaturesForAddress, getTransaction
// in jsonParsed encoding, getMultipleAccounts, getSignatureStatuses), as the Solana documentation
// gives them; each answer is checked for these fields before use (isSignatureList,
// isParsedTransaction, isAccountsAnswer, isStatusesAnswer).

export interface SignatureInfo {
  signature: string
  slot: number
  err: unknown
  /** Unix seconds; null when the node does not know it. */
  blockTime: number | null
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null
}

export interface UiTokenAmount {
  amount: string
  decimals: number
}

export interface TokenBalance {
  accountIndex: number
  mint: string
  owner?: string
  programId?: string
  uiTokenAmount: UiTokenAmount
}

export interface ParsedInstruction {
  programId: string
  program?: string
  parsed?: { type?: string; info?: Record<string, unknown> } | string
  accounts?: string[]
  data?: string
  stackHeight?: number | null
}

export interface ParsedTransaction {
  slot: number
  blockTime: number | null
  meta: {
    err: unknown
    preTokenBalances?: TokenBalance[] | null
    postTokenBalances?: TokenBalance[] | null
    innerInstructions?: { index: number; instructions: ParsedInstruction[] }[] | null
  } | null
  transaction: {
    signatures: string[]
    message: { accountKeys: ({ pubkey: string } | string)[]; instructions: ParsedInstruction[] }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export function isSignatureList(v: unknown): v is SignatureInfo[] {
  return (
    Array.isArray(v) &&
    v.every((s) => isObject(s) && typeof s.signature === 'string' && typeof s.slot === 'number' && 'err' in s)
  )
}

export function isParsedTransaction(v: unknown): v is ParsedTransaction {
  if (!isObject(v) || typeof v.slot !== 'number') return false
  const tx = v.transaction
  if (!isObject(tx) || !Array.isArray(tx.signatures) || !isObject(tx.message)) return false
  const message = tx.message as Record<string, unknown>
  return (
    Array.isArray(message.accountKeys) &&
    Array.isArray(message.instructions) &&
    (v.meta === null || isObject(v.meta))
  )
}

/** An RPC answer "with context": the slot the node answered at, and the value. */
export interface WithContext<T> {
  context: { slot: number; apiVersion?: string }
  value: T
}

/** An account of getMultipleAccounts; `data` is parsed JSON for an SPL token account in jsonParsed. */
export interface AccountInfo {
  lamports: number
  owner: string
  data: unknown
}

export interface SignatureStatus {
  slot: number
  err: unknown
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null
}

const hasContext = (v: unknown): v is WithContext<unknown> =>
  isObject(v) && isObject(v.context) && typeof v.context.slot === 'number' && 'value' in v

export function isAccountsAnswer(v: unknown, count: number): v is WithContext<(AccountInfo | null)[]> {
  return (
    hasContext(v) &&
    Array.isArray(v.value) &&
    v.value.length === count &&
    v.value.every(
      (a) => a === null || (isObject(a) && typeof a.lamports === 'number' && typeof a.owner === 'string'),
    )
  )
}

export function isStatusesAnswer(v: unknown, count: number): v is WithContext<(SignatureStatus | null)[]> {
  return (
    hasContext(v) &&
    Array.isArray(v.value) &&
    v.value.length === count &&
    v.value.every((s) => s === null || (isObject(s) && typeof s.slot === 'number'))
  )
}

/**
 * What a watched token account holds, in a word that changes whenever its balance does: "none" when
 * the account does not exist, its amount in base units when it is a parsed SPL token account, and
 * its raw size and lamports otherwise (any change to such an account asks for its listing too).
 */
export function balanceWord(a: AccountInfo | null): string {
  if (a === null) return 'none'
  const d = a.data as { program?: unknown; parsed?: { info?: { tokenAmount?: { amount?: unknown } } } }
  const amount = isObject(d) ? d.parsed?.info?.tokenAmount?.amount : undefined
  if (isObject(d) && d.program === 'spl-token' && typeof amount === 'string' && /^\d+$/.test(amount))
    return amount
  return `raw:${a.owner}:${a.lamports}:${JSON.stringify(a.data)}`
}
