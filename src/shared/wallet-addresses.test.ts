import { describe, expect, it } from 'vitest'
import { parseWalletAddressLines } from './wallet-addresses'

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

describe('wallet address lines', () => {
  it('takes TRON and EVM addresses, EVM ones in their checksum form, each once', () => {
    expect(parseWalletAddressLines(`${TRON}\n\n ${EVM.toLowerCase()} \r\n${EVM}\n`)).toEqual({
      ok: true,
      addresses: [TRON, EVM],
      entries: [
        { address: TRON, family: 'tron' },
        { address: EVM, family: 'evm' },
      ],
    })
  })

  it('names each bad line, and a checksum typo as such', () => {
    const typo = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
    expect(parseWalletAddressLines([TRON, typo, 'short', `${EVM}00`])).toEqual({
      ok: false,
      error: `Invalid wallet address format: ${typo} (EVM checksum does not match), short, ${EVM}00`,
    })
    expect(parseWalletAddressLines(' \n ')).toEqual({
      ok: false,
      error: 'Please enter at least one wallet address',
    })
  })
})
