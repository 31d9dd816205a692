import { toast } from 'sonner'
import { isFreeProduct, type Product } from '../../shared/product'
import { cart } from './cart-store'

/** Free with a download URL: the button downloads; everything else goes into the cart. */
export function isDownload(product: Product): boolean {
  return isFreeProduct(product) && Boolean(product.download_url)
}

export function runProductAction(product: Product): void {
  if (product.sold_out) return
  if (isDownload(product) && product.download_url) {
    window.open(product.download_url, '_blank', 'noopener,noreferrer')
    return
  }
  cart.add(product)
  toast.success(`${product.name} added to cart`, { duration: 3000 })
}
