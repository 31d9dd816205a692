// The image and its operations, tested with podman (docs/containers.md): builds the image from the
// Dockerfile on the local stand-in base (scripts/container/make-base-image.sh; no registry needed),
// starts it with a data volume against a devchain on the host, buys something through it, checks it
// runs as non-root and answers its HEALTHCHECK, runs `doctor` in it (demo addresses reported, exit 1),
// stops it (SIGTERM, exit 0) and starts it again to find the order, backs the stopped shop's data up
// and restores it into a new volume, and, with CONTAINER_UPGRADE_FROM=<git ref>, upgrades a
// container of that older build with data in its volume to this image (migrations run; orders,
// keys and settings kept). Prints the image size, build time, cold start and idle memory.
// Needs root, podman, runc and debootstrap (CI installs them). Cleans up what it made, even on failure.
//   node scripts/container-test.mjs     (CONTAINER_TEST_PORT=4950: the shop; the devchain on +1000)
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { buyOnDevchain, paidStatus } from './lib/devchain-purchase.mjs'

const PORT = Number(process.env.CONTAINER_TEST_PORT ?? 4950)
const CHAIN_PORT = PORT + 1000
const UPGRADE_FROM = process.env.CONTAINER_UPGRADE_FROM?.trim() || ''
const id = `${process.pid}`
const image = `localhost/stablecart:test-${id}`
const oldImage = `localhost/stablecart:test-old-${id}`
const made = {
  containers: new Set(),
  volumes: new Set(),
  images: new Set(),
  dirs: new Set(),
  databases: new Set(),
}
// compose's PostgreSQL wiring runs against this server (the host's), when set.
const PG_URL = process.env.CONTAINER_PG_URL?.trim() || ''
const shopUrl = `http://127.0.0.1:${PORT}`
const chainUrl = `http://127.0.0.1:${CHAIN_PORT}`
const figures = {}
const startedAt = Date.now() - 1000
let devchain

function podman(args, { allowFail = false, input, nice = 0 } = {}) {
  const [command, argv] = nice > 0 ? ['nice', ['-n', String(nice), 'podman', ...args]] : ['podman', args]
  const r = spawnSync(command, argv, { encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0 && !allowFail) {
    throw new Error(`podman ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
  }
  return r
}

function sh(script) {
  const r = spawnSync('bash', [script], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`${script} failed`)
}

async function until(what, check, ms = 120_000) {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      const value = await check()
      if (value) return value
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * npm behind a TLS-inspecting proxy: its CA bundle is lent to the build (see the Dockerfile). The
 * npm on PATH may not be the machine's (CI puts Node 24's own npm first, whose config names no
 * cafile), so the bundle Node and OpenSSL are told of counts too.
 */
function caFile() {
  const r = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' })
  const fromNpm = r.status === 0 ? r.stdout.trim() : ''
  const named = [
    process.env.CONTAINER_NPM_CAFILE,
    fromNpm,
    process.env.NODE_EXTRA_CA_CERTS,
    process.env.SSL_CERT_FILE,
  ]
  for (const file of named) {
    if (file && file !== 'null' && file !== 'undefined' && existsSync(file)) return file
  }
  return ''
}

function caArgs() {
  const file = caFile()
  if (!file) return []
  const dir = file.slice(0, file.lastIndexOf('/'))
  return [
    '--volume',
    `${dir}:/etc/host-certs:ro`,
    '--build-arg',
    `npm_config_cafile=/etc/host-certs/${basename(file)}`,
  ]
}

// CONTAINER_BUILD_NICE=<n>: the image builds (npm ci, the shop's build) run at that lower priority.
// CI sets it: the test runs beside CPU-bound test stages, and a build has no clock to keep, so it
// takes the CPU they leave (decision 072); the containers themselves run at normal priority.
const BUILD_NICE = Number(process.env.CONTAINER_BUILD_NICE ?? 0)

function build(tag, context) {
  const t0 = Date.now()
  podman(['build', '--format', 'docker', '--network', 'host', ...caArgs(), '-t', tag, context], {
    nice: BUILD_NICE,
  })
  made.images.add(tag)
  return (Date.now() - t0) / 1000
}

/** A shop container on a data volume, reachable at shopUrl, following the devchain on the host. */
function run(name, volume, tag, extraEnv = {}) {
  const env = {
    TRON_API_URL: `http://host.containers.internal:${CHAIN_PORT}`,
    PRICE_SOURCE: 'fixed:0.25',
    FOLLOWER_INTERVAL_MS: '200',
    ADMIN_PASSWORD: 'container-test-password-1',
    LOG_LEVEL: 'info',
    ...extraEnv,
  }
  made.containers.add(name)
  podman([
    'run',
    '-d',
    '--name',
    name,
    '--stop-timeout',
    '30',
    '-v',
    `${volume}:/data`,
    '-p',
    `127.0.0.1:${PORT}:3000`,
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    tag,
  ])
}

async function healthy(name) {
  const t0 = Date.now()
  await until(`${name} to answer /api/health`, async () => {
    const state = podman(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim()
    if (state === 'exited')
      throw new Error(`${name} exited:\n${podman(['logs', name], { allowFail: true }).stderr}`)
    return (await fetch(`${shopUrl}/api/health`)).ok
  }).catch((error) => {
    throw new Error(
      `${error.message}\n--- logs ---\n${podman(['logs', name], { allowFail: true }).stdout}${podman(['logs', name], { allowFail: true }).stderr}`,
    )
  })
  return (Date.now() - t0) / 1000
}

function stop(name) {
  podman(['stop', '-t', '30', name])
  const code = podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim()
  if (code !== '0') throw new Error(`${name} stopped with exit code ${code} (SIGTERM should end it cleanly)`)
}

const buy = () => buyOnDevchain({ shopUrl, chainUrl, until, email: 'container@example.com' })
const isPaid = (order) => paidStatus(shopUrl, order)

function memoryMb(name) {
  const out = podman(['stats', '--no-stream', '--format', '{{.MemUsage}}', name]).stdout.trim()
  return out.split('/')[0]?.trim()
}

async function main() {
  sh('scripts/container/podman-config.sh')
  sh('scripts/container/make-base-image.sh')

  figures.build_s = build(image, '.')
  figures.image_size = podman(['image', 'inspect', '--format', '{{.Size}}', image]).stdout.trim()
  const user = podman(['image', 'inspect', '--format', '{{.Config.User}}', image]).stdout.trim()
  if (!user || user === 'root' || user === '0') throw new Error(`the image runs as ${user || 'root'}`)

  devchain = spawn(
    process.execPath,
    [join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'devchain', 'main.ts')],
    {
      env: {
        ...process.env,
        DEVCHAIN_PORT: String(CHAIN_PORT),
        DEVCHAIN_HOST: '0.0.0.0',
        DEVCHAIN_AUTO_MINE: 'false',
      },
      stdio: 'ignore',
    },
  )
  await until('the devchain', async () => (await fetch(`${chainUrl}/_sim/state`)).ok)

  // 1. First start on an empty volume, a purchase, the process's user and the HEALTHCHECK.
  const name = `stablecart-test-${id}`
  const volume = `stablecart-test-data-${id}`
  podman(['volume', 'create', volume])
  made.volumes.add(volume)
  run(name, volume, image)
  figures.cold_start_s = await healthy(name)
  const uid = /Uid:\s+(\d+)/.exec(podman(['exec', name, 'cat', '/proc/1/status']).stdout)?.[1]
  if (uid === undefined || uid === '0') throw new Error(`the shop's process 1 runs as uid ${uid}`)
  const args = podman(['exec', name, 'cat', '/proc/1/cmdline']).stdout.split('\0').join(' ')
  if (!args.includes('--max-semi-space-size=1'))
    throw new Error(`the launcher's V8 flags are missing: ${args}`)
  const health = podman(['healthcheck', 'run', name], { allowFail: true })
  if (health.status !== 0) throw new Error(`the HEALTHCHECK failed: ${health.stdout}${health.stderr}`)
  const order = await buy()
  console.log(`container: order ${order.order_id} paid through the container (uid ${uid}; ${args.trim()})`)

  // 2. doctor in the container: the demo addresses are reported and it exits 1.
  const doctor = podman(['exec', name, 'doctor', '--no-mail'], { allowFail: true })
  if (doctor.status !== 1 || !/demo address/.test(doctor.stdout)) {
    throw new Error(
      `doctor exited ${doctor.status}, expected 1 with the demo addresses:\n${doctor.stdout}${doctor.stderr}`,
    )
  }
  console.log(
    `container: doctor exits 1 and says: ${doctor.stdout
      .split('\n')
      .find((l) => /demo address/.test(l))
      ?.trim()}`,
  )

  await new Promise((r) => setTimeout(r, 5000))
  figures.idle_memory = memoryMb(name)

  // 3. SIGTERM stops it cleanly (exit 0); started again, it finds the order.
  stop(name)
  if (!/SIGTERM received/.test(podman(['logs', name]).stdout + podman(['logs', name]).stderr))
    throw new Error('the shop did not log its SIGTERM shutdown')
  const t1 = Date.now()
  podman(['start', name])
  await healthy(name)
  figures.restart_s = (Date.now() - t1) / 1000
  if (!(await isPaid(order))) throw new Error('after a restart the order is not found paid')
  console.log('container: stopped with SIGTERM (exit 0), started again, the order is there and paid')

  // 4. Backup of the stopped shop's embedded database, restored into a new volume, started there.
  stop(name)
  const backup = podman(['run', '--rm', '-v', `${volume}:/data`, image, 'backup'])
  const file = /written to (\S+)/.exec(backup.stdout)?.[1]
  if (!file) throw new Error(`backup printed no file: ${backup.stdout}${backup.stderr}`)
  const restored = `${volume}-restored`
  podman(['volume', 'create', restored])
  made.volumes.add(restored)
  podman([
    'run',
    '--rm',
    '-v',
    `${restored}:/data`,
    '-v',
    `${volume}:/source:ro`,
    image,
    'restore',
    file.replace(/^\/data\//, '/source/'),
  ])
  podman(['rm', name])
  made.containers.delete(name)
  const second = `${name}-restored`
  run(second, restored, image)
  await healthy(second)
  if (!(await isPaid(order))) throw new Error('the restored shop does not have the order')
  console.log(`container: backup ${file} restored into a new volume; the order is there`)
  stop(second)

  // 5. compose.yaml's PostgreSQL wiring, with the host's PostgreSQL standing in for the postgres
  // service (no registry to pull its image from): the shop on DATABASE_URL, a purchase, doctor, and
  // the documented backup and restore (pg_dump / pg_restore, which compose runs in the postgres
  // container) into a second database the shop then starts on.
  if (PG_URL) await postgresWiring()

  // 6. Upgrade: a container of an older build, with data in its volume, replaced by this image.
  if (UPGRADE_FROM) await upgrade()
}

function psql(sql) {
  const r = spawnSync('psql', [PG_URL, '-qAt', '-c', sql], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`)
  return r.stdout.trim()
}

async function postgresWiring() {
  const db = `stablecart_ctr_${id}`
  const copy = `${db}_restored`
  made.databases.add(db)
  made.databases.add(copy)
  psql(`create database ${db}`)
  psql(`create database ${copy}`)
  const url = (name) => {
    const u = new URL(PG_URL)
    u.pathname = `/${name}`
    return u.href
  }
  // The host's PostgreSQL listens on loopback: the shop shares the host's network here, where
  // compose puts both on one network and names the service postgres.
  const name = `stablecart-pg-${id}`
  const volume = `stablecart-pg-data-${id}`
  podman(['volume', 'create', volume])
  made.volumes.add(volume)
  const runOnHost = (container, database) => {
    made.containers.add(container)
    podman([
      'run',
      '-d',
      '--name',
      container,
      '--stop-timeout',
      '30',
      '--network',
      'host',
      '-v',
      `${volume}:/data`,
      '--env-file',
      '.env.example',
      '-e',
      'HOST=127.0.0.1',
      '-e',
      `PORT=${PORT}`,
      '-e',
      'DATA_DIR=/data',
      '-e',
      'BACKUP_DIR=/data/backups',
      '-e',
      `DATABASE_URL=${url(database)}`,
      '-e',
      `TRON_API_URL=${chainUrl}`,
      '-e',
      'PRICE_SOURCE=fixed:0.25',
      '-e',
      'FOLLOWER_INTERVAL_MS=200',
      '-e',
      'ADMIN_PASSWORD=container-test-password-1',
      image,
    ])
  }
  runOnHost(name, db)
  await healthy(name)
  const order = await buy()
  const doctor = podman(['exec', name, 'doctor', '--no-mail'], { allowFail: true })
  if (doctor.status !== 1 || !/demo address/.test(doctor.stdout))
    throw new Error(`doctor on PostgreSQL exited ${doctor.status}:\n${doctor.stdout}${doctor.stderr}`)
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-pg-backup-'))
  made.dirs.add(dir)
  const dump = join(dir, 'stablecart.dump')
  // While the shop runs: one consistent snapshot.
  const dumped = spawnSync('pg_dump', ['--format=custom', '--file', dump, url(db)], { encoding: 'utf8' })
  if (dumped.status !== 0) throw new Error(`pg_dump failed: ${dumped.stderr}`)
  stop(name)
  const restored = spawnSync(
    'pg_restore',
    ['--no-owner', '--single-transaction', '--dbname', url(copy), dump],
    { encoding: 'utf8' },
  )
  if (restored.status !== 0) throw new Error(`pg_restore failed: ${restored.stderr}`)
  podman(['rm', name])
  made.containers.delete(name)
  runOnHost(name, copy)
  await healthy(name)
  if (!(await isPaid(order)))
    throw new Error('the shop on the restored PostgreSQL database does not have the order')
  console.log(
    "container: on PostgreSQL (the host standing in for compose's service) a purchase, doctor, pg_dump while running and pg_restore into a new database keep the order",
  )
  stop(name)
}

async function upgrade() {
  const ref = spawnSync('git', ['rev-parse', '--short', UPGRADE_FROM], { encoding: 'utf8' }).stdout.trim()
  if (!ref) throw new Error(`CONTAINER_UPGRADE_FROM=${UPGRADE_FROM} is not a commit`)
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-old-'))
  made.dirs.add(dir)
  // That commit's source, built with this Dockerfile (an older tree may have none).
  const archive = spawnSync('bash', ['-c', `git archive ${ref} | tar -x -C ${dir}`], { stdio: 'inherit' })
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`)
  spawnSync('cp', ['-r', 'Dockerfile', '.dockerignore', dir])
  spawnSync('mkdir', ['-p', join(dir, 'scripts', 'container')])
  spawnSync('cp', ['-r', 'scripts/container/commands', join(dir, 'scripts', 'container')])
  figures.old_build_s = build(oldImage, dir)
  const name = `stablecart-upgrade-${id}`
  const volume = `stablecart-upgrade-data-${id}`
  podman(['volume', 'create', volume])
  made.volumes.add(volume)
  run(name, volume, oldImage)
  await healthy(name)
  const order = await buy()
  // A setting the operator chose, in the old build.
  const login = await fetch(`${shopUrl}/rpc/secure_admin_login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Chrome/140.0' },
    body: JSON.stringify({ p_username: 'admin', p_password: 'container-test-password-1' }),
  })
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]
  const admin = async (rpc, body = {}) => {
    const res = await fetch(`${shopUrl}/rpc/${rpc}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Chrome/140.0', cookie },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${rpc} answered ${res.status}: ${await res.text()}`)
    return res.json()
  }
  const settings = (await admin('secure_fetch_settings')).settings
  await admin('secure_update_settings', {
    p_settings: {
      operator_email: 'owner@example.com',
      telegram_chat_id: settings.telegram_chat_id,
      alerts: settings.alerts,
      low_stock_threshold: 7,
    },
  })
  // What the buyer's order page shows (its keys among it), before and after.
  const before = await isPaid(order)
  stop(name)
  podman(['rm', name])
  made.containers.delete(name)
  // The new image on the same volume.
  run(name, volume, image)
  await healthy(name)
  const after = await isPaid(order)
  if (!after) throw new Error('after the upgrade the order is not found paid')
  if (JSON.stringify(after) !== JSON.stringify(before))
    throw new Error(`the order changed in the upgrade:\n${JSON.stringify(before)}\n${JSON.stringify(after)}`)
  const kept = (await admin('secure_fetch_settings')).settings
  if (kept.operator_email !== 'owner@example.com' || kept.low_stock_threshold !== 7)
    throw new Error(`settings lost in the upgrade: ${JSON.stringify(kept)}`)
  console.log(`container: upgraded a ${ref} container to this image; order, keys and settings kept`)
  stop(name)
}

let failed = false
try {
  await main()
  console.log(
    `container figures: image ${(Number(figures.image_size) / 1e6).toFixed(0)} MB, build ${figures.build_s.toFixed(0)} s, ` +
      `cold start to healthy ${figures.cold_start_s.toFixed(1)} s, restart ${figures.restart_s.toFixed(1)} s, ` +
      `idle memory (PGlite) ${figures.idle_memory}` +
      (figures.old_build_s ? `, older build ${figures.old_build_s.toFixed(0)} s` : ''),
  )
} catch (error) {
  failed = true
  console.error(`container test failed: ${error.message}`)
} finally {
  for (const c of made.containers) podman(['rm', '-f', c], { allowFail: true })
  for (const v of made.volumes) podman(['volume', 'rm', '-f', v], { allowFail: true })
  for (const i of made.images) podman(['rmi', '-f', i], { allowFail: true })
  // The build stages' images this run left untagged (the base image and older layers are kept).
  const dangling = podman(['images', '--filter', 'dangling=true', '--format', 'json'], { allowFail: true })
  for (const { Id, Created } of JSON.parse(dangling.stdout || '[]')) {
    if (Created * 1000 >= startedAt) podman(['rmi', '-f', Id], { allowFail: true })
  }
  for (const d of made.dirs) rmSync(d, { recursive: true, force: true })
  for (const db of made.databases)
    spawnSync('psql', [PG_URL, '-qAt', '-c', `drop database if exists ${db} with (force)`])
  if (devchain && devchain.exitCode === null) devchain.kill('SIGTERM')
}
process.exit(failed ? 1 : 0)
