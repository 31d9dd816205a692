import { join } from 'node:path'
import { ensureFirstAdmin } from './admin/admin-auth'
import { buildApp } from './app'
import { openDatabase } from './db/client'
import { countDemoWallets, seedOnce } from './db/seed'
import { createFileTransport, createMailWorker, createSmtpTransport } from './delivery/mail-worker'
import { EnvError, parseEnv } from './env'
import { loadDotEnv } from './lib/dotenv'
import { createPaymentWatcher } from './payments/payment-watcher'

async function main(): Promise<void> {
  // .env in the working directory fills in what the real environment leaves unset.
  loadDotEnv()
  const env = parseEnv()
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  await seedOnce(database.db)
  const admin = await ensureFirstAdmin(database.db, env)
  if (admin.generatedPassword) {
    // Printed once, on the first start only: the hash is all the database keeps.
    console.log(
      `\n  First admin created. Username: ${admin.username}  Password: ${admin.generatedPassword}\n  Log in at /admin/login and change it on the Security tab. It will not be shown again.\n`,
    )
  }
  const app = await buildApp({ env, database, logger: true })
  const outbox = join(env.DATA_DIR, 'outbox')
  const mail = createMailWorker({
    db: database.db,
    transport: env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : createFileTransport(outbox),
    from: env.MAIL_FROM,
    logger: app.log.child({ module: 'mail' }),
  })
  app.services.orderPaid.on(() => mail.wake())
  const watcher = createPaymentWatcher({
    db: database.db,
    client: app.services.tron,
    toleranceMicros: app.services.toleranceMicros,
    fulfil: app.services.fulfil,
    onPaid: app.services.orderPaid.emit,
    concurrency: Math.min(4, Math.max(1, Math.ceil(env.EXPLORER_MAX_RPS / 2))),
    logger: app.log.child({ module: 'payment-watcher' }),
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info(`${signal} received, shutting down`)
    await watcher.stop()
    await mail.stop()
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))

  await app.listen({ port: env.PORT, host: env.HOST })
  watcher.start()
  mail.start()
  if (!env.SMTP_URL) app.log.info(`No SMTP_URL: order e-mails are written as .eml files to ${outbox}`)
  app.log.info(`Payment watcher started: ${env.TRON_API_URL}, USDT contract ${env.USDT_CONTRACT}`)
  const where = database.kind === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL'
  app.log.info(`Stablecart is running on http://localhost:${env.PORT} (database: ${where})`)
  const demoWallets = await countDemoWallets(database.db)
  if (demoWallets > 0) {
    app.log.warn(
      `${demoWallets} demo wallet address(es) are in the pool: nobody holds their keys. Replace them with your own (admin Wallets tab or npm run wallets:add) before taking real payments.`,
    )
  }
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    console.error(error.message)
  } else {
    console.error('Stablecart failed to start:', error instanceof Error ? error.message : error)
  }
  process.exit(1)
})
