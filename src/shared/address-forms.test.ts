import { describe, expect, it } from 'vitest'
import { reconcileInputSchema } from './reconcile'
import { badAddressFor, mayBecomeAddressFor, refundAddressFor } from './refunds'

// Typed addresses are read in their chain's family's form: a Solana order's refund takes a Solana
// address (as written: base58 is case-sensitive) and refuses a TRON one in Solana's words, and a
// reconciliation of Solana asks about a Solana address. Before, both read every non-EVM chain as TRON.
const SOLANA = 'wVZrnqpP8Nr4t38ej9EuxpzZWezgv13nX429KBSYfb5'
const TRON = 'TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH'
const EVM = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'

describe('address forms by family', () => {
  it("a refund on Solana takes a Solana address as written and refuses another family's", () => {
    expect(refundAddressFor('solana', ` ${SOLANA} `)).toBe(SOLANA)
    expect(refundAddressFor('solana', TRON)).toBeNull()
    expect(refundAddressFor('solana', EVM)).toBeNull()
    expect(refundAddressFor('solana', SOLANA.toLowerCase())).not.toBe(SOLANA)
    expect(badAddressFor('solana')).toBe('Enter a Solana address (32 to 44 letters and digits, base58)')
    expect(mayBecomeAddressFor('solana', 'wVZrnq')).toBe(true)
    expect(mayBecomeAddressFor('solana', '0x')).toBe(false)
  })

  it('TRON and EVM refunds read as before', () => {
    expect(refundAddressFor('tron', TRON)).toBe(TRON)
    expect(refundAddressFor('tron', SOLANA)).toBeNull()
    expect(refundAddressFor('bsc', EVM.toLowerCase())).toBe(EVM)
    expect(badAddressFor('tron')).toBe('Enter a TRON address (it starts with T, 34 characters)')
    expect(mayBecomeAddressFor('bsc', '0x99')).toBe(true)
    expect(mayBecomeAddressFor('tron', 'TLy')).toBe(true)
  })

  it("a reconciliation's address is one of the chain's family", () => {
    const problem = (p_chain: 'solana' | 'tron' | 'bsc' | undefined, p_chain_address: string) =>
      reconcileInputSchema.safeParse({ p_chain, p_chain_address }).error?.issues[0]?.message ?? null
    expect(problem('solana', SOLANA)).toBeNull()
    expect(problem('solana', TRON)).toBe('must be a Solana address')
    expect(problem(undefined, TRON)).toBeNull()
    expect(problem(undefined, SOLANA)).toBe('must be a TRON address')
    expect(problem('bsc', TRON)).toBe('must be an EVM address')
  })
})
