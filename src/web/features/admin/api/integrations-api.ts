import type { AdminSettings, AlertKind } from '../../../../shared/settings'
import type { AdminWebhookDelivery, AdminWebhookEndpoint, WebhookEvent } from '../../../../shared/webhooks'
import { callRpc } from '../../../lib/rpc-client'

// The Settings and Webhooks tabs' calls. Reads are safe to retry; writes are sent once.

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
