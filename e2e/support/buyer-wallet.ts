import { randomBytes } from 'node:crypto'
import { tronHexToBase58 } from '../../src/shared/tron-address'

/**
 * A fresh sender for each payment, as real buyers pay from their own wallets. The e2e shop reuses
 * its few addresses, and a transfer from a wallet that paid an earlier order at the same address is
 * held for the operator (decision 020), not delivered.
 */
export const buyerWallet = (): string => tronHexToBase58(`41${randomBytes(20).toString('hex')}`)
