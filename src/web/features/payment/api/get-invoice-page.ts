import { useQuery } from '@tanstack/react-query'
import { INVOICE_ID, type InvoicePage, invoicePageKeys } from '../../../../shared/invoice-page'
import { callRpc } from '../../../lib/rpc-client'

// An invoice's hosted page: the server puts it beside the rendered page (entry-server.tsx,
// main.tsx); otherwise, and after the invoice's order changed, it is asked again.

export async function getInvoicePage(id: string): Promise<InvoicePage> {
  const answer = (await callRpc('secure_get_invoice_page', { p_invoice_id: id }, { idempotent: true })) as {
    success?: boolean
    page?: InvoicePage
  }
  if (answer.success !== true || !answer.page) throw new Error('The invoice could not be read')
  return answer.page
}

export function useInvoicePage(id: string) {
  return useQuery({
    queryKey: invoicePageKeys.one(id),
    queryFn: () => getInvoicePage(id),
    enabled: INVOICE_ID.test(id),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  })
}
