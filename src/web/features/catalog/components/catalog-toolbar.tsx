import { Search } from 'lucide-react'
import { useRef } from 'react'
import {
  type CatalogQuery,
  type ProductFilter,
  type ProductSort,
  productFilters,
  productSorts,
} from '../../../../shared/catalog-filter'
import { type MessageId, useT } from '../../../i18n/i18n'
import { useTypedBeforeHydration } from '../../../lib/typed-before-hydration'

const filterLabels: Record<ProductFilter, MessageId> = {
  all: 'catalog.filter.all',
  free: 'catalog.filter.free',
  paid: 'catalog.filter.paid',
}
const sortLabels: Record<ProductSort, MessageId> = {
  featured: 'catalog.sort.featured',
  'price-asc': 'catalog.sort.priceAsc',
  'price-desc': 'catalog.sort.priceDesc',
  newest: 'catalog.sort.newest',
}

const field =
  'h-11 rounded-xl border border-line bg-card px-3 text-sm text-fg outline-none transition focus:border-primary/60 focus:ring-2 focus:ring-primary/20'

export function CatalogToolbar({
  query,
  onChange,
}: {
  query: CatalogQuery
  onChange: (q: CatalogQuery) => void
}) {
  const t = useT()
  const search = useRef<HTMLInputElement>(null)
  const filter = useRef<HTMLSelectElement>(null)
  const sort = useRef<HTMLSelectElement>(null)
  // A buyer on a slow phone may search the server-rendered listing before it is interactive.
  useTypedBeforeHydration(() => {
    const typed: CatalogQuery = {
      search: search.current?.value ?? query.search,
      filter: productFilters.find((f) => f === filter.current?.value) ?? query.filter,
      sort: productSorts.find((s) => s === sort.current?.value) ?? query.sort,
    }
    if (typed.search !== query.search || typed.filter !== query.filter || typed.sort !== query.sort) {
      onChange(typed)
    }
  })
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <label className="relative flex-1">
        <span className="sr-only">{t('catalog.searchLabel')}</span>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          aria-hidden
        />
        <input
          ref={search}
          type="search"
          value={query.search}
          onChange={(e) => onChange({ ...query, search: e.target.value })}
          placeholder={t('catalog.searchPlaceholder')}
          className={`${field} w-full pl-9`}
        />
      </label>
      <div className="grid grid-cols-2 gap-3 sm:flex">
        <label>
          <span className="sr-only">{t('catalog.filterLabel')}</span>
          <select
            ref={filter}
            value={query.filter}
            onChange={(e) => onChange({ ...query, filter: e.target.value as ProductFilter })}
            className={`${field} w-full sm:w-40`}
          >
            {productFilters.map((f) => (
              <option key={f} value={f}>
                {t(filterLabels[f])}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="sr-only">{t('catalog.sortLabel')}</span>
          <select
            ref={sort}
            value={query.sort}
            onChange={(e) => onChange({ ...query, sort: e.target.value as ProductSort })}
            className={`${field} w-full sm:w-52`}
          >
            {productSorts.map((s) => (
              <option key={s} value={s}>
                {t(sortLabels[s])}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  )
}
