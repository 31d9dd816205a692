import type { ChainError, ChainResult, ChainToken } from '../chain'
import type { FailoverPool } from '../provider-failover'
import { associatedTokenAccount } from './solana-address'
import type { SolanaConfig } from './solana-env'
import type { SolanaRpc } from './solana-rpc'
import {
  isParsedTransaction,
  isSignatureList,
  type ParsedTransaction,
  type SignatureInfo,
} from './solana-types'

// What the Solana adapter's parts share: the settings, the provider pool, the token table, and the
// two reads every part makes: the signatures of a token account (newest first, paged back to a
// slot or a time) and one transaction in jsonParsed form (kept a while: a transaction read at the
// `confirmed` commitment for a sighting is the same one once its slot is finalized).

export type Counter = { requests: number }
type Lane = { lane?: 'sightings'; signal?: AbortSignal }

export interface SolanaContext {
  config: SolanaConfig
  pool: FailoverPool<SolanaRpc>
  tokens: readonly ChainToken[]
  /** Parsed transactions by signature (bounded). */
  txCache: Map<string, ParsedTransaction>
  /** The newest finalized slot known and its time (ms); raised by every read that learns one. */
  final: { slot: number; time: number; at: number } | null
}

/**
 * A block time in ms: Solana's are whole seconds, so a slot stamped s was made during second s and
 * is taken as the end of it (as EVM's): a payment made in the second its order was placed is inside
 * the order's lease.
 */
export function blockTimeMs(seconds: number | null): number {
  return seconds === null ? 0 : seconds * 1000 + 999
}

export const PAGE = 100
/** Pages of signatures one listing may read back before it gives up (a very busy account). */
export const MAX_PAGES = 20

export function malformed(message: string): ChainError {
  return { status: 'error', kind: 'malformed', message }
}

/** The token accounts a watched address receives the accepted tokens in: account → owner. */
export async function tokenAccountsOf(
  ctx: SolanaContext,
  owners: Iterable<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const owner of owners) {
    for (const t of ctx.tokens) {
      if (t.contract) out.set(await associatedTokenAccount(owner, t.contract), owner)
    }
  }
  return out
}

/**
 * The signatures naming `account` at `commitment`, newest first, back to the first one at or below
 * `floor` (a slot) or older than `sinceMs` (block time): every page is one request.
 */
export async function listSignatures(
  ctx: SolanaContext,
  account: string,
  bound: { floorSlot?: number; sinceMs?: number; commitment: 'confirmed' | 'finalized' },
  n: Counter,
  lane: Lane = {},
): Promise<ChainResult<{ items: SignatureInfo[] }>> {
  const items: SignatureInfo[] = []
  let before: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    n.requests += 1
    const res = await ctx.pool.route<{ result: unknown }, ChainError>(
      (client) =>
        client.call(
          'getSignaturesForAddress',
          [account, { limit: PAGE, commitment: bound.commitment, ...(before ? { before } : {}) }],
          lane.signal,
        ),
      (answer, p) =>
        !isSignatureList(answer.result)
          ? { fault: 'answered a signature list of another shape' }
          : behind(ctx, p.name)
            ? // A provider behind the others lists what it had then: the next one is asked too.
              { fault: 'listed signatures while behind the other providers', doubtful: true }
            : null,
      lane,
    )
    if (res.status === 'error') return res
    const list = res.result as SignatureInfo[]
    items.push(...list)
    const last = list[list.length - 1]
    const reached =
      !last ||
      list.length < PAGE ||
      (bound.floorSlot !== undefined && last.slot <= bound.floorSlot) ||
      (bound.sinceMs !== undefined && last.blockTime !== null && blockTimeMs(last.blockTime) < bound.sinceMs)
    if (reached) return { status: 'success', items }
    before = last.signature
  }
  return {
    status: 'error',
    kind: 'malformed',
    message: `${account} has more than ${MAX_PAGES * PAGE} signatures to read back`,
  }
}

/**
 * Slots a provider's finalized slot may trail another's before its listings are doubted: the
 * providers' heads are looked at a moment apart, and 2.5 slots a second make them differ by a slot
 * or two with no provider lagging; more than this (1.6 s) is a provider behind.
 */
const BEHIND_SLOTS = 4

/** Whether a provider's finalized slot, last seen, is behind another provider's. */
function behind(ctx: SolanaContext, name: string): boolean {
  return (ctx.pool.health().find((h) => h.name === name)?.lagBlocks ?? 0) > BEHIND_SLOTS
}

/** One transaction at `commitment`; null when the node does not have it there. */
export async function getTransaction(
  ctx: SolanaContext,
  signature: string,
  commitment: 'confirmed' | 'finalized',
  n: Counter,
  lane: Lane = {},
): Promise<ChainResult<{ tx: ParsedTransaction | null }>> {
  const known = ctx.txCache.get(signature)
  if (known) return { status: 'success', tx: known }
  n.requests += 1
  const res = await ctx.pool.route<{ result: unknown }, ChainError>(
    (client) =>
      client.call(
        'getTransaction',
        [signature, { encoding: 'jsonParsed', commitment, maxSupportedTransactionVersion: 0 }],
        lane.signal,
      ),
    (answer) =>
      answer.result === null
        ? null
        : !isParsedTransaction(answer.result)
          ? { fault: 'answered a transaction of another shape' }
          : answer.result.transaction.signatures[0] !== signature
            ? // Another transaction than asked: a lie, whichever; the next provider is asked.
              { fault: `asked for ${signature}, answered another transaction` }
            : null,
    lane,
  )
  if (res.status === 'error') return res
  const tx = res.result as ParsedTransaction | null
  if (tx) {
    if (ctx.txCache.size > 5000) ctx.txCache.clear()
    ctx.txCache.set(signature, tx)
  }
  return { status: 'success', tx }
}

/** The finalized slot and its block time (two requests), remembered in ctx.final. */
export async function readFinalizedSlot(
  ctx: SolanaContext,
  n: Counter,
): Promise<ChainResult<{ slot: number; time: number }>> {
  return ctx.pool.route<{ slot: number; time: number }, ChainError>(async (client, p) => {
    n.requests += 1
    const slot = await client.call<unknown>('getSlot', [{ commitment: 'finalized' }])
    if (slot.status === 'error') return slot
    if (typeof slot.result !== 'number' || !Number.isInteger(slot.result))
      return malformed('getSlot answered no slot')
    n.requests += 1
    const time = await client.call<unknown>('getBlockTime', [slot.result])
    if (time.status === 'error') return time
    if (typeof time.result !== 'number')
      return malformed(`getBlockTime answered no time for slot ${slot.result}`)
    ctx.pool.sawHead(p, slot.result)
    return { status: 'success', slot: slot.result, time: blockTimeMs(time.result) }
  })
}

export function raiseFinal(ctx: SolanaContext, slot: number, time: number): void {
  if (!ctx.final || slot > ctx.final.slot) ctx.final = { slot, time, at: Date.now() }
}
