import type { Product } from '../../shared/product'
import { isFreeProduct } from '../../shared/product-rules'
import type { Translate } from '../i18n/i18n'
import { cart } from './cart-store'
import { toast } from './toast'

/** Free with a download URL: the button downloads; everything else goes into the cart. */
export function isDownload(product: Product): boolean {
  return isFreeProduct(product) && Boolean(product.download_url)
}

export function runProductAction(product: Product, t: Translate): void {
  if (product.sold_out) return
  if (isDownload(product) && product.download_url) {
    window.open(product.download_url, '_blank', 'noopener,noreferrer')
    return
  }
  cart.add(product)
  toast.success(t('cart.added', { name: product.name }), { duration: 3000 })
}
