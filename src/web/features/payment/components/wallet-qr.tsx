import { QRCodeSVG } from 'qrcode.react'

/** 240 px, highest error correction, the coin logo served by the shop in the centre. */
export function WalletQr({ address }: { address: string }) {
  return (
    <div
      className="rounded-2xl bg-white p-3 shadow-lg"
      role="img"
      aria-label={`QR code of wallet address ${address}`}
    >
      <QRCodeSVG
        value={address}
        size={240}
        level="H"
        marginSize={0}
        imageSettings={{ src: '/images/coin-logo.svg', height: 52, width: 52, excavate: true }}
        data-testid="wallet-qr"
      />
    </div>
  )
}
