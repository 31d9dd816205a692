import { queryOptions, useQuery } from '@tanstack/react-query'
import { fetchProductsAnswerSchema, type Product } from '../../../shared/product'
import { callRpc } from '../rpc-client'

export async function getProducts(): Promise<Product[]> {
  const answer = fetchProductsAnswerSchema.parse(await callRpc('fetch_products', {}, { idempotent: true }))
  if (!answer.success) throw new Error(answer.error ?? 'Failed to fetch products')
  return answer.products
}

export const productsQueryOptions = queryOptions({
  queryKey: ['products'],
  queryFn: getProducts,
  staleTime: 60_000,
})

export function useProducts() {
  return useQuery(productsQueryOptions)
}
