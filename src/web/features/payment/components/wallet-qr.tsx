import { QRCodeSVG } from 'qrcode.react'

/**
 * 240 px, the coin logo served by the shop in the centre. It holds the address (TRON: highest error
 * correction) or the network's payment URI (EIP-681 on EVM networks: token, chain and amount; three
 * times as long, so one level less correction keeps its modules large enough for a phone's camera).
 */
export function WalletQr({ value, label, level = 'H' }: { value: string; label: string; level?: 'H' | 'Q' }) {
  return (
    <div className="rounded-2xl bg-white p-3 shadow-lg" role="img" aria-label={label}>
      <QRCodeSVG
        value={value}
        size={240}
        level={level}
        marginSize={0}
        imageSettings={{ src: '/images/coin-logo.svg', height: 52, width: 52, excavate: true }}
        data-testid="wallet-qr"
        data-value={value}
      />
    </div>
  )
}
