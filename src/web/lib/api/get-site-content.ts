import { queryOptions, useQuery } from '@tanstack/react-query'
import {
  defaultSiteContent,
  fetchSiteContentAnswerSchema,
  type SiteContent,
} from '../../../shared/site-content'
import { callRpc } from '../rpc-client'

export async function getSiteContent(): Promise<SiteContent> {
  const answer = fetchSiteContentAnswerSchema.parse(
    await callRpc('secure_fetch_site_content', {}, { idempotent: true, quiet: true }),
  )
  return answer.content
}

export const siteContentQueryOptions = queryOptions({
  queryKey: ['site-content'],
  queryFn: getSiteContent,
  staleTime: 60_000,
})

/** Site content, with the built-in defaults while loading or when the fetch fails. */
export function useSiteContent(): { content: SiteContent; isLoading: boolean; isError: boolean } {
  const query = useQuery(siteContentQueryOptions)
  return { content: query.data ?? defaultSiteContent, isLoading: query.isLoading, isError: query.isError }
}
