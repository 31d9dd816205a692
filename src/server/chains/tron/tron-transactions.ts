import * as z from 'zod'
import { isObject, requireTxId, type TronHttp, type TronResult, tronError } from './tron-http'

// Per-transaction reads: where a transaction the buyer names sits on the chain. What it moved is
// read from its block, as the follower reads it (confirm-transaction.ts).

export interface TransactionLocation {
  found: boolean
  blockNumber: number | null
}

export interface TransactionReads {
  /** The block of a transaction, from the solidity node (default) or the latest state. */
  getTransactionInfo(
    txid: string,
    opts?: { solidified?: boolean; signal?: AbortSignal },
  ): Promise<TronResult<TransactionLocation>>
}

const transactionInfoSchema = z.object({
  id: z.string().regex(/^[0-9a-fA-F]{64}$/),
  blockNumber: z.number().int().optional(),
})

export function createTransactionReads(http: TronHttp): TransactionReads {
  return {
    async getTransactionInfo(txid, opts = {}) {
      const id = requireTxId(txid)
      const path = `/${(opts.solidified ?? true) ? 'walletsolidity' : 'wallet'}/gettransactioninfobyid`
      const res = await http.request(path, {
        body: { value: id },
        quoteAmounts: true,
        urgent: true,
        signal: opts.signal,
      })
      if (res.status === 'error') return res
      if (isObject(res.json) && Object.keys(res.json).length === 0) {
        return { status: 'success', found: false, blockNumber: null }
      }
      const parsed = transactionInfoSchema.safeParse(res.json)
      if (!parsed.success || parsed.data.id.toLowerCase() !== id) {
        return tronError('malformed', `unexpected transaction info shape from ${path}`)
      }
      return { status: 'success', found: true, blockNumber: parsed.data.blockNumber ?? null }
    },
  }
}
