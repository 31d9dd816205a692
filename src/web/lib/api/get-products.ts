import { queryOptions, useQuery } from '@tanstack/react-query'
import type { FetchProductsAnswer, Product } from '../../../shared/product'
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

export function useProducts() {
  return useQuery(productsQueryOptions)
}
