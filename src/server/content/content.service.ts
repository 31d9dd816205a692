import { mergeSiteContent, type SiteContent } from '../../shared/site-content'
import type { Database } from '../db/client'
import { cachedValue } from '../lib/cached-value'
import { readStoredContent, writeStoredContent } from './content.repo'

export interface ContentService {
  /** Defaults overridden by what the admin stored, from memory. */
  get(): Promise<SiteContent>
  save(content: SiteContent): Promise<void>
  invalidate(): void
}

export function createContentService(database: Database, ttlMs: number): ContentService {
  const cache = cachedValue(async () => mergeSiteContent(await readStoredContent(database.db)), ttlMs)
  return {
    get: () => cache.get(),
    async save(content) {
      await writeStoredContent(database.db, content)
      cache.invalidate()
    },
    invalidate: () => cache.invalidate(),
  }
}
