import { useEffect } from 'react'
import { useProducts } from './api/get-products'
import { syncCartWithCatalog } from './cart-store'

/** Refreshes the cart's prices from the catalogue whenever it loads. */
export function useCatalogSync(): void {
  const products = useProducts()
  useEffect(() => {
    if (products.data) syncCartWithCatalog(products.data)
  }, [products.data])
}
