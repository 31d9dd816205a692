import { formatUsd } from '../../../shared/money'
import type { Product } from '../../../shared/product'
import { isFreeProduct } from '../../../shared/product-rules'

/** "$49.99 / One-time payment" or "Free / Download Now". */
export function ProductPrice({ product, size = 'md' }: { product: Product; size?: 'md' | 'lg' }) {
  const free = isFreeProduct(product)
  const big = size === 'lg' ? 'text-3xl' : 'text-2xl'
  return (
    <div>
      <div className={`${big} font-bold tracking-tight ${free ? 'text-primary' : 'text-fg'}`}>
        {free ? 'Free' : formatUsd(product.price)}
      </div>
      <div className="text-xs text-muted">{free ? 'Download Now' : 'One-time payment'}</div>
    </div>
  )
}
