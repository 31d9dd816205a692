// The shop behind Debian's nginx, configured with the block docs/deploy.md gives (only ports, the
// server name and certificate paths swapped): the client address, Secure cookies and the admin's
// same-origin check must survive the proxy.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedShop, spawnShop } from '../support/spawn-shop'
import { freePort, waitFor } from '../support/wait'

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p))
if (!NGINX && process.env.REQUIRE_NGINX) throw new Error('REQUIRE_NGINX is set but nginx is not installed')

/** The nginx block of docs/deploy.md, between its nginx-config markers. */
function deployDocNginx(): string {
  const doc = readFileSync('docs/deploy.md', 'utf8')
  const block = /<!-- nginx-config[^>]*-->\s*```nginx\n([\s\S]*?)```\s*<!-- \/nginx-config -->/.exec(doc)
  if (!block?.[1]) throw new Error('docs/deploy.md has no nginx-config block')
  return block[1]
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

describe.skipIf(!NGINX)('behind nginx with TLS (docs/deploy.md)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-nginx-'))
  let shop: SpawnedShop
  let nginx: ReturnType<typeof spawn>
  let httpsPort: number
  let httpPort: number

  beforeAll(async () => {
    ;[httpsPort, httpPort] = [await freePort(), await freePort()]
    const cert = join(dir, 'cert.pem')
    const key = join(dir, 'key.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    )
    shop = await spawnShop({
      PUBLIC_URL: `https://localhost:${httpsPort}`,
      TRUST_PROXY: '127.0.0.1',
    })
    const site = deployDocNginx()
      .replaceAll('shop.example.com', 'localhost')
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`)
      .replace('proxy_pass http://127.0.0.1:3000;', `proxy_pass http://127.0.0.1:${shop.port};`)
    expect(site).toContain(`proxy_pass http://127.0.0.1:${shop.port};`)
    mkdirSync(join(dir, 'logs'))
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`
    writeFileSync(
      join(dir, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')};
events { worker_connections 64; }
http {
  access_log off;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  ${site}
}
`,
    )
    nginx = spawn(NGINX as string, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'inherit',
    })
    await waitFor(
      'nginx to answer',
      async () => (await get('/api/health').catch(() => undefined))?.status === 200,
    )
  }, 120_000)

  afterAll(async () => {
    nginx?.kill('SIGTERM')
    await shop?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  /** HTTPS to nginx from a chosen loopback address (each address is a different client). */
  function send(
    method: string,
    path: string,
    opts: { from?: string; headers?: Record<string, string>; body?: string; port?: number } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: opts.port ?? httpsPort,
          method,
          path,
          localAddress: opts.from ?? '127.0.0.1',
          servername: 'localhost',
          rejectUnauthorized: false,
          headers: { host: `localhost:${httpsPort}`, ...opts.headers },
        },
        (res) => {
          let body = ''
          res.on('data', (d) => {
            body += d
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        },
      )
      req.on('error', reject)
      req.end(opts.body)
    })
  }
  const get = (path: string) => send('GET', path)
  const rpc = (
    name: string,
    payload: object,
    opts: { from?: string; headers?: Record<string, string> } = {},
  ) =>
    send('POST', `/rpc/${name}`, {
      ...opts,
      body: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...opts.headers },
    })

  it('serves the shop over TLS and sends plain HTTP to HTTPS', async () => {
    const health = await get('/api/health')
    expect(health.status).toBe(200)
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' })
    // PUBLIC_URL is https: browsers are told to stay on HTTPS.
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000')
    const plain = await new Promise<number>((resolve, reject) => {
      fetch(`http://127.0.0.1:${httpPort}/cart`, { redirect: 'manual' })
        .then((r) => {
          expect(r.headers.get('location')).toMatch(/^https:\/\/[^/]+\/cart$/)
          resolve(r.status)
        })
        .catch(reject)
    })
    expect(plain).toBe(301)
  })

  it('rate limits the real client: forged X-Forwarded-For does not escape, another client is not caught', async () => {
    const token = 'x'.repeat(10)
    for (let i = 0; i < 20; i++) {
      const res = await rpc(
        'secure_fetch_dashboard',
        { p_access_token: token },
        {
          from: '127.0.0.5',
          headers: { 'x-forwarded-for': `10.9.8.${i}` },
        },
      )
      expect(res.status).toBe(200)
    }
    const limited = await rpc(
      'secure_fetch_dashboard',
      { p_access_token: token },
      {
        from: '127.0.0.5',
        headers: { 'x-forwarded-for': '10.9.8.200' },
      },
    )
    expect(limited.status).toBe(429)
    const other = await rpc('secure_fetch_dashboard', { p_access_token: token }, { from: '127.0.0.6' })
    expect(other.status).toBe(200)
    expect(JSON.parse(other.body).success).toBe(false)
  })

  it('admin login through the proxy: Secure cookie, same origin accepted, a foreign origin refused', async () => {
    const origin = `https://localhost:${httpsPort}`
    const creds = { p_username: 'admin', p_password: 'correct horse battery' }
    const foreign = await rpc('secure_admin_login', creds, { headers: { origin: 'https://evil.example' } })
    expect(foreign.status).toBe(403)
    const login = await rpc('secure_admin_login', creds, { headers: { origin } })
    expect(JSON.parse(login.body)).toMatchObject({ success: true })
    const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? [])
    expect(cookies.length).toBeGreaterThan(0)
    for (const c of cookies) {
      expect(c).toMatch(/;\s*Secure/i)
      expect(c).toMatch(/;\s*HttpOnly/i)
      expect(c).toMatch(/;\s*SameSite=Strict/i)
    }
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ')
    const session = await rpc('secure_admin_session', {}, { headers: { origin, cookie } })
    expect(JSON.parse(session.body).success).toBe(true)
    const crossSite = await rpc(
      'secure_admin_session',
      {},
      { headers: { origin: 'https://evil.example', cookie } },
    )
    expect(crossSite.status).toBe(403)
  })
})
