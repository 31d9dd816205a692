import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, pgliteOnly, type TestDatabase } from '../../../tests/support/test-db'
import { buildApp } from '../app'
import { parseEnv } from '../env'

// The built front end as the server sends it: a web root laid out like dist/web (no dist/ssr
// beside it, so pages are the shell with the shop's head).
const script = `console.log(${JSON.stringify('x'.repeat(2000))})`

describe.each(pgliteOnly)('the front end served on %s', (engine) => {
  let root: string
  let app: FastifyInstance
  let database: TestDatabase

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'stablecart-web-'))
    const web = join(root, 'web')
    mkdirSync(join(web, 'assets'), { recursive: true })
    writeFileSync(
      join(web, 'index.html'),
      '<!doctype html>\n<html lang="en">\n<head><meta name="description" content="x" /><title>Stablecart</title><link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head>\n<body><div id="root"></div></body>\n</html>',
    )
    writeFileSync(join(web, 'assets', 'index-abc123.css'), 'body{color:red}a::after{content:"</style>"}')
    writeFileSync(join(web, 'assets', 'index-abc123.js'), script)
    writeFileSync(join(web, 'assets', 'index-abc123.js.br'), brotliCompressSync(script))
    writeFileSync(join(web, 'assets', 'index-abc123.js.gz'), gzipSync(script))
    writeFileSync(join(web, 'robots.txt'), 'User-agent: *\nAllow: /\n')
    database = await createTestDatabase(engine)
    app = await buildApp({
      env: parseEnv({ LOG_LEVEL: 'silent', PRICE_SOURCE: 'fixed:0.25' }),
      database,
      webRoot: web,
    })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await database.close()
    rmSync(root, { recursive: true, force: true })
  })

  describe('serving the front end', () => {
    it('writes the stylesheet into the page, so the first paint waits for no second request', async () => {
      const res = await app.inject({ method: 'GET', url: '/' })
      expect(res.body).toContain('<style>body{color:red}a::after{content:"<\\/style>"}</style>')
      expect(res.body).not.toContain('rel="stylesheet"')
      // The file itself is still there for anyone who asks.
      expect((await app.inject({ method: 'GET', url: '/assets/index-abc123.css' })).statusCode).toBe(200)
    })

    it('/ is a page with the shop head, compressed for the browser and never cached stale', async () => {
      const res = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.headers['content-encoding']).toBe('br')
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers.vary).toContain('accept-encoding')
      const html = brotliDecompressSync(res.rawPayload).toString()
      expect(html).toContain('<title>Stablecart — Mobile Proxy Software</title>')
      expect(html).toMatch(/<meta name="description" content="Tools to run, rotate and check/)
    })

    it('a page is kept between requests and made again when the site content changes', async () => {
      const get = async () =>
        brotliDecompressSync(
          (await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } })).rawPayload,
        ).toString()
      const first = await get()
      expect(await get()).toBe(first)
      const content = await app.services.content.get()
      await app.services.content.save({ ...content, meta: { ...content.meta, title: 'Renamed Shop' } })
      try {
        expect(await get()).toContain('<title>Renamed Shop</title>')
        // Each encoding is its own copy: gzip is not answered with the brotli bytes.
        const gz = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } })
        expect(gz.headers['content-encoding']).toBe('gzip')
        expect(gunzipSync(gz.rawPayload).toString()).toContain('<title>Renamed Shop</title>')
      } finally {
        await app.services.content.save(content)
      }
      expect(await get()).toBe(first)
    })

    it('client-side paths get the same page; unknown API paths stay 404 JSON', async () => {
      const page = await app.inject({ method: 'GET', url: '/cart' })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('<div id="root"></div>')
      const api = await app.inject({ method: 'GET', url: '/api/nothing' })
      expect(api.statusCode).toBe(404)
      expect(api.json()).toMatchObject({ success: false })
    })

    it('hashed assets: the prepared brotli or gzip copy, cached for a year', async () => {
      const br = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'br' },
      })
      expect(br.headers['content-encoding']).toBe('br')
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)
      const gz = await app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(gz.headers['content-encoding']).toBe('gzip')
    })

    it('robots.txt is a real robots file, cached for a week', async () => {
      const res = await app.inject({ method: 'GET', url: '/robots.txt' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.headers['cache-control']).toBe('public, max-age=604800')
      expect(res.body).toContain('User-agent: *')
    })
  })
})
