import type { Product } from '../../../shared/product'
import { isFreeProduct } from '../../../shared/product-rules'
import { useFormat, useT } from '../../i18n/i18n'

/** "$49.99 / One-time payment" or "Free / Download Now". */
export function ProductPrice({ product, size = 'md' }: { product: Product; size?: 'md' | 'lg' }) {
  const t = useT()
  const format = useFormat()
  const free = isFreeProduct(product)
  const big = size === 'lg' ? 'text-3xl' : 'text-2xl'
  return (
    <div>
      <div className={`${big} font-bold tracking-tight ${free ? 'text-primary' : 'text-fg'}`}>
        {free ? t('price.free') : format.usd(product.price)}
      </div>
      <div className="text-xs text-muted">{free ? t('price.downloadNow') : t('price.oneTime')}</div>
    </div>
  )
}
