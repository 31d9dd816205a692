import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { tronHexToBase58 } from '../../src/shared/tron-address'

/** Deterministic valid TRON addresses for a test pool (no keys exist for them). */
export function testAddresses(count: number, salt = 'pool'): string[] {
  return Array.from({ length: count }, (_, i) =>
    tronHexToBase58(`41${bytesToHex(sha256(utf8ToBytes(`${salt} ${i}`))).slice(0, 40)}`),
  )
}
