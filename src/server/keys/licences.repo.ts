import { randomUUID } from 'node:crypto'
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseInstances, licenseKeys } from '../db/schema'
import { recordLicenceEvents } from './licence-events'
import { type LicenceStatus, licenceStatus } from './licence-state'

// Activations of sold licence keys: what the licence API, the buyer's dashboard and the operator's
// Licences view read and change. Only keys handed out to an order exist here; a key in stock, or
// reserved by an unpaid order, is as unknown as a key never made.

export interface SoldKey {
  id: number
  key: string
  productId: number
  productName: string
  orderId: string
  email: string | null
  soldAt: Date
  activationLimit: number | null
  expiresAt: Date | null
  operatorDisabledAt: Date | null
  orderDisabledReason: string | null
}

export interface InstanceRow {
  id: string
  name: string
  createdAt: Date
}

export interface KeyState {
  key: SoldKey
  usage: number
  status: LicenceStatus
}

type SoldKeyRow = {
  id: number
  key: string
  product_id: number
  product_name: string | null
  order_id: string
  email: string | null
  sold_at: Date | string
  activation_limit: number | null
  expires_at: Date | string | null
  operator_disabled_at: Date | string | null
  order_disabled_reason: string | null
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value))

function soldKeyOf(row: SoldKeyRow): SoldKey {
  return {
    id: Number(row.id),
    key: row.key,
    productId: Number(row.product_id),
    productName: row.product_name ?? '',
    orderId: row.order_id,
    email: row.email,
    soldAt: asDate(row.sold_at),
    activationLimit: row.activation_limit === null ? null : Number(row.activation_limit),
    expiresAt: row.expires_at === null ? null : asDate(row.expires_at),
    operatorDisabledAt: row.operator_disabled_at === null ? null : asDate(row.operator_disabled_at),
    orderDisabledReason: row.order_disabled_reason,
  }
}

/** What a sold key's row and its order and product say (the `k`, `o` and `p` of the queries below). */
const soldKeyColumns =
  sql.raw(`k.id, k.key, k.product_id, coalesce(p.name, '') as product_name, k.order_id, o.email,
  coalesce(k.assigned_at, k.created_at) as sold_at, k.activation_limit, k.expires_at,
  k.operator_disabled_at, k.order_disabled_reason`)

/** Sold keys by key text or id; `lock` takes the key rows for update (activations change under it). */
async function selectSoldKeys(
  db: Db,
  where: ReturnType<typeof sql>,
  opts: { lock?: boolean; limit?: number } = {},
): Promise<SoldKey[]> {
  const result = (await db.execute(sql`
    select ${soldKeyColumns}
    from ${licenseKeys} k
    left join orders o on o.id = k.order_id
    left join products p on p.id = k.product_id
    where k.order_id is not null and (${where})
    order by k.id desc
    ${opts.limit ? sql`limit ${opts.limit}` : sql``}
    ${opts.lock ? sql`for update of k` : sql``}`)) as unknown as { rows: SoldKeyRow[] }
  return result.rows.map(soldKeyOf)
}

export async function findSoldKey(
  db: Db,
  key: string,
  opts: { lock?: boolean } = {},
): Promise<SoldKey | null> {
  const [row] = await selectSoldKeys(db, sql`k.key = ${key}`, opts)
  return row ?? null
}

async function usageOf(db: Db, keyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseInstances)
    .where(eq(licenseInstances.licenseKeyId, keyId))
  return Number(row?.n ?? 0)
}

async function stateOf(db: Db, key: SoldKey): Promise<KeyState> {
  const usage = await usageOf(db, key.id)
  return { key, usage, status: licenceStatus(key, usage) }
}

export async function findInstance(db: Db, keyId: number, instanceId: string): Promise<InstanceRow | null> {
  const [row] = await db
    .select({ id: licenseInstances.id, name: licenseInstances.name, createdAt: licenseInstances.createdAt })
    .from(licenseInstances)
    .where(and(eq(licenseInstances.id, instanceId), eq(licenseInstances.licenseKeyId, keyId)))
  return row ?? null
}

export type ActivateOutcome =
  | { kind: 'not_found' }
  | { kind: 'disabled' | 'expired' | 'limit_reached'; state: KeyState }
  | { kind: 'activated'; state: KeyState; instance: InstanceRow }

/**
 * Activates a key on one more machine. The key's row is locked while its activations are counted
 * and the new one is added, so concurrent activations at the limit give exactly the free seats.
 */
export async function activateKey(db: Db, key: string, instanceName: string): Promise<ActivateOutcome> {
  return db.transaction(async (tx) => {
    const found = await findSoldKey(tx, key, { lock: true })
    if (!found) return { kind: 'not_found' }
    const state = await stateOf(tx, found)
    if (state.status === 'disabled' || state.status === 'expired') return { kind: state.status, state }
    if (found.activationLimit !== null && state.usage >= found.activationLimit) {
      return { kind: 'limit_reached', state }
    }
    const [instance] = await tx
      .insert(licenseInstances)
      .values({ id: randomUUID(), licenseKeyId: found.id, name: instanceName })
      .returning({
        id: licenseInstances.id,
        name: licenseInstances.name,
        createdAt: licenseInstances.createdAt,
      })
    if (!instance) throw new Error('activation not inserted')
    await recordLicenceEvents(tx, 'license_key.activated', [found.id], {
      instance: { id: instance.id, name: instance.name, created_at: instance.createdAt.toISOString() },
    })
    const usage = state.usage + 1
    return { kind: 'activated', state: { key: found, usage, status: licenceStatus(found, usage) }, instance }
  })
}

export type ValidateOutcome =
  | { kind: 'not_found' }
  | { kind: 'instance_not_found'; state: KeyState }
  | { kind: 'checked'; state: KeyState; instance: InstanceRow | null }

/**
 * Reads a key's state (and one of its instances when asked): nothing changes. One query: the key,
 * its activations counted and the instance looked up in the same statement (the hot path of apps
 * checking their licence; nothing is locked, so one snapshot is all it needs).
 */
export async function validateKey(
  db: Db,
  key: string,
  instanceId: string | undefined,
): Promise<ValidateOutcome> {
  const result = (await db.execute(sql`
    select ${soldKeyColumns},
      (select count(*)::int from ${licenseInstances} i where i.license_key_id = k.id) as usage,
      ${
        instanceId === undefined
          ? sql`null`
          : sql`(select json_build_object('id', i.id, 'name', i.name, 'created_at', i.created_at)
              from ${licenseInstances} i where i.id = ${instanceId}::uuid and i.license_key_id = k.id)`
      } as instance
    from ${licenseKeys} k
    left join orders o on o.id = k.order_id
    left join products p on p.id = k.product_id
    where k.key = ${key} and k.order_id is not null`)) as unknown as {
    rows: (SoldKeyRow & {
      usage: number
      instance: { id: string; name: string; created_at: string } | string | null
    })[]
  }
  const row = result.rows[0]
  if (!row) return { kind: 'not_found' }
  const found = soldKeyOf(row)
  const usage = Number(row.usage)
  const state = { key: found, usage, status: licenceStatus(found, usage) }
  if (instanceId === undefined) return { kind: 'checked', state, instance: null }
  const raw = typeof row.instance === 'string' ? JSON.parse(row.instance) : row.instance
  if (!raw) return { kind: 'instance_not_found', state }
  return {
    kind: 'checked',
    state,
    instance: { id: raw.id, name: raw.name, createdAt: new Date(raw.created_at) },
  }
}

export type DeactivateOutcome =
  | { kind: 'not_found' }
  | { kind: 'instance_not_found' | 'disabled'; state: KeyState }
  | { kind: 'deactivated'; state: KeyState }

/**
 * Frees one seat. `allowDisabled`: the buyer's dashboard and the operator may free a seat of a
 * disabled key; the licence API may not (a disabled key is refused everywhere there).
 */
export async function deactivateInstance(
  db: Db,
  match: { key: string } | { keyId: number },
  instanceId: string,
  opts: { allowDisabled?: boolean; by?: 'api' | 'buyer' | 'operator' } = {},
): Promise<DeactivateOutcome> {
  return db.transaction(async (tx) => {
    const [found] =
      'key' in match
        ? await selectSoldKeys(tx, sql`k.key = ${match.key}`, { lock: true })
        : await selectSoldKeys(tx, sql`k.id = ${match.keyId}`, { lock: true })
    if (!found) return { kind: 'not_found' }
    const state = await stateOf(tx, found)
    if (state.status === 'disabled' && !opts.allowDisabled) return { kind: 'disabled', state }
    const removed = await tx
      .delete(licenseInstances)
      .where(and(eq(licenseInstances.id, instanceId), eq(licenseInstances.licenseKeyId, found.id)))
      .returning({ id: licenseInstances.id, name: licenseInstances.name })
    const instance = removed[0]
    if (!instance) return { kind: 'instance_not_found', state }
    await recordLicenceEvents(tx, 'license_key.deactivated', [found.id], {
      instance: { id: instance.id, name: instance.name },
      by: opts.by ?? 'api',
    })
    const usage = state.usage - 1
    return { kind: 'deactivated', state: { key: found, usage, status: licenceStatus(found, usage) } }
  })
}

/** The activations of several keys, oldest first, by key id. */
export async function instancesOfKeys(
  db: Db,
  keyIds: readonly number[],
): Promise<Map<number, InstanceRow[]>> {
  const byKey = new Map<number, InstanceRow[]>(keyIds.map((id) => [id, []]))
  if (keyIds.length === 0) return byKey
  const rows = await db
    .select()
    .from(licenseInstances)
    .where(inArray(licenseInstances.licenseKeyId, [...keyIds]))
    .orderBy(asc(licenseInstances.createdAt), asc(licenseInstances.id))
  for (const row of rows)
    byKey.get(row.licenseKeyId)?.push({ id: row.id, name: row.name, createdAt: row.createdAt })
  return byKey
}

/** The sold keys of one order with their state and activations (the buyer's dashboard). */
export async function licencesOfOrder(db: Db, orderId: string) {
  const keys = await selectSoldKeys(db, sql`k.order_id = ${orderId}`)
  return withInstances(db, keys.reverse())
}

export async function withInstances(db: Db, keys: readonly SoldKey[]) {
  const instances = await instancesOfKeys(
    db,
    keys.map((k) => k.id),
  )
  return keys.map((key) => {
    const list = instances.get(key.id) ?? []
    return { key, instances: list, usage: list.length, status: licenceStatus(key, list.length) }
  })
}

/** Sold keys matching the operator's search: a key (whole or its end), an e-mail, or an order id. */
export async function searchSoldKeys(db: Db, query: string, limit: number): Promise<SoldKey[]> {
  const q = query.trim()
  if (q === '') return selectSoldKeys(db, sql`true`, { limit })
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(q)
  if (uuid) return selectSoldKeys(db, sql`k.order_id = ${q.toLowerCase()}::uuid`, { limit })
  if (q.includes('@')) return selectSoldKeys(db, sql`lower(o.email) = ${q.toLowerCase()}`, { limit })
  const upper = q.toUpperCase()
  return selectSoldKeys(db, sql`k.key = ${q} or k.key like ${`%${upper.replace(/[\\%_]/g, '\\$&')}`}`, {
    limit,
  })
}

export async function soldKeyById(db: Db, keyId: number): Promise<SoldKey | null> {
  const [row] = await selectSoldKeys(db, sql`k.id = ${keyId}`)
  return row ?? null
}

/** The key an activation belongs to, when that key was sold to the order; else null. */
export async function keyIdOfOrderInstance(
  db: Db,
  orderId: string,
  instanceId: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: licenseKeys.id })
    .from(licenseInstances)
    .innerJoin(licenseKeys, eq(licenseKeys.id, licenseInstances.licenseKeyId))
    .where(and(eq(licenseInstances.id, instanceId), eq(licenseKeys.orderId, orderId)))
  return row?.id ?? null
}

/** A key's licence as the buyer's dashboard and the operator's view show it. */
export function licenceView(entry: {
  key: SoldKey
  instances: InstanceRow[]
  usage: number
  status: LicenceStatus
}) {
  return {
    key: entry.key.key,
    status: entry.status,
    activation_limit: entry.key.activationLimit,
    activation_usage: entry.usage,
    expires_at: entry.key.expiresAt?.toISOString() ?? null,
    instances: entry.instances.map((i) => ({
      id: i.id,
      name: i.name,
      created_at: i.createdAt.toISOString(),
    })),
  }
}
