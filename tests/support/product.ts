// The one product the tests build (web, shared and server alike): a paid, stock-free product with no details beyond its name,
// and whatever a test sets apart.
import type { Product } from '../../src/shared/product'

export function makeProduct(id: number, over: Partial<Product> = {}): Product {
  return {
    id,
    name: `Product ${id}`,
    description: '',
    price: 10,
    image: '/images/x.svg',
    features: [],
    video_id: null,
    is_free: false,
    download_url: null,
    has_details: true,
    featured: false,
    created_at: '2026-01-01T00:00:00Z',
    ...over,
  }
}
