import type { Product } from './product'
import { isFreeProduct } from './product-rules'

export const productFilters = ['all', 'free', 'paid'] as const
export type ProductFilter = (typeof productFilters)[number]

export const productSorts = ['featured', 'price-asc', 'price-desc', 'newest'] as const
export type ProductSort = (typeof productSorts)[number]

export const productSortLabels: Record<ProductSort, string> = {
  featured: 'Sort by: Featured',
  'price-asc': 'Price: Low to High',
  'price-desc': 'Price: High to Low',
  newest: 'Newest First',
}

export const productFilterLabels: Record<ProductFilter, string> = {
  all: 'All Products',
  free: 'Free',
  paid: 'Paid',
}

export interface CatalogQuery {
  search: string
  filter: ProductFilter
  sort: ProductSort
}

/** Case-insensitive search over name and description, then the filter, then a stable sort. */
export function selectProducts(products: readonly Product[], query: CatalogQuery): Product[] {
  const needle = query.search.trim().toLocaleLowerCase()
  const matched = products.filter((p) => {
    if (query.filter === 'free' && !isFreeProduct(p)) return false
    if (query.filter === 'paid' && isFreeProduct(p)) return false
    if (!needle) return true
    return p.name.toLocaleLowerCase().includes(needle) || p.description.toLocaleLowerCase().includes(needle)
  })
  const byFeatured = (a: Product, b: Product) => Number(b.featured) - Number(a.featured)
  const compare: Record<ProductSort, (a: Product, b: Product) => number> = {
    // Featured first, then the order the merchant gave the catalogue.
    featured: (a, b) => byFeatured(a, b),
    'price-asc': (a, b) => a.price - b.price,
    'price-desc': (a, b) => b.price - a.price,
    newest: (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
  }
  return matched.sort(compare[query.sort])
}
