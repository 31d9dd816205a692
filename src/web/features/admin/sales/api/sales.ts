import { useQuery } from '@tanstack/react-query'
import type { SalesAnswer } from '../../../../../shared/cockpit'
import { read } from '../../api/admin-api'

// The sales view's figures (totals, chart, stock, the shop's health): the Stock tab reads the same.

export const salesKeys = {
  sales: ['admin', 'sales'] as const,
}

export const fetchSales = () => read<SalesAnswer>('secure_fetch_sales')

export function useSales() {
  return useQuery({ queryKey: salesKeys.sales, queryFn: fetchSales, refetchInterval: 60_000 })
}
