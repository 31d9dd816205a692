import { Download } from 'lucide-react'
import { buttonStyles } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { exportUrl } from '../api/export-url'

/** Downloads the orders the Orders tab shows (its search and status) as CSV, all pages. */
export function ExportOrdersLink({ search, status }: { search: string; status: string }) {
  const t = useT()
  return (
    <a
      href={exportUrl('orders', { search, status })}
      download
      className={`${buttonStyles.secondary} shrink-0 whitespace-nowrap`}
    >
      <Download className="size-4" aria-hidden />
      {t('admin.exportCsv')}
    </a>
  )
}
