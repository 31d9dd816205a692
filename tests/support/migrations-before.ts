import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrationsFolder } from '../../src/server/db/client'

/** The migrations folder as it was before `tag`: a copy with the journal cut just before it. */
export function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-migrations-'))
  cpSync(migrationsFolder(), dir, { recursive: true })
  const journalPath = join(dir, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const cut = journal.entries.findIndex((e) => e.tag === tag)
  if (cut < 0) throw new Error(`no migration ${tag}`)
  journal.entries = journal.entries.slice(0, cut)
  writeFileSync(journalPath, JSON.stringify(journal))
  return dir
}
