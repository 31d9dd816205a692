import { and, inArray, isNull } from 'drizzle-orm'
import type { Db } from './client'
import { appMeta, products, walletAddresses } from './schema'

type NewProduct = typeof products.$inferInsert

export const demoProducts: NewProduct[] = [
  {
    name: '4G Mobile Proxy Manager Pro',
    description:
      'Run a fleet of 4G modems and Android phones as rotating mobile proxies from one dashboard, with per-port authentication and automatic reconnects.',
    priceCents: 4999,
    image: '/images/products/mobile-proxy-manager.svg',
    features: [
      'Manage up to 50 modems or phones',
      'HTTP and SOCKS5 on every port',
      'Automatic IP rotation by timer or link',
      'Per-port username and password',
      'Live health and uptime view',
    ],
    videoId: 'aqz-KE-bpKQ',
    featured: true,
    sortOrder: 1,
  },
  {
    name: '5G Proxy Farm Controller',
    description:
      'Orchestrate racks of 5G devices across several sites: schedule rotations, balance traffic and keep every carrier connection healthy.',
    priceCents: 14900,
    image: '/images/products/5g-proxy-farm.svg',
    features: [
      'Unlimited devices across sites',
      '5G/LTE band locking',
      'Traffic balancing between carriers',
      'REST API and webhooks',
      'Role-based team access',
      'Priority support',
    ],
    featured: true,
    sortOrder: 2,
  },
  {
    name: 'LTE Rotator Toolkit',
    description:
      'Fresh mobile IPs on demand: airplane-mode, modem reset and APN switching strategies for LTE proxies, tuned per carrier.',
    priceCents: 2900,
    image: '/images/products/lte-rotator.svg',
    features: ['Rotation in under 5 seconds', 'Carrier-specific profiles', 'Rotation history log'],
    sortOrder: 3,
  },
  {
    name: 'Proxy Checker Lite',
    description:
      'A free desktop checker for mobile proxies: latency, carrier, country, IP type and rotation behaviour at a glance.',
    priceCents: 0,
    image: '/images/products/proxy-checker.svg',
    features: ['Checks HTTP and SOCKS5', 'Detects carrier and ASN', 'Exports results to CSV'],
    isFree: true,
    downloadUrl: '/downloads/proxy-checker-lite.txt',
    sortOrder: 4,
  },
  {
    name: 'Country Geo-Targeting Pack',
    description:
      'Ready-made carrier and region profiles for 40+ countries so your mobile proxies exit exactly where your campaigns need them.',
    priceCents: 1999,
    image: '/images/products/geo-targeting.svg',
    features: [
      '40+ countries',
      'City-level carrier maps',
      'Monthly profile updates',
      'Works with any manager',
    ],
    sortOrder: 5,
  },
  {
    name: 'Mobile Fingerprint Suite',
    description:
      'Keep sessions consistent with real mobile fingerprints: TCP/IP, TLS and HTTP/2 signatures that match the device behind the proxy.',
    priceCents: 7900,
    image: '/images/products/fingerprint-suite.svg',
    features: [
      'OS-level TCP/IP signatures',
      'TLS and HTTP/2 profiles',
      'Per-device profile pinning',
      'Leak tests built in',
    ],
    sortOrder: 6,
  },
  {
    name: 'Proxy Traffic Analytics',
    description:
      'See where your mobile proxy bandwidth goes: per-port usage, success rates and carrier performance, with alerts before limits bite.',
    priceCents: 3900,
    image: '/images/products/traffic-analytics.svg',
    features: ['Per-port bandwidth charts', 'Success-rate alerts', 'Carrier comparison reports'],
    sortOrder: 7,
  },
  {
    name: 'Rotation API SDK',
    description:
      'Free open SDK for Node.js and Python to trigger IP rotations and read proxy status from your own scripts.',
    priceCents: 0,
    image: '/images/products/rotation-sdk.svg',
    features: ['Node.js and Python clients', 'Typed responses', 'Examples for common scrapers'],
    isFree: true,
    downloadUrl: '/downloads/rotation-sdk-readme.txt',
    sortOrder: 8,
  },
]

/**
 * Seeds the demo catalogue once per database. The marker row means a merchant who deletes the
 * demo products never sees them come back; the default site content lives in code.
 */
/**
 * Valid TRON addresses (base58check) that nobody holds the keys to: they let a new install take a
 * demo order against the devchain. A merchant replaces them before taking real money; the server
 * warns at start-up while any of them is still in the pool.
 */
export const demoWalletAddresses = [
  'TPHrmaTuyui3Mx77iQ26g57GQYprLrVpSZ',
  'TAekkeYu9jnUdVotZ31sXX4Q2nppnd7uKa',
  'TWNxMFeVg6dqGGY12WuNsWMGmTSqqM72JK',
  'TQxuBi2KoCvcuuL4BT5rMHe18CLLhvEy9X',
  'TAg34Kfn1gxjvWmHQ8h61Nos6Rhid51Lht',
]

/** Writes a marker row; true only for the one caller that wrote it (so a seed runs once per database). */
async function claimMarker(tx: Db, key: string): Promise<boolean> {
  const inserted = await tx
    .insert(appMeta)
    .values({ key, value: new Date().toISOString() })
    .onConflictDoNothing()
    .returning({ key: appMeta.key })
  return inserted.length > 0
}

/** Adds the demo addresses once per database, and only to an empty pool. */
export async function seedDemoWalletsOnce(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await claimMarker(tx, 'demo_wallets_seeded'))) return false
    const existing = await tx.select({ address: walletAddresses.address }).from(walletAddresses).limit(1)
    if (existing.length > 0) return false
    await tx.insert(walletAddresses).values(demoWalletAddresses.map((address) => ({ address })))
    return true
  })
}

/** How many demo addresses are still in the pool, removed ones not counted (a start-up warning while any is). */
export async function countDemoWallets(db: Db): Promise<number> {
  const rows = await db
    .select({ address: walletAddresses.address })
    .from(walletAddresses)
    .where(and(inArray(walletAddresses.address, demoWalletAddresses), isNull(walletAddresses.removedAt)))
  return rows.length
}

export async function seedOnce(db: Db): Promise<boolean> {
  await seedDemoWalletsOnce(db)
  return db.transaction(async (tx) => {
    if (!(await claimMarker(tx, 'demo_seeded'))) return false
    const existing = await tx.select({ id: products.id }).from(products).limit(1)
    if (existing.length === 0) {
      // Staggered dates so "Newest First" has something to show.
      const day = 86_400_000
      const now = Date.now()
      await tx
        .insert(products)
        .values(demoProducts.map((p, i) => ({ ...p, createdAt: new Date(now - (i + 1) * 3 * day) })))
    }
    return true
  })
}
