import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { pgliteOnly } from '../../../tests/support/test-db'
import {
  builtInSiteContent,
  defaultSiteContent,
  fetchSiteContentAnswerSchema,
} from '../../shared/site-content'

describe.each(pgliteOnly)('secure_fetch_site_content on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  it('answers the defaults when nothing is stored', async () => {
    const { status, body } = await rpc(t.app, 'secure_fetch_site_content')
    expect(status).toBe(200)
    const answer = fetchSiteContentAnswerSchema.parse(body)
    expect(answer).toEqual({ success: true, content: builtInSiteContent })
  })

  it('stored content overrides the defaults and is seen at once', async () => {
    const content = { ...defaultSiteContent, hero: { ...defaultSiteContent.hero, title: 'New <b>title</b>' } }
    await t.app.services.content.save(content)
    const { body } = await rpc(t.app, 'secure_fetch_site_content')
    expect(fetchSiteContentAnswerSchema.parse(body).content.hero.title).toBe('New <b>title</b>')
  })
})
