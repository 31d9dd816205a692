import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AdminSettings, AlertKind } from '../../../../../shared/settings'
import { useT } from '../../../../i18n/i18n'
import { callRpc } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import { read } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The Settings tab's calls: the operator's alert channels and the shop-wide stock threshold. A
// failure is told by the admin client's error toast.

type Refusal = { success: false; error: string }

export interface SettingsInput {
  operator_email: string | null
  telegram_chat_id: string | null
  /** Omitted keeps the saved token; '' removes it. */
  telegram_bot_token?: string
  alerts: Record<AlertKind, boolean>
  low_stock_threshold: number
}

const settingsApi = {
  settings: () => read<{ success: true; settings: AdminSettings }>('secure_fetch_settings'),
  saveSettings: (settings: SettingsInput) =>
    callRpc<{ success: true; settings: AdminSettings } | Refusal>('secure_update_settings', {
      p_settings: settings,
    }),
}

const settingsKey = ['admin', 'settings'] as const

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: settingsApi.settings })
}

export function useSaveSettings() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (settings: SettingsInput) => accepted(await settingsApi.saveSettings(settings)),
    meta: { failure: 'admin.settings.saveFailed' },
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsKey, answer)
      toast.success(t('admin.settings.saved'), { duration: 2000 })
    },
  })
}
