import { firstFamily } from '../../shared/chains'
import { familyNames } from '../../shared/networks'
import { family } from '../chains/families'
import type { Db } from '../db/client'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import type { ShopHealth } from '../payments/payments-health'
import { raiseAlert } from './alerts'
import { drainTelegram } from './telegram'

// The notifier: sends queued Telegram alerts, and once a minute looks at the shop's health
// (address pool, mail, chain follower) and raises alerts when something needs the operator.

/** A provider's day is nearly used up at this share. */
export const PROVIDER_QUOTA_SHARE = 0.8
/** Every provider failing for this long alerts the operator. */
export const PROVIDERS_DOWN_MS = 60_000

export const POOL_LOW_SHARE = 0.2

/** One look at the shop's health; answers the alerts raised (tests). */
export async function checkHealth(
  db: Db,
  health: ShopHealth,
  opts: { followerStallS?: number } = {},
): Promise<string[]> {
  const raised: string[] = []
  // In a transaction of its own, so the advisory lock in raiseAlert holds until the row is written.
  const raise = (kind: Parameters<typeof raiseAlert>[1], subject: string, text: string) =>
    db.transaction((tx) => raiseAlert(tx, kind, subject, text))
  // Each family's part of the pool on its own: an order leases an address of its chain's family,
  // so plenty of TRON addresses do not help an EVM checkout. A TRON-only shop's alert reads as before.
  const pools = await health.addressPools()
  for (const pool of pools) {
    if (pool.total === 0) continue
    const share = pool.free / pool.total
    const dryWithinDay = pool.hoursToDry !== null && pool.hoursToDry < 24
    if (share < POOL_LOW_SHARE || dryWithinDay) {
      const why =
        share < POOL_LOW_SHARE
          ? `${pool.free} of ${pool.total} addresses free (${Math.round(share * 100)} %)`
          : `${pool.free} of ${pool.total} free, forecast to run out in about ${Math.max(1, Math.round(pool.hoursToDry ?? 0))} h`
      const named = pools.length > 1
      const what = named ? `${familyNames[pool.family]} address pool` : 'Address pool'
      const add = named ? `Add ${familyNames[pool.family]} addresses` : 'Add addresses'
      // 'pool': the subject the first family's (TRON's) alert was always stored under (one an hour per subject).
      const subject = pool.family === firstFamily ? 'pool' : `pool|${pool.family}`
      if (await raise('pool_low', subject, `${what} running low: ${why}. ${add} on the Wallets tab.`))
        raised.push('pool_low')
    }
  }

  const mail = await health.mailFailing()
  if (mail.count > 0) {
    const text = `${mail.count} e-mail(s) could not be sent. Last error: ${mail.lastError ?? 'unknown'}. Check SMTP_URL; resend from the order's detail.`
    if (await raise('mail_failing', 'mail', text)) raised.push('mail_failing')
  }

  const lag = await health.followerLagSeconds()
  const stallS = opts.followerStallS ?? 5 * 60
  if (lag !== null && lag > stallS) {
    const text = `The payment scanner has not advanced for ${Math.round(lag / 60)} min: payments are not being detected.`
    // scanner_stalled / 'scanner': the alert kind and subject operators' settings and past alerts are stored under (decision 032).
    if (await raise('scanner_stalled', 'scanner', text)) raised.push('scanner_stalled')
  }

  const providers = await health.providers()
  if (providers.failingSince !== null && Date.now() - providers.failingSince > PROVIDERS_DOWN_MS) {
    const last = providers.list.map((p) => `${p.name}: ${p.lastError?.message ?? 'no answer'}`).join('\n')
    const minutes = Math.max(1, Math.round((Date.now() - providers.failingSince) / 60_000))
    const text = `Every chain provider has failed for ${minutes} min: payments are not being detected.\n${last}`
    if (await raise('providers_down', 'providers', text)) raised.push('providers_down')
  }
  // The shop's health reads the first chain's providers: the advice names its family's settings.
  const settings = family(firstFamily).providerSettings
  for (const p of providers.list) {
    if (p.perDay !== null && p.requestsToday >= p.perDay * PROVIDER_QUOTA_SHARE) {
      const text = `Chain provider ${p.name} has used ${p.requestsToday} of its ${p.perDay} requests today. Add a key or another provider (${settings.providers}).`
      if (await raise('provider_quota', `quota|${p.name}`, text)) raised.push('provider_quota')
    }
    if (p.setAside) {
      const text = `Chain provider ${p.name} was set aside: ${p.setAside.reason}. Nothing it served was recorded; check that it follows TRON mainnet.`
      if (await raise('provider_set_aside', `set_aside|${p.name}`, text)) raised.push('provider_set_aside')
    }
  }
  return raised
}

export interface NotifierOptions {
  db: Db
  telegramBaseUrl: string
  health: ShopHealth
  logger?: WorkerLogger
  pollMs?: number
  checkEveryMs?: number
  /** The follower behind the chain by more than this alerts the operator. Default 300. */
  followerStallS?: number
}

export function createNotifier(opts: NotifierOptions) {
  const log = opts.logger ?? quietLogger
  const pollMs = opts.pollMs ?? 5000
  const checkEveryMs = opts.checkEveryMs ?? 60_000
  let lastCheck = 0

  async function step() {
    if (Date.now() - lastCheck >= checkEveryMs) {
      lastCheck = Date.now()
      await checkHealth(opts.db, opts.health, { followerStallS: opts.followerStallS })
    }
    await drainTelegram(opts.db, { baseUrl: opts.telegramBaseUrl, logger: log })
  }

  const loop = createPollLoop({ pollMs, pass: step, logger: log, name: 'notifier' })

  return {
    start: loop.start,
    stop: loop.stop,
    wake: loop.wake,
  }
}
