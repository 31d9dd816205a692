import { type ReconcileAnswer, reconcileInputSchema } from '../../shared/reconcile'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { defineRpc } from '../rpc'
import { formatUnits, reconcile } from './reconcile'
import type { TronClient } from './tron/tron-client'

const DAY_MS = 86_400_000

/** The admin's reconciliation view; the chain is asked about one address at a time. */
export function reconcileRpcs(database: Database, client: TronClient) {
  return [
    defineRpc({
      name: 'secure_reconcile',
      input: reconcileInputSchema,
      admin: true,
      handler: async (input): Promise<ReconcileAnswer> => {
        const toMs = input.p_to ? Date.parse(input.p_to) : Date.now() + 1
        const fromMs = input.p_from ? Date.parse(input.p_from) : toMs - 30 * DAY_MS
        if (toMs <= fromMs) throw new AppError('bad_request', 'Invalid request: p_to must be after p_from')
        const address = input.p_chain_address
        const report = await reconcile(database.db, {
          fromMs,
          toMs,
          ...(address ? { addresses: [address], client } : {}),
        })
        return {
          success: true,
          from: new Date(fromMs).toISOString(),
          to: new Date(toMs).toISOString(),
          rows: report.rows.map((r) => ({
            address: r.address,
            token: r.token,
            chain: r.chainUnits === null ? null : formatUnits(r.chainUnits),
            chain_count: r.chainCount,
            ledger: formatUnits(r.ledgerUnits),
            ledger_count: r.ledgerCount,
            credited: formatUnits(r.creditedUnits),
            unmatched: formatUnits(r.unmatchedUnits),
            ties: r.ties,
          })),
          order_mismatches: report.orderMismatches.map((m) => ({
            order_id: m.orderId,
            token: m.token,
            recorded: formatUnits(m.recorded),
            credited: formatUnits(m.credited),
          })),
          chain_errors: report.chainErrors,
          ties: report.ties,
        }
      },
    }),
  ]
}
