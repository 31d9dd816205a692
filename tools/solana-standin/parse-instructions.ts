import { getBase58Decoder } from '@solana/kit'

// Instructions as the RPC's jsonParsed encoding shows them: the SPL Token program's, the System
// program's and the Associated Token Account program's as {program, programId, parsed: {type,
// info}}, every other one partially decoded ({programId, accounts, data in base58}). Amounts are
// strings of base units, as the node writes them.

export interface RawInstruction {
  programId: string
  accounts: string[]
  data: Uint8Array
}

const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
const SYSTEM = '11111111111111111111111111111111'

function u64(data: Uint8Array, at: number): bigint {
  return new DataView(data.buffer, data.byteOffset + at, 8).getBigUint64(0, true)
}

/** A token amount as the node writes it: base units, decimals and the decimal text. */
export function uiAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '')
  const s = frac ? `${whole}.${frac}` : whole
  return { amount: amount.toString(), decimals, uiAmount: Number(s), uiAmountString: s }
}

function tokenParsed(ix: RawInstruction): { type: string; info: Record<string, unknown> } | null {
  const d = ix.data
  const a = ix.accounts
  const authority = (at: number) =>
    a.length > at + 1 ? { multisigAuthority: a[at], signers: a.slice(at + 1) } : { authority: a[at] }
  switch (d[0]) {
    case 3:
      return {
        type: 'transfer',
        info: { source: a[0], destination: a[1], amount: u64(d, 1).toString(), ...authority(2) },
      }
    case 12:
      return {
        type: 'transferChecked',
        info: {
          source: a[0],
          mint: a[1],
          destination: a[2],
          ...authority(3),
          tokenAmount: uiAmount(u64(d, 1), d[9] ?? 0),
        },
      }
    case 7:
      return {
        type: 'mintTo',
        info: { mint: a[0], account: a[1], amount: u64(d, 1).toString(), ...authority(2) },
      }
    case 14:
      return {
        type: 'mintToChecked',
        info: { mint: a[0], account: a[1], ...authority(2), tokenAmount: uiAmount(u64(d, 1), d[9] ?? 0) },
      }
    case 18:
      return {
        type: 'initializeAccount3',
        info: { account: a[0], mint: a[1], owner: getBase58Decoder().decode(d.slice(1, 33)) },
      }
    case 21:
      return { type: 'getAccountDataSize', info: { mint: a[0], extensionTypes: [] } }
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: a[0] } }
    default:
      return null
  }
}

function systemParsed(ix: RawInstruction): { type: string; info: Record<string, unknown> } | null {
  if (ix.data.length < 4) return null
  const kind = new DataView(ix.data.buffer, ix.data.byteOffset, 4).getUint32(0, true)
  const a = ix.accounts
  if (kind === 2)
    return { type: 'transfer', info: { source: a[0], destination: a[1], lamports: Number(u64(ix.data, 4)) } }
  if (kind === 0) {
    return {
      type: 'createAccount',
      info: {
        source: a[0],
        newAccount: a[1],
        lamports: Number(u64(ix.data, 4)),
        space: Number(u64(ix.data, 12)),
        owner: getBase58Decoder().decode(ix.data.slice(20, 52)),
      },
    }
  }
  if (kind === 8) return { type: 'allocate', info: { account: a[0], space: Number(u64(ix.data, 4)) } }
  if (kind === 1)
    return { type: 'assign', info: { account: a[0], owner: getBase58Decoder().decode(ix.data.slice(4, 36)) } }
  return null
}

function ataParsed(ix: RawInstruction): { type: string; info: Record<string, unknown> } | null {
  const a = ix.accounts
  const kind = ix.data.length === 0 ? 0 : ix.data[0]
  if (kind === 0 || kind === 1) {
    return {
      type: kind === 0 ? 'create' : 'createIdempotent',
      info: {
        source: a[0],
        account: a[1],
        wallet: a[2],
        mint: a[3],
        systemProgram: a[4],
        tokenProgram: a[5],
      },
    }
  }
  if (kind === 2) {
    return {
      type: 'recoverNested',
      info: {
        nestedSource: a[0],
        nestedMint: a[1],
        destination: a[2],
        nestedOwner: a[3],
        ownerMint: a[4],
        wallet: a[5],
        tokenProgram: a[6],
      },
    }
  }
  return null
}

/** One instruction in jsonParsed form; stackHeight as the node gives it (null for an outer one on older nodes). */
export function parseInstruction(ix: RawInstruction, stackHeight: number | null): Record<string, unknown> {
  const parsed =
    ix.programId === TOKEN
      ? tokenParsed(ix)
      : ix.programId === SYSTEM
        ? systemParsed(ix)
        : ix.programId === ATA
          ? ataParsed(ix)
          : null
  if (parsed) {
    const program =
      ix.programId === TOKEN
        ? 'spl-token'
        : ix.programId === SYSTEM
          ? 'system'
          : 'spl-associated-token-account'
    return { parsed, program, programId: ix.programId, stackHeight }
  }
  return {
    accounts: ix.accounts,
    data: getBase58Decoder().decode(ix.data),
    programId: ix.programId,
    stackHeight,
  }
}
