import { QRCodeSVG } from 'qrcode.react'

/**
 * 240 px, highest error correction, the coin logo served by the shop in the centre. It holds the
 * address (TRON) or the network's payment URI (EIP-681 on EVM networks: token, chain and amount).
 */
export function WalletQr({ value, label }: { value: string; label: string }) {
  return (
    <div className="rounded-2xl bg-white p-3 shadow-lg" role="img" aria-label={label}>
      <QRCodeSVG
        value={value}
        size={240}
        level="H"
        marginSize={0}
        imageSettings={{ src: '/images/coin-logo.svg', height: 52, width: 52, excavate: true }}
        data-testid="wallet-qr"
      />
    </div>
  )
}
