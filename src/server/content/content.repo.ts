import { eq } from 'drizzle-orm'
import type { SiteContent } from '../../shared/site-content'
import type { Db } from '../db/client'
import { siteContent } from '../db/schema'

const ROW_ID = 1

export async function readStoredContent(db: Db): Promise<unknown> {
  const rows = await db.select().from(siteContent).where(eq(siteContent.id, ROW_ID))
  return rows[0]?.content
}

export async function writeStoredContent(db: Db, content: SiteContent): Promise<void> {
  await db
    .insert(siteContent)
    .values({ id: ROW_ID, content })
    .onConflictDoUpdate({ target: siteContent.id, set: { content, updatedAt: new Date() } })
}
