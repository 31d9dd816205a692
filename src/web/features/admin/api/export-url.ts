/** The download link of a CSV export; the orders one carries the Orders tab's search and status. */
export function exportUrl(
  kind: 'orders' | 'payments' | 'unmatched',
  filters: { search?: string; status?: string } = {},
) {
  const params = new URLSearchParams()
  if (filters.search) params.set('search', filters.search)
  if (filters.status && filters.status !== 'all') params.set('status', filters.status)
  const query = params.toString()
  return `/api/admin/export/${kind}.csv${query ? `?${query}` : ''}`
}
