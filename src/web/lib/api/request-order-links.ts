import { useMutation } from '@tanstack/react-query'
import { requestOrderLinksAnswerSchema } from '../../../shared/order-links'
import { callRpc } from '../rpc-client'

// "E-mail me my orders" from the support page, the buyer's dashboard and the order-links page.

async function requestOrderLinks(email: string) {
  return requestOrderLinksAnswerSchema.parse(await callRpc('secure_request_order_links', { p_email: email }))
}

export function useRequestOrderLinks() {
  return useMutation({ mutationFn: requestOrderLinks })
}
