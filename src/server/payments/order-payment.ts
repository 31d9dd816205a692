import { and, eq } from 'drizzle-orm'
import type { ChainId, TokenSymbol } from '../../shared/chains'
import type { ChainRegistry } from '../chains/chain-registry'
import { familyOf } from '../chains/families'
import type { Db } from '../db/client'
import { payments } from '../db/schema'

// How an order's payment is named wherever it is shown (e-mail, dashboard, admin, CSV, webhooks):
// the chain and token of the transaction that paid it, and that chain's explorer page. An EVM
// order may be paid on another EVM chain than the one picked (its address is watched on all of
// them), so the paying chain comes from the ledger row, not from the order.

/** The transaction's page on its chain's explorer (the enabled chain's own, else the table's). */
export function explorerTxUrlOf(chain: ChainId, txId: string, chains?: ChainRegistry): string {
  const adapter = chains?.get(chain)
  if (adapter) return adapter.explorerTxUrl(txId)
  return familyOf(chain).explorerTxUrl(chain, txId)
}

export interface OrderPayment {
  /** The network and token the buyer picked. */
  chain: ChainId
  token: TokenSymbol
  /** The transaction that paid it (the last one credited), its chain and its explorer page; null while unpaid. */
  txHash: string | null
  txChain: ChainId | null
  /** The token that transaction moved (a buyer who picked USDT may have sent USDC). */
  txToken: TokenSymbol | null
  txUrl: string | null
}

/** The order's payment as shown to people: picked network and token, and the paying transaction. */
export async function orderPaymentOf(
  db: Db,
  order: { id: string; chain: ChainId; token: TokenSymbol; txHash: string | null },
  chains?: ChainRegistry,
): Promise<OrderPayment> {
  if (!order.txHash) {
    return { chain: order.chain, token: order.token, txHash: null, txChain: null, txToken: null, txUrl: null }
  }
  const [row] = await db
    .select({ chain: payments.chain, token: payments.token })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.txId, order.txHash)))
    .limit(1)
  const txChain = row?.chain ?? order.chain
  return {
    chain: order.chain,
    token: order.token,
    txHash: order.txHash,
    txChain,
    txToken: row?.token ?? order.token,
    txUrl: explorerTxUrlOf(txChain, order.txHash, chains),
  }
}
