import { queryOptions, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { localizeProduct } from '../../../shared/localize'
import type { FetchProductsAnswer, Product } from '../../../shared/product'
import { useLocale } from '../../i18n/i18n'
import { callRpc } from '../rpc-client'

// The answer comes from our own server, which builds it from the shared schema; the storefront's
// first load carries no schema library, so only the shape that the pages rely on is checked.
export async function getProducts(): Promise<Product[]> {
  const answer = await callRpc<FetchProductsAnswer>('fetch_products', {}, { idempotent: true })
  if (!answer?.success || !Array.isArray(answer.products)) {
    throw new Error(answer?.error ?? 'Failed to fetch products')
  }
  return answer.products
}

export const productKeys = { all: ['products'] as const }

export const productsQueryOptions = queryOptions({
  queryKey: productKeys.all,
  queryFn: getProducts,
  staleTime: 60_000,
})

/** The catalogue with the operator's texts in the language shown (English where there are none). */
export function useProducts() {
  const locale = useLocale()
  const select = useCallback(
    (products: Product[]) => products.map((p) => localizeProduct(p, locale)),
    [locale],
  )
  return useQuery({ ...productsQueryOptions, select })
}
