import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ensureFirstAdmin } from './admin/admin-auth'
import { buildApp } from './app'

type App = Awaited<ReturnType<typeof buildApp>>

import { chainNames } from '../shared/networks'
import { createAccountReads } from './chains/account-reads'
import { createAddressSweep } from './chains/address-sweep'
import { createChainFollower } from './chains/chain-follower'
import { familyOf } from './chains/families'
import { type Database, openDatabase } from './db/client'
import { countDemoWallets, seedOnce } from './db/seed'
import { createStatisticsKeeper } from './db/statistics'
import { createFileTransport, createMailWorker, createSmtpTransport } from './delivery/mail-worker'
import { createOrderLinksWorker } from './delivery/order-links-worker'
import { type Env, EnvError, parseEnv } from './env'
import { ensureSigningKey } from './keys/licence-signing'
import { loadDotEnv } from './lib/dotenv'
import { packageRoot } from './lib/paths'
import { raiseAlert } from './notifications/alerts'
import { createNotifier } from './notifications/notifier'
import { registerDoctorEndpoint } from './ops/setup.routes'
import { createRefundWatcher } from './refunds/refund-watcher'
import { loadRenderer } from './render/render-page'
import { createWebhookWorker } from './webhooks/delivery-worker'

/** Both nets in one pass of the follower: a failure of the first still lets the second run. */
function joinNets(...nets: { run(): Promise<number> }[]): { run(): Promise<number> } {
  return {
    async run() {
      let recorded = 0
      let failure: unknown = null
      for (const net of nets) {
        try {
          recorded += await net.run()
        } catch (err) {
          failure ??= err
        }
      }
      if (failure) throw failure
      return recorded
    },
  }
}

/** One follower per enabled chain, each on its own loop and lease (decision 037). */
function createFollowers(app: App, env: Env, database: Database, instanceId: string) {
  return app.services.chains.enabled().map((chain) =>
    createChainFollower({
      db: database.db,
      chain,
      rules: app.services.rules,
      batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
      intervalMs: env.FOLLOWER_INTERVAL_MS,
      idleEveryMs: env.FOLLOWER_IDLE_EVERY_MS,
      blockIntervalMs: chain.followEveryMs ?? chain.blockIntervalMs,
      startBlock: familyOf(chain.chain).startBlock(env, chain.chain),
      onPaid: (id) => app.services.orderPaid.emit(id),
      onCommitted: () => app.services.orderWatch.notify('*'),
      instanceId,
      logger: app.log.child({ module: 'chain-follower', chain: chain.chain }),
      // Under the follower's cheaper read: each ended order's address against the account index
      // (decision 045), and every pool address read on its pace (decision 054).
      safetyNet: joinNets(
        createAddressSweep({
          db: database.db,
          chain,
          rules: app.services.rules,
          logger: app.log.child({ module: 'address-sweep', chain: chain.chain }),
        }),
        createAccountReads({
          db: database.db,
          chain,
          rules: app.services.rules,
          pace: {
            openEveryMs: env.ACCOUNT_READ_OPEN_EVERY_MS,
            openPerDay: env.ACCOUNT_READ_OPEN_PER_DAY,
            idleEveryMs: env.ACCOUNT_READ_IDLE_EVERY_MS,
          },
          onPaid: (id) => app.services.orderPaid.emit(id),
          onCommitted: () => app.services.orderWatch.notify('*'),
          logger: app.log.child({ module: 'account-reads', chain: chain.chain }),
        }),
      ),
      safetyNetEveryMs: env.ACCOUNT_READ_TICK_MS,
      // Final blocks that do not follow ours: the chain's follower stops; the operator is told.
      onHalt: (id, reason) =>
        void raiseAlert(
          database.db,
          'scanner_stalled',
          `halt|${id}`,
          `The ${id} follower stopped: ${reason}. Nothing is recorded from that chain until you act (the admin's Chain tab says what to do: check the payments recorded near that block on the chain's explorer, then with the shop stopped run npm run follower:reset -- ${id} <block> with a block from before the reorganisation).`,
        ).catch((err) => app.log.error({ err }, 'could not raise the alert')),
    }),
  )
}

/** What the operator reads once the shop listens: mail, providers, address, notices, demo wallets. */
async function logStarted(app: App, env: Env, database: Database, outbox: string): Promise<void> {
  if (!env.SMTP_URL) app.log.info(`No SMTP_URL: order e-mails are written as .eml files to ${outbox}`)
  // Each enabled chain: its providers and the contracts (or mints) of the tokens it takes.
  for (const chain of app.services.chains.enabled()) {
    const providers = chain.providers
      .health()
      .map((p) => `${p.name} (${p.keys} key(s))`)
      .join(', ')
    const tokens = chain.tokens.flatMap((t) => (t.contract ? [`${t.symbol} ${t.contract}`] : [])).join(', ')
    app.log.info(`Following ${chainNames[chain.chain]} through ${providers}; ${tokens}`)
  }
  const where = database.kind === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL'
  app.log.info(`Stablecart is running on http://localhost:${env.PORT} (database: ${where})`)
  for (const notice of env.NOTICES) app.log.warn(notice)
  const demoWallets = await countDemoWallets(database.db)
  if (demoWallets > 0) {
    app.log.warn(
      `${demoWallets} demo wallet address(es) are in the pool: nobody holds their keys. Replace them with your own (admin Wallets tab or npm run wallets:add) before taking real payments.`,
    )
  }
}

async function main(): Promise<void> {
  // .env in the working directory fills in what the real environment leaves unset.
  loadDotEnv()
  const env = parseEnv()
  const opening = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  // A failure is reported where it is awaited below, not as an unhandled rejection meanwhile.
  opening.catch(() => {})
  // The server-rendering bundle loads on this thread while the embedded database starts on its
  // own; buildApp then finds the module loaded (a restart listens within 2 s, decision 026).
  await loadRenderer(join(packageRoot(), 'dist', 'web')).catch(() => undefined)
  const database = await opening
  await seedOnce(database.db)
  // The licence tokens' signing key is made on the first start and kept with the shop's data.
  await ensureSigningKey(database.db)
  const admin = await ensureFirstAdmin(database.db, env)
  if (admin.generatedPassword) {
    // Printed once, on the first start only: the hash is all the database keeps.
    console.log(
      `\n  First admin created. Username: ${admin.username}  Password: ${admin.generatedPassword}\n  Log in at /admin/login and change it on the Security tab. It will not be shown again.\n`,
    )
  }
  // Says which host and process leads the follower, for the operator and for failover tests; the
  // sighting watcher runs only in that process.
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const app = await buildApp({ env, database, logger: true, instanceId })
  // npm run doctor asks the running shop (the embedded database opens in one process only).
  registerDoctorEndpoint(app, { db: database.db, env, chains: app.services.chains })
  const outbox = join(env.DATA_DIR, 'outbox')
  const mail = createMailWorker({
    db: database.db,
    transport: env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : createFileTransport(outbox),
    from: env.MAIL_FROM,
    logger: app.log.child({ module: 'mail' }),
  })
  app.services.orderPaid.on(() => mail.wake())
  app.services.mailQueued.on(() => mail.wake())
  // "E-mail me my orders": the asks are answered by mail after the buyer has had the answer.
  const orderLinks = createOrderLinksWorker({
    db: database.db,
    publicUrl: app.services.rules.fulfil.publicUrl,
    onQueued: () => mail.wake(),
    logger: app.log.child({ module: 'order-links' }),
  })
  app.services.orderLinksAsked.on(() => orderLinks.wake())
  const webhooks = createWebhookWorker({
    db: database.db,
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    epusdtToken: env.EPUSDT_TOKEN,
    pollMs: 2000,
    logger: app.log.child({ module: 'webhooks' }),
  })
  app.services.orderPaid.on(() => webhooks.wake())
  app.services.webhookQueued.on(() => webhooks.wake())
  // Operator alerts: Telegram sends and the minute-by-minute health checks (pool, mail, chain follower).
  const notifier = createNotifier({
    db: database.db,
    telegramBaseUrl: env.TELEGRAM_API_URL,
    health: app.services.health,
    followerStallS: env.FOLLOWER_LAG_ALERT_MINUTES * 60,
    logger: app.log.child({ module: 'notifier' }),
  })
  app.services.orderPaid.on(() => notifier.wake())
  const followers = createFollowers(app, env, database, instanceId)
  // A buyer wants to pay (an order placed, a checkout refused while detection lags, a hash naming a
  // final transfer the follower has not reached): an idle follower looks at once rather than at its
  // idle pace.
  app.services.checkoutAsked.on(() => {
    for (const follower of followers) follower.wake()
  })

  // Ready refunds: the chain is asked for a final transfer paying each (decision 039).
  const refundWatch = createRefundWatcher({
    db: database.db,
    chains: app.services.chains,
    pollMs: env.REFUND_WATCH_MS,
    onSent: () => mail.wake(),
    logger: app.log.child({ module: 'refunds' }),
  })

  // PostgreSQL's autovacuum keeps its planner statistics; the embedded PGlite has none.
  const statistics =
    database.kind === 'pglite'
      ? createStatisticsKeeper({ db: database.db, logger: app.log.child({ module: 'statistics' }) })
      : undefined

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info(`${signal} received, shutting down`)
    await Promise.all(app.services.sightingWatchers.map((w) => w.stop()))
    await Promise.all(followers.map((f) => f.stop()))
    await orderLinks.stop()
    await refundWatch.stop()
    await mail.stop()
    await webhooks.stop()
    await notifier.stop()
    await statistics?.stop()
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))

  await app.listen({ port: env.PORT, host: env.HOST })
  for (const follower of followers) follower.start()
  for (const watcher of app.services.sightingWatchers) watcher.start()
  refundWatch.start()
  mail.start()
  orderLinks.start()
  webhooks.start()
  notifier.start()
  statistics?.start()
  await logStarted(app, env, database, outbox)
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    console.error(error.message)
  } else {
    console.error('Stablecart failed to start:', error instanceof Error ? error.message : error)
  }
  process.exit(1)
})
