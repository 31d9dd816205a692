import { firstChain } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import { type ReconcileAnswer, reconcileInputSchema } from '../../shared/reconcile'
import { type ChainRegistry, chainOfCall } from '../chains/chain-registry'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { defineRpc } from '../rpc'
import { formatUnits, reconcile } from './reconcile'

const DAY_MS = 86_400_000

/** The admin's reconciliation view of one enabled chain; the chain is asked about one address at a time. */
export function reconcileRpcs(database: Database, chains: ChainRegistry) {
  return [
    defineRpc({
      name: 'secure_reconcile',
      input: reconcileInputSchema,
      admin: true,
      handler: async (input): Promise<ReconcileAnswer> => {
        const chainId = input.p_chain ?? firstChain
        const adapter = chainOfCall(chains, chainId)
        const toMs = input.p_to ? Date.parse(input.p_to) : Date.now() + 1
        const fromMs = input.p_from ? Date.parse(input.p_from) : toMs - 30 * DAY_MS
        if (toMs <= fromMs) throw new AppError('bad_request', 'Invalid request: p_to must be after p_from')
        let address: string | null = null
        if (input.p_chain_address !== undefined) {
          address = adapter.normalizeAddress(input.p_chain_address)
          if (!address) {
            throw new AppError(
              'bad_request',
              `Invalid request: p_chain_address: must be a ${chainNames[chainId]} address`,
            )
          }
        }
        const report = await reconcile(database.db, {
          fromMs,
          toMs,
          chain: chainId,
          ...(address ? { addresses: [address], adapter } : {}),
        })
        return {
          success: true,
          network: report.chain,
          enabled_chains: chains.enabled().map((c) => c.chain),
          from: new Date(fromMs).toISOString(),
          to: new Date(toMs).toISOString(),
          rows: report.rows.map((r) => ({
            network: r.chain,
            address: r.address,
            token: r.token,
            decimals: r.decimals,
            chain: r.chainUnits === null ? null : formatUnits(r.chainUnits, r.decimals),
            chain_count: r.chainCount,
            ledger: formatUnits(r.ledgerUnits, r.decimals),
            ledger_count: r.ledgerCount,
            credited: formatUnits(r.creditedUnits, r.decimals),
            unmatched: formatUnits(r.unmatchedUnits, r.decimals),
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
