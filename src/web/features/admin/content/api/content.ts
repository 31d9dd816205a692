import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SiteContent } from '../../../../../shared/site-content'
import { useT } from '../../../../i18n/i18n'
import { getSiteContent, siteContentKeys } from '../../../../lib/api/get-site-content'
import { toast } from '../../../../lib/toast'
import { write } from '../../api/admin-api'

// The Content tab's calls: the stored content and its update, which the storefront in this tab
// shows at once; a failure is told by the admin client's error toast.

export const adminContentKeys = { all: ['admin', 'content'] as const }

/** Always the server's current content, never the storefront's cached copy. */
export function useStoredContent() {
  return useQuery({ queryKey: adminContentKeys.all, queryFn: getSiteContent, staleTime: 0 })
}

export function useUpdateContent() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (next: SiteContent) => {
      const answer = await write('secure_update_site_content', { p_content: next })
      if (!answer.success) throw new Error('Failed to update content')
      return next
    },
    meta: { failure: 'admin.content.updateFailed' },
    onSuccess: async (next) => {
      toast.success(t('admin.content.updated'), { duration: 2000 })
      queryClient.setQueryData(siteContentKeys.all, next)
      await queryClient.invalidateQueries({ queryKey: siteContentKeys.all })
    },
  })
}
