import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiKeyScope, ApiKeyView } from '../../../../../shared/api-keys'
import { callRpc } from '../../../../lib/rpc-client'
import { read } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The API keys tab's calls: the store id and the keys, a key made (answered once), a key revoked.
// Both writes carry the admin's password.

type Refusal = { success: false; error: string }

const apiKeysApi = {
  keys: () => read<{ success: true; store_id: string; keys: ApiKeyView[] }>('secure_fetch_api_keys'),
  create: (input: { label: string; scopes: ApiKeyScope[]; password: string }) =>
    callRpc<{ success: true; id: number; key: string } | Refusal>('secure_create_api_key', {
      p_label: input.label,
      p_scopes: input.scopes,
      p_current_password: input.password,
    }),
  revoke: (input: { id: number; password: string }) =>
    callRpc<{ success: true } | Refusal>('secure_revoke_api_key', {
      p_id: input.id,
      p_current_password: input.password,
    }),
}

const apiKeysKeys = { keys: ['admin', 'api-keys'] as const }

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKeys.keys, queryFn: apiKeysApi.keys })
}

export function useCreateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: Parameters<typeof apiKeysApi.create>[0]) =>
      accepted(await apiKeysApi.create(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.keys }),
  })
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: { id: number; password: string }) => accepted(await apiKeysApi.revoke(input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.keys }),
  })
}
