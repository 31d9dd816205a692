import type { ChainError, FinalBlock, FinalRead, FinalReadOptions, FinalReads } from '../chain'
import { createCallScanner, extractTransfers, receiptsMatter } from './extract-transfers'
import type { ProviderPool } from './tron-pool'

// TRON's final blocks for the chain follower: solidified blocks (irreversible), read in batches
// after the checkpoint, with the receipts of a block only where a successful contract call names
// one of our addresses (decision 045; before, every block holding a contract call: all of them on
// mainnet). Its cost: one request per batch of blocks, one per block paying us by contract. A solidified block never changes, so one that does not follow the
// checkpoint is a bad answer of the provider (the pool sets such a provider aside), not a fork.

/** What the follower reads on TRON: the provider pool, or one explorer client (which ignores the pool's checks). */
export type FollowerClient = Pick<
  ProviderPool,
  'usdtContract' | 'getSolidBlocks' | 'getSolidTransactionInfos' | 'getSolidHead'
>

const malformed = (message: string): ChainError => ({ status: 'error', kind: 'malformed', message })

export function createTronFinalReads(client: FollowerClient): FinalReads {
  const scanner = createCallScanner()
  return {
    chain: 'tron',

    async finalHead() {
      const head = await client.getSolidHead()
      if (head.status === 'error') return head
      return { status: 'success', number: head.number, hash: head.blockId, timestamp: head.timestamp }
    },

    async readFinal(opts: FinalReadOptions): Promise<FinalRead> {
      const { checkpoint } = opts
      const start = checkpoint.number + 1
      // The pool sets aside a provider whose first block does not follow the checkpoint.
      const follows = checkpoint.hash ? { number: checkpoint.number, blockId: checkpoint.hash } : undefined
      const res = await client.getSolidBlocks(start, start + opts.maxBlocks, { follows })
      if (res.status === 'error') return { blocks: [], more: false, error: res }
      const first = res.blocks[0]
      if (first && checkpoint.hash && first.parentHash !== checkpoint.hash) {
        return {
          blocks: [],
          more: false,
          error: malformed(`block ${first.number} does not follow the checkpoint ${checkpoint.number}`),
        }
      }
      const blocks: FinalBlock[] = []
      const bodies = scanner.bodiesOf(opts.watch)
      for (const block of res.blocks) {
        if (blocks.length > 0 && Date.now() > opts.deadline) return { blocks, more: true }
        const ref = {
          number: block.number,
          hash: block.blockId,
          parentHash: block.parentHash,
          timestamp: block.timestamp,
        }
        if (!receiptsMatter(block, bodies)) {
          blocks.push({ ...ref, transfers: extractTransfers(block, null, opts.watch, client.usdtContract) })
          continue
        }
        const ids = block.transactions.map((t) => t.txId)
        const infos = await client.getSolidTransactionInfos(block.number, { expectTxIds: ids })
        if (infos.status === 'error') return { blocks, more: false, error: infos }
        // A back-end node that has not got this block yet answers []; never read a block half.
        const same = infos.infos.length === ids.length && infos.infos.every((info, i) => info.txId === ids[i])
        if (!same) {
          return {
            blocks,
            more: false,
            error: malformed(
              `receipts of block ${block.number} do not match its ${ids.length} transactions (got ${infos.infos.length})`,
            ),
          }
        }
        blocks.push({
          ...ref,
          transfers: extractTransfers(block, infos.infos, opts.watch, client.usdtContract),
        })
        await opts.keepAlive?.()
      }
      return { blocks, more: res.blocks.length === opts.maxBlocks }
    },
  }
}
