import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every decision record says when it was taken and where it stands, on the line under its title,
// as a reader (and the records that supersede one another) expect to find it.

const folder = join(__dirname, '..', '..', 'docs', 'decisions')

describe('decision records', () => {
  const records = readdirSync(folder).filter((f) => /^\d{3}-.+\.md$/.test(f))

  it('are all found', () => {
    expect(records.length).toBeGreaterThan(40)
  })

  it('each has a date and a status line under its title', () => {
    const missing = records.filter((file) => {
      const lines = readFileSync(join(folder, file), 'utf8').split('\n')
      const titled = /^# \d{3}\b/.test(lines[0] ?? '')
      const dated = lines.slice(1, 4).some((l) => /^Date: \d{4}-\d{2}-\d{2}\b.*Status: \w+/i.test(l))
      return !(titled && dated)
    })
    expect(missing).toEqual([])
  })
})
