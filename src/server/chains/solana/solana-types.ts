// The parts of Solana's JSON-RPC answers the family reads (getSignaturesForAddress, getTransaction
// in jsonParsed encoding), as the Solana documentation gives them; each answer is checked for
// these fields before use (isSignatureList, isParsedTransaction).

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
