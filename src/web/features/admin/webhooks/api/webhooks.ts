import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AdminWebhookDelivery,
  AdminWebhookEndpoint,
  GreenfieldEvent,
  WebhookEvent,
} from '../../../../../shared/webhooks'
import { useT } from '../../../../i18n/i18n'
import { callRpc } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import { read } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The Webhooks tab's calls. Reads are safe to retry; writes are sent once, refresh what they
// changed, and a failure is told by the admin client's error toast.

type Refusal = { success: false; error: string }

export interface WebhookInput {
  id?: number
  url: string
  events: WebhookEvent[]
  includeKeys: boolean
  enabled: boolean
}

const webhooksApi = {
  webhooks: () => read<{ success: true; endpoints: AdminWebhookEndpoint[] }>('secure_fetch_webhooks'),
  saveWebhook: (input: WebhookInput) =>
    callRpc<{ success: true; id: number; secret?: string } | Refusal>('secure_save_webhook', {
      p_id: input.id,
      p_url: input.url,
      p_events: input.events,
      p_include_keys: input.includeKeys,
      p_enabled: input.enabled,
    }),
  deleteWebhook: (id: number) => callRpc<{ success: true } | Refusal>('secure_delete_webhook', { p_id: id }),
  deliveries: (id: number) =>
    read<{ success: true; deliveries: AdminWebhookDelivery[] }>('secure_fetch_webhook_deliveries', {
      p_id: id,
    }),
  invoiceWebhooks: () =>
    read<{
      success: true
      greenfield: AdminWebhookEndpoint<GreenfieldEvent>[]
      epusdt: AdminWebhookEndpoint<string>[]
    }>('secure_fetch_invoice_webhooks'),
  addGreenfieldWebhook: (input: { url: string; events: GreenfieldEvent[] }) =>
    callRpc<{ success: true; id: number; secret: string } | Refusal>('secure_add_greenfield_webhook', {
      p_url: input.url,
      p_events: input.events,
    }),
  resend: (deliveryId: number) =>
    callRpc<{ success: true } | Refusal>('secure_resend_webhook', { p_delivery_id: deliveryId }),
}

const webhooksKeys = {
  webhooks: ['admin', 'webhooks'] as const,
  deliveries: (id: number) => ['admin', 'webhooks', id, 'deliveries'] as const,
  invoiceWebhooks: ['admin', 'webhooks', 'invoice-api'] as const,
}

export function useWebhooks() {
  return useQuery({
    queryKey: webhooksKeys.webhooks,
    queryFn: webhooksApi.webhooks,
    refetchInterval: 10_000,
  })
}

/** Creating an endpoint, or switching one on or off (the same call with its id). */
export function useSaveWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: WebhookInput) => accepted(await webhooksApi.saveWebhook(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.webhooks }),
  })
}

/** The invoice API's endpoints: Greenfield's (registered here or through the API) and epusdt's notify_urls. */
export function useInvoiceWebhooks() {
  return useQuery({
    queryKey: webhooksKeys.invoiceWebhooks,
    queryFn: webhooksApi.invoiceWebhooks,
    refetchInterval: 10_000,
  })
}

export function useAddGreenfieldWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: { url: string; events: GreenfieldEvent[] }) =>
      accepted(await webhooksApi.addGreenfieldWebhook(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.invoiceWebhooks }),
  })
}

/** Deleting any endpoint (the shop's own or a Greenfield one): both lists are refreshed. */
export function useDeleteWebhook() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: number) => accepted(await webhooksApi.deleteWebhook(id)),
    onSuccess: () => toast.success(t('admin.webhooks.deleted'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.webhooks }),
  })
}

export function useWebhookDeliveries(endpointId: number) {
  return useQuery({
    queryKey: webhooksKeys.deliveries(endpointId),
    queryFn: () => webhooksApi.deliveries(endpointId),
    refetchInterval: 5_000,
  })
}

export function useResendWebhook(endpointId: number) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (deliveryId: number) => accepted(await webhooksApi.resend(deliveryId)),
    onSuccess: () => toast.success(t('admin.webhooks.queued'), { duration: 2000 }),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(endpointId) })
      queryClient.invalidateQueries({ queryKey: webhooksKeys.invoiceWebhooks })
    },
  })
}
