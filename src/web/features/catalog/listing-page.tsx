import { useMemo, useState } from 'react'
import { type CatalogQuery, selectProducts } from '../../../shared/catalog-filter'
import type { Product } from '../../../shared/product'
import { useT } from '../../i18n/i18n'
import { useProducts } from '../../lib/api/get-products'
import { useSiteContent } from '../../lib/api/get-site-content'
import { CatalogToolbar } from './components/catalog-toolbar'
import { DeliveryFeatures } from './components/delivery-features'
import { Hero } from './components/hero'
import { ProductCard } from './components/product-card'
import { ProductModal } from './components/product-modal'

export function ListingPage() {
  const t = useT()
  const { content } = useSiteContent()
  const products = useProducts()
  const [query, setQuery] = useState<CatalogQuery>({ search: '', filter: 'all', sort: 'featured' })
  const [open, setOpen] = useState<Product | null>(null)
  const shown = useMemo(() => selectProducts(products.data ?? [], query), [products.data, query])

  return (
    <>
      <Hero hero={content.hero} />
      <section
        id="products"
        aria-labelledby="products-title"
        className="mx-auto max-w-7xl scroll-mt-20 px-4 pt-16 sm:px-6"
      >
        <div className="mb-8 flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
          <div>
            <h2 id="products-title" className="text-3xl font-bold tracking-tight text-fg">
              {content.navigation.products}
            </h2>
            <p className="mt-2 text-muted">{t('listing.intro')}</p>
          </div>
          <div className="lg:w-[42rem]">
            <CatalogToolbar query={query} onChange={setQuery} />
          </div>
        </div>
        {products.isPending ? (
          <p role="status" className="py-20 text-center text-muted">
            {t('listing.loading')}
          </p>
        ) : products.isError ? (
          <p role="alert" className="py-20 text-center text-muted">
            {t('listing.failed')}
          </p>
        ) : shown.length === 0 ? (
          <p role="status" className="py-20 text-center text-muted">
            {t('listing.empty')}
          </p>
        ) : (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {shown.map((p) => (
              <ProductCard key={p.id} product={p} onOpen={() => setOpen(p)} />
            ))}
          </div>
        )}
      </section>
      <DeliveryFeatures />
      <ProductModal product={open} onClose={() => setOpen(null)} />
    </>
  )
}
