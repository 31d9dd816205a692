import type {
  AccountItem,
  ChainResult,
  PeriodTransfer,
  ReceivedInPeriod,
  ReceivedTransfer,
  TokenSymbol,
} from '../chain'
import type { TransferList } from './tron-accounts'
import type { TronResult } from './tron-http'
import type { ProviderPool } from './tron-pool'

// What one TRON address received, from the provider's account index (the explorer's account lists,
// read through the provider pool and its budget):
// - for the safety net (decision 045): the ids of the transactions that moved USDT of the configured
//   contract (whoever made USDT emit them), plain TRX, or TRX moved by contract code to it, in a
//   range of block time; three list requests an address (more only past 200 items of one kind);
// - for a refund's proof (decision 039): the final USDT or TRX transfers to it since a time, with
//   their senders and amounts;
// - for reconciliation: the USDT (of the configured contract only) and plain TRX transfers to each
//   address in a period, two list requests an address. The account lists hold no TRX moved by
//   contract code, so reconciliation leaves the ledger's internal rows out of the comparison.

type Lists = Pick<ProviderPool, 'listTrc20Incoming' | 'listTrxIncoming' | 'listInternalIncoming'>

type Listed = { to: string; transactionId: string; blockTimestamp: number; type?: string }

/** The transactions these lists name as paying `address` (an approval names a spender, not a payee), with their block times. */
async function collectListed(
  address: string,
  lists: (() => Promise<TronResult<TransferList<Listed>>>)[],
): Promise<ChainResult<{ items: AccountItem[] }>> {
  const found = new Map<string, number>()
  for (const list of lists) {
    const res = await list()
    if (res.status === 'error') return res
    if (!res.complete) {
      return {
        status: 'error',
        kind: 'malformed',
        message: `more history for ${address} than one look pages through`,
      }
    }
    for (const t of res.transfers) {
      if (t.to === address && (t.type === undefined || t.type === 'Transfer'))
        found.set(t.transactionId, t.blockTimestamp)
    }
  }
  return { status: 'success', items: [...found].map(([txId, blockTimestamp]) => ({ txId, blockTimestamp })) }
}

export async function listTronReceived(
  pool: Lists,
  address: string,
  range: { fromMs: number; toMs: number },
): Promise<ChainResult<{ txIds: string[] }>> {
  const opts = { minTimestamp: range.fromMs, maxTimestamp: range.toMs }
  const got = await collectListed(address, [
    () => pool.listTrc20Incoming(address, opts),
    () => pool.listTrxIncoming(address, opts),
    () => pool.listInternalIncoming(address, opts),
  ])
  return got.status === 'error' ? got : { status: 'success', txIds: got.items.map((i) => i.txId) }
}

/**
 * The account reads (decision 054): what reached the address since a block time, final or not
 * yet, in two list requests: the configured USDT contract's transfers (whoever made it emit them),
 * and the address's transactions with the TRX contract code moved to it (the same list).
 */
export function readTronAccount(
  pool: Pick<ProviderPool, 'listTrc20Incoming' | 'listTrxAndInternalIncoming'>,
  address: string,
  range: { fromMs: number; toMs?: number },
): Promise<ChainResult<{ items: AccountItem[] }>> {
  const opts = { minTimestamp: range.fromMs, maxTimestamp: range.toMs, onlyConfirmed: false }
  return collectListed(address, [
    () => pool.listTrc20Incoming(address, opts),
    () => pool.listTrxAndInternalIncoming(address, opts),
  ])
}

export type ReceivedClient = Pick<ProviderPool, 'usdtContract' | 'listTrc20Incoming' | 'listTrxIncoming'>

export async function tronTransfersTo(
  client: ReceivedClient,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  const opts = { minTimestamp: sinceMs, onlyConfirmed: true }
  const oldestFirst = (a: ReceivedTransfer, b: ReceivedTransfer) => a.blockTimestamp - b.blockTimestamp
  if (token === 'USDT') {
    const res = await client.listTrc20Incoming(address, opts)
    if (res.status === 'error' || !res.complete) return null
    return res.transfers
      .filter((t) => t.type === 'Transfer' && t.contract === client.usdtContract && t.to === address)
      .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
      .sort(oldestFirst)
  }
  if (token !== 'TRX') return []
  const res = await client.listTrxIncoming(address, opts)
  if (res.status === 'error' || !res.complete) return null
  return res.transfers
    .filter((t) => t.to === address)
    .map((t) => ({ txId: t.transactionId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
    .sort(oldestFirst)
}

/** More items than one look pages through (the explorer's lists go newest first). */
const TOO_MUCH_HISTORY = 'more history than one look can page through; narrow the period'

export async function tronReceivedInPeriod(
  client: ReceivedClient,
  addresses: readonly string[],
  range: { fromMs: number; toMs: number },
): Promise<ReceivedInPeriod> {
  const answer: ReceivedInPeriod = { transfers: [], unread: [], unlisted: ['internal'] }
  const opts = { minTimestamp: range.fromMs, maxTimestamp: range.toMs - 1 }
  for (const address of addresses) {
    const unread = (message: string, narrow = false) => answer.unread.push({ address, message, narrow })
    const usdt = await client.listTrc20Incoming(address, opts)
    if (usdt.status === 'error') {
      unread(usdt.message)
      continue
    }
    const trx = await client.listTrxIncoming(address, opts)
    if (trx.status === 'error') {
      unread(trx.message)
      continue
    }
    if (!usdt.complete || !trx.complete) {
      unread(TOO_MUCH_HISTORY, true)
      continue
    }
    const of = (
      token: TokenSymbol,
      t: { transactionId: string; from: string; value: bigint; blockTimestamp: number },
    ): PeriodTransfer => ({
      token,
      to: address,
      txId: t.transactionId,
      from: t.from,
      value: t.value,
      blockTimestamp: t.blockTimestamp,
    })
    for (const t of usdt.transfers) {
      if (t.contract === client.usdtContract && t.type === 'Transfer' && t.to === address)
        answer.transfers.push(of('USDT', t))
    }
    for (const t of trx.transfers) if (t.to === address) answer.transfers.push(of('TRX', t))
  }
  return answer
}
