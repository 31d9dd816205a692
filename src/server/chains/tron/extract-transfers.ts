import { tronAddressFromAbiWord, tronBase58ToHex } from '../../../shared/tron-address'
import type { ChainTransfer } from '../chain'
import type { ChainBlock, ChainTxInfo } from './tron-blocks'

// What counts as a transfer to us, read from a solidified block and its transactions' receipts:
// - a USDT Transfer log emitted by the configured contract (never a token that calls itself USDT),
//   whatever sent it: transfer, transferFrom, or another contract calling USDT; only from a
//   transaction whose receipt succeeded (a reverted call's logs are void);
// - a native TRX TransferContract that succeeded;
// - TRX moved by contract code (internal transactions), unless rejected.
// Approval logs, other events and other tokens are never ours.

const HEX_WORD = /^[0-9a-f]{64}$/
/** keccak256('Transfer(address,address,uint256)'). */
const TRANSFER_EVENT_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** Contract calls can emit logs or move TRX: a block holding one has receipts worth reading in full (the buyer's hash, the safety net). */
export function needsReceipts(block: ChainBlock): boolean {
  return block.transactions.some((tx) => tx.type !== 'TransferContract' && tx.type !== null)
}

/** The 20-byte hex body of each address named by a call's arguments (ABI words after the selector). */
export function addressesInCall(data: string, bodies: Pick<ReadonlyMap<string, string>, 'has'>): string[] {
  const found: string[] = []
  for (let i = 8; i + 64 <= data.length; i += 64) {
    const body = data.slice(i + 24, i + 64)
    if (bodies.has(body)) found.push(body)
  }
  return found
}

/**
 * Call data carries an address as its 20-byte hex body; decoding base58 costs a hash, so each
 * address's body is worked out once and kept (bounded).
 */
export function createCallScanner(): {
  bodiesOf(watch: ReadonlySet<string>): Map<string, string>
} {
  const bodies = new Map<string, string>()
  const bodyOf = (address: string) => {
    let body = bodies.get(address)
    if (body === undefined) {
      body = tronBase58ToHex(address).slice(2)
      if (bodies.size > 200_000) bodies.clear()
      bodies.set(address, body)
    }
    return body
  }
  return { bodiesOf: (watch) => new Map([...watch].map((address) => [bodyOf(address), address])) }
}

/**
 * Receipts can matter for a block only where a successful contract call names one of our addresses
 * among its arguments (a USDT transfer/transferFrom to it, a payout contract paying it, a batch
 * payout listing it): that is where the follower reads them (decision 045). A contract that pays an
 * address its call data does not name is recorded by the safety net (`address-sweep.ts`).
 */
export function receiptsMatter(block: ChainBlock, bodies: Pick<ReadonlyMap<string, string>, 'has'>): boolean {
  return block.transactions.some(
    (tx) => tx.contractRet === 'SUCCESS' && tx.callData && addressesInCall(tx.callData, bodies).length > 0,
  )
}

/**
 * Transfers in `block` to any address of `ours`. `infos` are the block's receipts, one per
 * transaction in the same order (absent when the block needs none). `onlyTxId` narrows the result
 * to one transaction (the buyer's hash).
 */
export function extractTransfers(
  block: ChainBlock,
  infos: readonly ChainTxInfo[] | null,
  ours: Pick<ReadonlySet<string>, 'has'>,
  usdtContract: string,
  onlyTxId?: string,
): ChainTransfer[] {
  const found: ChainTransfer[] = []
  const infoById = new Map((infos ?? []).map((i) => [i.txId, i]))
  for (const tx of block.transactions) {
    if (onlyTxId && tx.txId !== onlyTxId) continue
    if (tx.trx && tx.contractRet === 'SUCCESS' && ours.has(tx.trx.to)) {
      found.push({
        chain: 'tron',
        txId: tx.txId,
        source: 'native',
        eventIndex: 0,
        token: 'TRX',
        from: tx.trx.from,
        to: tx.trx.to,
        value: tx.trx.value,
        blockNumber: block.number,
        blockTimestamp: block.timestamp,
      })
    }
    const info = infoById.get(tx.txId)
    if (!info?.success) continue
    for (const [index, log] of info.logs.entries()) {
      if (log.address !== usdtContract) continue
      if (log.topics.length !== 3 || log.topics[0] !== TRANSFER_EVENT_TOPIC) continue
      if (!HEX_WORD.test(log.data)) continue
      const to = tronAddressFromAbiWord(log.topics[2] ?? '')
      const from = tronAddressFromAbiWord(log.topics[1] ?? '')
      if (!to || !from || !ours.has(to)) continue
      found.push({
        chain: 'tron',
        txId: tx.txId,
        source: 'log',
        eventIndex: index,
        token: 'USDT',
        from,
        to,
        value: BigInt(`0x${log.data}`),
        blockNumber: block.number,
        blockTimestamp: block.timestamp,
      })
    }
    for (const move of info.internalTransfers) {
      if (move.rejected || move.value <= 0n || !ours.has(move.to)) continue
      found.push({
        chain: 'tron',
        txId: tx.txId,
        source: 'internal',
        eventIndex: move.index,
        token: 'TRX',
        from: move.from,
        to: move.to,
        value: move.value,
        blockNumber: block.number,
        blockTimestamp: block.timestamp,
      })
    }
  }
  return found
}
