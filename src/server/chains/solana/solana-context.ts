import type { ChainError, ChainResult, ChainToken } from '../chain'
import type { FailoverPool } from '../provider-failover'
import { associatedTokenAccount } from './solana-address'
import type { SolanaConfig } from './solana-env'
import type { SolanaRpc } from './solana-rpc'
import {
  type AccountInfo,
  isAccountsAnswer,
  isParsedTransaction,
  isSignatureList,
  isStatusesAnswer,
  type ParsedTransaction,
  type SignatureInfo,
  type SignatureStatus,
} from './solana-types'

// What the Solana adapter's parts share: the settings, the provider pool, the token table, and the
// reads every part makes: the signatures of a token account (newest first, paged back to a slot or
// a time), one transaction in jsonParsed form (kept a while: a transaction read at the `confirmed`
// commitment for a sighting is the same one once its slot is finalized), the accounts of up to 100
// token accounts in one request, and the statuses of up to 256 signatures in one request.

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
  bound: {
    floorSlot?: number
    sinceMs?: number
    commitment: 'confirmed' | 'finalized'
    /** The listing must be made at this slot or after (a balance read there named a change). */
    minContextSlot?: number
  },
  n: Counter,
  lane: Lane = {},
): Promise<ChainResult<{ items: SignatureInfo[]; complete: boolean }>> {
  const items: SignatureInfo[] = []
  let before: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    n.requests += 1
    const res = await ctx.pool.route<{ result: unknown }, ChainError>(
      (client) =>
        client.call(
          'getSignaturesForAddress',
          [
            account,
            {
              limit: PAGE,
              commitment: bound.commitment,
              ...(before ? { before } : {}),
              ...(bound.minContextSlot !== undefined ? { minContextSlot: bound.minContextSlot } : {}),
            },
          ],
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
    // `complete`: the account's whole history is in the listing (its last page was not full).
    if (reached) return { status: 'success', items, complete: !last || list.length < PAGE }
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

/** Accounts one getMultipleAccounts may name (Solana's limit). */
export const ACCOUNTS_PER_READ = 100
/** Signatures one getSignatureStatuses may name (Solana's limit). */
export const STATUSES_PER_READ = 256

/**
 * Up to 100 accounts at `commitment` in one request (jsonParsed: a token account's balance is
 * `tokenAmount.amount`), with the slot the node answered at. An answer below `minContextSlot` (the
 * finalized slot known: a `confirmed` answer below it is a provider behind) or from a provider
 * behind the others is doubted, and the next provider asked, as listings are.
 */
export async function readAccounts(
  ctx: SolanaContext,
  accounts: readonly string[],
  n: Counter,
  lane: Lane = {},
): Promise<ChainResult<{ slot: number; accounts: (AccountInfo | null)[] }>> {
  const minContextSlot = ctx.final?.slot
  n.requests += 1
  const res = await ctx.pool.route<{ result: unknown }, ChainError>(
    (client) =>
      client.call(
        'getMultipleAccounts',
        [
          accounts,
          {
            commitment: 'confirmed',
            encoding: 'jsonParsed',
            ...(minContextSlot !== undefined ? { minContextSlot } : {}),
          },
        ],
        lane.signal,
      ),
    (answer, p) =>
      !isAccountsAnswer(answer.result, accounts.length)
        ? { fault: 'answered accounts of another shape' }
        : minContextSlot !== undefined && answer.result.context.slot < minContextSlot
          ? {
              fault: `answered accounts at slot ${answer.result.context.slot}, below the finalized ${minContextSlot}`,
            }
          : behind(ctx, p.name)
            ? { fault: 'read accounts while behind the other providers', doubtful: true }
            : null,
    lane,
  )
  if (res.status === 'error') return res
  const answer = res.result as { context: { slot: number }; value: (AccountInfo | null)[] }
  return { status: 'success', slot: answer.context.slot, accounts: answer.value }
}

/** The statuses of up to 256 signatures (the node's whole history searched): null for one it does not know. */
export async function readStatuses(
  ctx: SolanaContext,
  signatures: readonly string[],
  n: Counter,
  lane: Lane = {},
): Promise<ChainResult<{ slot: number; statuses: (SignatureStatus | null)[] }>> {
  n.requests += 1
  const res = await ctx.pool.route<{ result: unknown }, ChainError>(
    (client) =>
      client.call('getSignatureStatuses', [signatures, { searchTransactionHistory: true }], lane.signal),
    (answer, p) =>
      !isStatusesAnswer(answer.result, signatures.length)
        ? { fault: 'answered signature statuses of another shape' }
        : behind(ctx, p.name)
          ? { fault: 'answered statuses while behind the other providers', doubtful: true }
          : null,
    lane,
  )
  if (res.status === 'error') return res
  const answer = res.result as { context: { slot: number }; value: (SignatureStatus | null)[] }
  return { status: 'success', slot: answer.context.slot, statuses: answer.value }
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
