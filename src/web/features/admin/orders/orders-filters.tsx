import { Search } from 'lucide-react'
import { useEffect, useState } from 'react'
import { type AdminOrderStatus, adminOrderStatuses } from '../../../../shared/admin'
import { useT } from '../../../i18n/i18n'
import { ExportOrdersLink } from '../components/export-orders-link'
import { inputClass } from '../components/fields'

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

/** The search (sent 300 ms after the last key), the status filter and the CSV of what they select. */
export function OrdersFilters({
  status,
  onStatus,
  onSearch,
}: {
  status: AdminOrderStatus | 'all'
  onStatus: (status: AdminOrderStatus | 'all') => void
  /** Called with the trimmed search once typing pauses; must be stable (a state setter). */
  onSearch: (search: string) => void
}) {
  const t = useT()
  const [searchText, setSearchText] = useState('')
  const search = useDebounced(searchText.trim(), 300)
  useEffect(() => onSearch(search), [search, onSearch])
  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row">
      <div className="relative flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
          aria-hidden
        />
        <input
          type="search"
          aria-label={t('admin.orders.search')}
          placeholder={t('admin.orders.searchPlaceholder')}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          className={`${inputClass} pl-9`}
        />
      </div>
      <select
        aria-label={t('admin.orders.filter')}
        value={status}
        onChange={(e) => onStatus(e.target.value as AdminOrderStatus | 'all')}
        className={`${inputClass} sm:w-48`}
      >
        <option value="all">{t('admin.orders.allStatuses')}</option>
        {adminOrderStatuses.map((s) => (
          <option key={s} value={s}>
            {t(`admin.statusFilter.${s}`)}
          </option>
        ))}
      </select>
      <ExportOrdersLink search={search} status={status} />
    </div>
  )
}
