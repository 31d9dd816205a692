import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AdminSettings, AlertKind } from '../../../../../shared/settings'
import type { AdminWebhookDelivery, AdminWebhookEndpoint, WebhookEvent } from '../../../../../shared/webhooks'
import { useT } from '../../../../i18n/i18n'
import { callRpc } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import { accepted } from '../../api/admin-query-client'

// The Settings and Webhooks tabs' calls. Reads are safe to retry; writes are sent once, refresh
// what they changed, and a failure is told by the admin client's error toast.

type Refusal = { success: false; error: string }

export interface SettingsInput {
  operator_email: string | null
  telegram_chat_id: string | null
  /** Omitted keeps the saved token; '' removes it. */
  telegram_bot_token?: string
  alerts: Record<AlertKind, boolean>
  low_stock_threshold: number
}

export interface WebhookInput {
  id?: number
  url: string
  events: WebhookEvent[]
  includeKeys: boolean
  enabled: boolean
}

const read = <T>(name: string, payload: unknown = {}) => callRpc<T>(name, payload, { idempotent: true })

export const integrationsApi = {
  settings: () => read<{ success: true; settings: AdminSettings }>('secure_fetch_settings'),
  saveSettings: (settings: SettingsInput) =>
    callRpc<{ success: true; settings: AdminSettings } | Refusal>('secure_update_settings', {
      p_settings: settings,
    }),

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
  resend: (deliveryId: number) =>
    callRpc<{ success: true } | Refusal>('secure_resend_webhook', { p_delivery_id: deliveryId }),
}

export const integrationsKeys = {
  settings: ['admin', 'settings'] as const,
  webhooks: ['admin', 'webhooks'] as const,
  deliveries: (id: number) => ['admin', 'webhooks', id, 'deliveries'] as const,
}

export function useSettings() {
  return useQuery({ queryKey: integrationsKeys.settings, queryFn: integrationsApi.settings })
}

export function useSaveSettings() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (settings: SettingsInput) => accepted(await integrationsApi.saveSettings(settings)),
    meta: { failure: 'admin.settings.saveFailed' },
    onSuccess: (answer) => {
      queryClient.setQueryData(integrationsKeys.settings, answer)
      toast.success(t('admin.settings.saved'), { duration: 2000 })
    },
  })
}

export function useWebhooks() {
  return useQuery({
    queryKey: integrationsKeys.webhooks,
    queryFn: integrationsApi.webhooks,
    refetchInterval: 10_000,
  })
}

/** Creating an endpoint, or switching one on or off (the same call with its id). */
export function useSaveWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: WebhookInput) => accepted(await integrationsApi.saveWebhook(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsKeys.webhooks }),
  })
}

export function useDeleteWebhook() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: number) => accepted(await integrationsApi.deleteWebhook(id)),
    onSuccess: () => toast.success(t('admin.webhooks.deleted'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsKeys.webhooks }),
  })
}

export function useWebhookDeliveries(endpointId: number) {
  return useQuery({
    queryKey: integrationsKeys.deliveries(endpointId),
    queryFn: () => integrationsApi.deliveries(endpointId),
    refetchInterval: 5_000,
  })
}

export function useResendWebhook(endpointId: number) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (deliveryId: number) => accepted(await integrationsApi.resend(deliveryId)),
    onSuccess: () => toast.success(t('admin.webhooks.queued'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsKeys.deliveries(endpointId) }),
  })
}
