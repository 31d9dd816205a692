import { describe, expect, it } from 'vitest'
import { makeProduct } from '../../tests/support/product'
import { selectProducts } from './catalog-filter'
import type { Product } from './product'

const product = (over: Partial<Product>): Product => makeProduct(1, { name: 'Item', ...over })

const catalogue = [
  product({
    id: 1,
    name: 'LTE Rotator',
    description: 'Rotate IPs',
    price: 29,
    created_at: '2026-01-03T00:00:00Z',
  }),
  product({
    id: 2,
    name: 'Checker',
    description: 'free PROXY checker',
    price: 0,
    created_at: '2026-01-05T00:00:00Z',
  }),
  product({
    id: 3,
    name: 'Farm',
    description: 'Racks',
    price: 149,
    featured: true,
    created_at: '2026-01-01T00:00:00Z',
  }),
  product({
    id: 4,
    name: 'SDK',
    description: 'Code',
    price: 5,
    is_free: true,
    created_at: '2026-01-04T00:00:00Z',
  }),
  product({
    id: 5,
    name: 'Geo Pack',
    description: 'Countries',
    price: 19.99,
    created_at: '2026-01-02T00:00:00Z',
  }),
]

const ids = (list: Product[]) => list.map((p) => p.id)
const all = { search: '', filter: 'all', sort: 'featured' } as const

describe('selectProducts', () => {
  it('searches name and description case-insensitively', () => {
    expect(ids(selectProducts(catalogue, { ...all, search: 'rotator' }))).toEqual([1])
    expect(ids(selectProducts(catalogue, { ...all, search: 'proxy' }))).toEqual([2])
    expect(ids(selectProducts(catalogue, { ...all, search: '  RACKS ' }))).toEqual([3])
    expect(selectProducts(catalogue, { ...all, search: 'nothing like this' })).toEqual([])
  })

  it('treats is_free or a price of 0 as free', () => {
    expect(ids(selectProducts(catalogue, { ...all, filter: 'free' })).sort()).toEqual([2, 4])
    expect(ids(selectProducts(catalogue, { ...all, filter: 'paid' })).sort()).toEqual([1, 3, 5])
  })

  it('sorts by featured first, keeping catalogue order otherwise', () => {
    expect(ids(selectProducts(catalogue, all))).toEqual([3, 1, 2, 4, 5])
  })

  it('sorts by price both ways and by newest', () => {
    expect(ids(selectProducts(catalogue, { ...all, sort: 'price-asc' }))).toEqual([2, 4, 5, 1, 3])
    expect(ids(selectProducts(catalogue, { ...all, sort: 'price-desc' }))).toEqual([3, 1, 5, 4, 2])
    expect(ids(selectProducts(catalogue, { ...all, sort: 'newest' }))).toEqual([2, 4, 1, 5, 3])
  })

  it('combines search, filter and sort without changing its input', () => {
    const before = ids(catalogue)
    expect(ids(selectProducts(catalogue, { search: 'c', filter: 'paid', sort: 'price-asc' }))).toEqual([5, 3])
    expect(ids(catalogue)).toEqual(before)
  })
})
