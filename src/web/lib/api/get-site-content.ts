import { queryOptions, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { localizeContent } from '../../../shared/localize'
import type { SiteContent } from '../../../shared/site-content'
import { defaultSiteContent } from '../../../shared/site-content-defaults'
import { useLocale } from '../../i18n/i18n'
import { callRpc } from '../rpc-client'

// The server merges stored content over the defaults section by section and validates each with
// the shared schema; the storefront's first load carries no schema library.
export async function getSiteContent(): Promise<SiteContent> {
  const answer = await callRpc<{ success: boolean; content?: SiteContent }>(
    'secure_fetch_site_content',
    {},
    { idempotent: true, quiet: true },
  )
  if (!answer?.content || typeof answer.content !== 'object') throw new Error('Failed to fetch site content')
  return { ...defaultSiteContent, ...answer.content }
}

export const siteContentKeys = { all: ['site-content'] as const }

export const siteContentQueryOptions = queryOptions({
  queryKey: siteContentKeys.all,
  queryFn: getSiteContent,
  staleTime: 60_000,
})

/**
 * Site content in the language shown (English where the operator wrote none), with the built-in
 * defaults while loading or when the fetch fails.
 */
export function useSiteContent(): { content: SiteContent; isLoading: boolean; isError: boolean } {
  const locale = useLocale()
  const select = useCallback((content: SiteContent) => localizeContent(content, locale), [locale])
  const query = useQuery({ ...siteContentQueryOptions, select })
  return { content: query.data ?? defaultSiteContent, isLoading: query.isLoading, isError: query.isError }
}
