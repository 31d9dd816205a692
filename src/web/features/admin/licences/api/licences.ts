import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AdminLicence, FetchLicencesAnswer } from '../../../../../shared/licences'
import { callRpc } from '../../../../lib/rpc-client'
import { accepted } from '../../api/admin-query-client'

// The Licences tab's calls. The search is safe to retry; each action is sent once, refreshes the
// list, and a failure is told by the admin client's error toast.

type Refusal = { success: false; error: string }
type Done = { success: true } | Refusal

export const licencesApi = {
  search: (search: string) =>
    callRpc<FetchLicencesAnswer>('secure_fetch_licences', { p_search: search }, { idempotent: true }),
  setDisabled: (id: number, disabled: boolean) =>
    callRpc<Done>('secure_set_licence_disabled', { p_key_id: id, p_disabled: disabled }),
  reset: (id: number) => callRpc<Done>('secure_reset_licence_activations', { p_key_id: id }),
  setTerms: (id: number, limit: number | null, expiresAt: string | null) =>
    callRpc<Done>('secure_set_licence_terms', {
      p_key_id: id,
      p_activation_limit: limit,
      p_expires_at: expiresAt,
    }),
  rotate: () => callRpc<{ success: true; kid: string } | Refusal>('secure_rotate_licence_signing_key', {}),
}

export const licencesKeys = {
  all: ['admin', 'licences'] as const,
  search: (search: string) => ['admin', 'licences', search] as const,
}

export function useLicences(search: string) {
  return useQuery({
    queryKey: licencesKeys.search(search),
    queryFn: () => licencesApi.search(search),
    placeholderData: keepPreviousData,
  })
}

function useLicenceAction<I>(run: (input: I) => Promise<Done>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: I) => accepted(await run(input)),
    meta: { failure: 'admin.licences.requestFailed' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: licencesKeys.all }),
  })
}

export const useSetLicenceDisabled = () =>
  useLicenceAction((licence: AdminLicence) =>
    licencesApi.setDisabled(licence.id, !licence.disabled_by_operator),
  )

export const useResetLicence = () =>
  useLicenceAction((licence: AdminLicence) => licencesApi.reset(licence.id))

export const useSetLicenceTerms = () =>
  useLicenceAction((input: { id: number; limit: number | null; expiresAt: string | null }) =>
    licencesApi.setTerms(input.id, input.limit, input.expiresAt),
  )

export function useRotateSigningKey() {
  return useMutation({
    mutationFn: async () => accepted(await licencesApi.rotate()),
    meta: { failure: 'admin.licences.requestFailed' },
  })
}
