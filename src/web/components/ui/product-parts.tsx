import { Ban, Check, Download, ShoppingCart } from 'lucide-react'
import type { Product } from '../../../shared/product'
import { useT } from '../../i18n/i18n'
import { isDownload } from '../../lib/product-action'

/** The product button's icon and words: a download for free products with a URL, else Add to Cart. */
export function ProductActionLabel({ product, download }: { product: Product; download?: string }) {
  const t = useT()
  if (product.sold_out) {
    return (
      <>
        <Ban className="size-4" aria-hidden /> {t('product.soldOut')}
      </>
    )
  }
  return isDownload(product) ? (
    <>
      <Download className="size-4" aria-hidden /> {download ?? t('product.download')}
    </>
  ) : (
    <>
      <ShoppingCart className="size-4" aria-hidden /> {t('product.addToCart')}
    </>
  )
}

export function FeatureList({
  features,
  className = '',
}: {
  features: readonly string[]
  className?: string
}) {
  return (
    <ul className={className}>
      {features.map((f) => (
        <li key={f} className="flex items-start gap-2 text-sm text-fg/90">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span>{f}</span>
        </li>
      ))}
    </ul>
  )
}
