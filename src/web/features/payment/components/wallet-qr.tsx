import { QRCodeSVG } from 'qrcode.react'
import { useT } from '../../../i18n/i18n'

/** 240 px, highest error correction, the coin logo served by the shop in the centre. */
export function WalletQr({ address }: { address: string }) {
  const t = useT()
  return (
    <div className="rounded-2xl bg-white p-3 shadow-lg" role="img" aria-label={t('payment.qr', { address })}>
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
