import type { IncomingMessage } from 'node:http'
import { normalizeTronAddress } from '../../src/shared/tron-address'
import { HttpError } from './http-io'
import type { ListQuery } from './sim-chain'

// The v1 account lists' query strings (snake_case or camelCase, as TronGrid reads them) and the
// envelope their pages go out in, with the next page's link.

const MAX_PAGE_SIZE = 200
const DEFAULT_PAGE_SIZE = 20

function boolParam(url: URL, name: string): boolean {
  const value = param(url, name)
  if (value === null || value === '') return false
  if (value === 'true') return true
  if (value === 'false') return false
  throw new HttpError(400, `${name} must be true or false`)
}

function param(url: URL, snake: string): string | null {
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
  return url.searchParams.get(snake) ?? url.searchParams.get(camel)
}

function intParam(url: URL, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = param(url, name)
    if (value === null || value === '') continue
    if (!/^\d{1,16}$/.test(value)) throw new HttpError(400, `${name} must be a non-negative integer`)
    return Number(value)
  }
  return undefined
}

export function listQuery(url: URL, address: string): ListQuery {
  const onlyConfirmed = boolParam(url, 'only_confirmed')
  const onlyUnconfirmed = boolParam(url, 'only_unconfirmed')
  if (onlyConfirmed && onlyUnconfirmed) {
    throw new HttpError(400, 'only_confirmed and only_unconfirmed cannot be used together')
  }
  const limit = intParam(url, 'limit') ?? DEFAULT_PAGE_SIZE
  if (limit < 1) throw new HttpError(400, 'limit must be at least 1')
  const orderBy = param(url, 'order_by') ?? 'block_timestamp,desc'
  const order = /^(block_timestamp|timestamp),(asc|desc)$/.exec(orderBy)
  if (!order) throw new HttpError(400, 'order_by must be block_timestamp,asc or block_timestamp,desc')
  const contractParam = param(url, 'contract_address')
  let contract: string | undefined
  if (contractParam) {
    contract = normalizeTronAddress(contractParam) ?? undefined
    if (!contract) throw new HttpError(400, `Invalid contract address: ${contractParam}`)
  }
  return {
    address,
    onlyConfirmed,
    onlyUnconfirmed,
    onlyTo: boolParam(url, 'only_to'),
    onlyFrom: boolParam(url, 'only_from'),
    limit: Math.min(limit, MAX_PAGE_SIZE),
    contract,
    minTimestamp: intParam(url, 'min_timestamp', 'min_block_timestamp'),
    maxTimestamp: intParam(url, 'max_timestamp', 'max_block_timestamp'),
    ascending: order[2] === 'asc',
    fingerprint: param(url, 'fingerprint') || undefined,
  }
}

export function listEnvelope(
  req: IncomingMessage,
  url: URL,
  items: unknown[],
  fingerprint: string | undefined,
) {
  const meta: Record<string, unknown> = { at: Date.now() }
  if (fingerprint) {
    const next = new URL(url.pathname, `http://${req.headers.host ?? 'localhost'}`)
    for (const [k, v] of url.searchParams) if (k !== 'fingerprint') next.searchParams.append(k, v)
    next.searchParams.set('fingerprint', fingerprint)
    meta.fingerprint = fingerprint
    meta.links = { next: next.toString() }
  }
  meta.page_size = items.length
  return { data: items, success: true, meta }
}
