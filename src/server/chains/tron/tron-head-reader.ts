import { tronAddressFromAbiWord } from '../../../shared/tron-address'
import type { HeadLook, HeadReader, HeadSighting } from '../chain'
import { addressesInCall, createCallScanner, extractTransfers } from './extract-transfers'
import type { ChainBlock, ChainTxInfo } from './tron-client'
import type { ProviderPool } from './tron-pool'

// TRON's head for the sighting watcher (decision 024): one getblockbylimitnext a look (every block
// since the last look), and receipts only for a block whose contract call names an open order's
// address in its call data. Transfers are extracted as the follower extracts them; a USDT transfer
// call or a TRX transfer to an open address that failed on chain (OUT_OF_ENERGY, REVERT, …) is a
// failed sighting, so the buyer and the operator learn why nothing arrived.

export type SightingClient = Pick<
  ProviderPool,
  'usdtContract' | 'getHead' | 'getHeadBlocks' | 'getHeadTransactionInfos'
> &
  Partial<Pick<ProviderPool, 'requestBudget'>>

const TRANSFER_SELECTOR = 'a9059cbb'
const TRANSFER_FROM_SELECTOR = '23b872dd'
/** After a pause longer than this many blocks, the look starts at the head: older blocks are the follower's. */
const MAX_BACKLOG_BLOCKS = 20

/** A USDT transfer or transferFrom call, or a TRX transfer, to an open address that failed on chain. */
function failedTransfers(block: ChainBlock, open: ReadonlySet<string>, usdtContract: string): HeadSighting[] {
  const found: HeadSighting[] = []
  const at = { blockNumber: block.number, blockTimestamp: block.timestamp }
  for (const tx of block.transactions) {
    if (tx.contractRet === null || tx.contractRet === 'SUCCESS') continue
    if (tx.trx && open.has(tx.trx.to)) {
      found.push({
        txId: tx.txId,
        source: 'native',
        eventIndex: 0,
        token: 'TRX',
        ...tx.trx,
        ...at,
        failure: tx.contractRet,
      })
      continue
    }
    if (tx.calledContract !== usdtContract || !tx.callData) continue
    const data = tx.callData
    const words = (n: number) => data.slice(8 + 64 * n, 8 + 64 * (n + 1))
    let to: string | null = null
    let from: string | null = null
    let value: string | null = null
    if (data.startsWith(TRANSFER_SELECTOR) && data.length >= 8 + 128) {
      to = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(0).slice(24)}`)
      value = words(1)
    } else if (data.startsWith(TRANSFER_FROM_SELECTOR) && data.length >= 8 + 192) {
      from = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(0).slice(24)}`)
      to = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(1).slice(24)}`)
      value = words(2)
    }
    if (!to || !value || !/^[0-9a-f]{64}$/.test(value) || !open.has(to)) continue
    found.push({
      txId: tx.txId,
      source: 'call',
      eventIndex: 0,
      token: 'USDT',
      // The caller of transfer() is the holder; transferFrom names the holder in its first argument.
      from: from ?? tx.caller ?? '',
      to,
      value: BigInt(`0x${value}`),
      ...at,
      failure: tx.contractRet,
    })
  }
  return found
}

export function createTronHeadReader(
  client: SightingClient,
  opts: { blockIntervalMs: number; now?: () => number },
): HeadReader {
  const { blockIntervalMs } = opts
  const now = opts.now ?? Date.now
  /** Next head block to read, and the time of the last one read. */
  let cursor: number | null = null
  let lastBlockTime = 0
  const scanner = createCallScanner()

  async function look(watch: ReadonlySet<string>): Promise<HeadLook> {
    let requests = 0
    const done = (rest: Omit<HeadLook, 'requests' | 'lastBlockTime'>): HeadLook => ({
      requests,
      lastBlockTime,
      ...rest,
    })
    const byBody = scanner.bodiesOf(watch)
    // Where to start: after the last block read, unless the watcher slept through more than a few
    // blocks (those are the follower's to settle in a minute anyway): then at the head.
    const behind = cursor === null ? Number.POSITIVE_INFINITY : (now() - lastBlockTime) / blockIntervalMs
    if (cursor === null || behind > MAX_BACKLOG_BLOCKS) {
      requests += 1
      const head = await client.getHead({ lane: 'sightings' })
      if (head.status === 'error') return done({ found: [], head: null, error: head })
      cursor = head.number
      lastBlockTime = head.timestamp - blockIntervalMs
    }
    const start = cursor as number
    requests += 1
    const res = await client.getHeadBlocks(start, start + MAX_BACKLOG_BLOCKS + 5, { lane: 'sightings' })
    if (res.status === 'error') return done({ found: [], head: null, error: res })
    const found: HeadSighting[] = []
    for (const block of res.blocks) {
      const callsUs = block.transactions.filter(
        (tx) =>
          tx.contractRet === 'SUCCESS' && tx.callData && addressesInCall(tx.callData, byBody).length > 0,
      )
      let infos: ChainTxInfo[] | null = null
      if (callsUs.length > 0) {
        requests += 1
        const ids = block.transactions.map((t) => t.txId)
        const got = await client.getHeadTransactionInfos(block.number, {
          lane: 'sightings',
          expectTxIds: ids,
        })
        // Without the receipts the block is read again at the next look.
        if (got.status === 'error') return done({ found, head: null, error: got })
        infos = got.infos
      }
      for (const t of extractTransfers(block, infos, watch, client.usdtContract)) {
        found.push({
          txId: t.txId,
          source: t.source,
          eventIndex: t.eventIndex,
          token: t.token,
          value: t.value,
          from: t.from,
          to: t.to,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          failure: null,
        })
      }
      found.push(...failedTransfers(block, watch, client.usdtContract))
      cursor = block.number + 1
      lastBlockTime = block.timestamp
    }
    const last = res.blocks[res.blocks.length - 1]
    return done({ found, head: last ? last.number : null })
  }

  return {
    look,
    reset() {
      cursor = null
    },
  }
}
