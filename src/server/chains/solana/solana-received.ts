import type { ChainResult, PeriodTransfer, ReceivedInPeriod, ReceivedTransfer, TokenSymbol } from '../chain'
import { associatedTokenAccount } from './solana-address'
import {
  blockTimeMs,
  type Counter,
  getTransaction,
  listSignatures,
  type SolanaContext,
} from './solana-context'
import { readTransfers } from './solana-transfers'

// What addresses received, from the chain's side, through their token accounts' finalized
// signatures (newest first, paged back to the start of the time asked): refunds watch one address
// for one token (transfersTo), reconciliation reads each address of a period (receivedInPeriod),
// and the safety net at an order's end lists the transactions into an address (listReceived).

/** Requests one reconciliation check may send; a longer period is answered "narrow it". */
const PERIOD_REQUEST_CAP = 5_000

async function received(
  ctx: SolanaContext,
  address: string,
  symbols: readonly TokenSymbol[],
  range: { fromMs: number; toMs: number },
  n: Counter,
): Promise<ChainResult<{ transfers: PeriodTransfer[]; txIds: string[] }>> {
  const transfers: PeriodTransfer[] = []
  const txIds = new Set<string>()
  for (const token of ctx.tokens.filter((t) => symbols.includes(t.symbol) && t.contract)) {
    const account = await associatedTokenAccount(address, token.contract as string)
    const list = await listSignatures(ctx, account, { sinceMs: range.fromMs, commitment: 'finalized' }, n)
    if (list.status === 'error') return list
    for (const item of list.items) {
      const t = blockTimeMs(item.blockTime)
      if (item.err !== null || t < range.fromMs || t >= range.toMs) continue
      txIds.add(item.signature)
      const got = await getTransaction(ctx, item.signature, 'finalized', n)
      if (got.status === 'error') return got
      if (!got.tx) continue
      for (const tr of readTransfers(got.tx, ctx.tokens, 'solana').transfers) {
        if (tr.to !== address || tr.token !== token.symbol) continue
        transfers.push({
          txId: tr.txId,
          from: tr.from,
          value: tr.value,
          blockTimestamp: tr.blockTimestamp,
          token: tr.token,
          to: tr.to,
        })
      }
    }
  }
  transfers.sort((a, b) => a.blockTimestamp - b.blockTimestamp)
  return { status: 'success', transfers, txIds: [...txIds] }
}

export async function solanaTransfersTo(
  ctx: SolanaContext,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  const res = await received(
    ctx,
    address,
    [token],
    { fromMs: sinceMs, toMs: Number.MAX_SAFE_INTEGER },
    { requests: 0 },
  )
  if (res.status === 'error') return null
  return res.transfers.map(({ txId, from, value, blockTimestamp }) => ({ txId, from, value, blockTimestamp }))
}

export async function solanaListReceived(
  ctx: SolanaContext,
  address: string,
  range: { fromMs: number; toMs: number },
): Promise<ChainResult<{ txIds: string[] }>> {
  const n: Counter = { requests: 0 }
  const txIds = new Set<string>()
  for (const token of ctx.tokens) {
    if (!token.contract) continue
    const account = await associatedTokenAccount(address, token.contract)
    const list = await listSignatures(ctx, account, { sinceMs: range.fromMs, commitment: 'finalized' }, n)
    if (list.status === 'error') return list
    for (const item of list.items) {
      const t = blockTimeMs(item.blockTime)
      if (item.err === null && t >= range.fromMs && t < range.toMs) txIds.add(item.signature)
    }
  }
  return { status: 'success', txIds: [...txIds] }
}

export async function solanaReceivedInPeriod(
  ctx: SolanaContext,
  addresses: readonly string[],
  range: { fromMs: number; toMs: number },
): Promise<ReceivedInPeriod> {
  const out: ReceivedInPeriod = { transfers: [], unread: [], unlisted: [] }
  const n: Counter = { requests: 0 }
  const symbols = ctx.tokens.map((t) => t.symbol)
  for (const address of addresses) {
    if (n.requests >= PERIOD_REQUEST_CAP) {
      out.unread.push({
        address,
        message: 'the check reached its request limit; ask for a shorter period',
        narrow: true,
      })
      continue
    }
    const res = await received(ctx, address, symbols, range, n)
    if (res.status === 'error') out.unread.push({ address, message: res.message, narrow: false })
    else out.transfers.push(...res.transfers)
  }
  return out
}
