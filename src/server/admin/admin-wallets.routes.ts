import {
  addWalletAddressesInputSchema,
  adminMessages,
  removeWalletAddressesInputSchema,
  removeWalletAddressInputSchema,
} from '../../shared/admin'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { parseWalletAddressLines } from '../../shared/wallet-addresses'
import { onSuccess } from '../audit/audit-log'
import { defineRpc } from '../rpc'
import { addWalletAddresses, listWalletAddresses, removeWalletAddresses } from '../wallets/wallets.repo'
import type { AdminDeps } from './admin.routes'

// The admin's wallet addresses: the pool with each address's state, adding and removing addresses
// (the wallets module's repository).

const LOW_FREE_SHARE = 0.2

export function adminWalletRpcs({ database }: Pick<AdminDeps, 'database'>) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_wallet_addresses',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => {
        const rows = await listWalletAddresses(db)
        const free = rows.filter((r) => r.state === 'free').length
        return {
          success: true,
          addresses: rows.map((r) => r.address),
          details: rows.map((r) => ({
            address: r.address,
            created_at: r.createdAt.toISOString(),
            leased_order_id: r.leasedOrderId,
            state: r.state,
            cooldown_until: r.cooldownUntil?.toISOString() ?? null,
            order_status: r.orderStatus,
          })),
          free_count: free,
          leased_count: rows.filter((r) => r.state === 'leased').length,
          cooling_count: rows.filter((r) => r.state === 'cooling').length,
          low_free: rows.length > 0 && free < rows.length * LOW_FREE_SHARE,
        }
      },
    }),
    defineRpc({
      name: 'secure_add_wallet_addresses',
      input: addWalletAddressesInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => {
          const parsed = parseWalletAddressLines(input.p_addresses)
          const addresses = parsed.ok ? parsed.addresses : []
          return {
            action: 'wallet_add',
            actor,
            details: {
              added: result.added_count,
              addresses: addresses.slice(0, 100),
              submitted: addresses.length,
            },
          }
        }),
      },
      handler: async (input) => {
        const parsed = parseWalletAddressLines(input.p_addresses)
        if (!parsed.ok) return { success: false, added_count: 0, error: parsed.error }
        return { success: true, added_count: await addWalletAddresses(db, parsed.entries) }
      },
    }),
    defineRpc({
      name: 'secure_remove_wallet_address',
      input: removeWalletAddressInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'wallet_remove',
          actor,
          details: { removed: 1, addresses: [input.p_address] },
        })),
      },
      handler: async (input) => {
        const { removed, inUse } = await removeWalletAddresses(db, [input.p_address])
        if (inUse.length) return { success: false, error: adminMessages.addressInUse }
        return removed.length ? { success: true } : { success: false, error: 'Wallet address not found' }
      },
    }),
    defineRpc({
      name: 'secure_remove_wallet_addresses',
      input: removeWalletAddressesInputSchema,
      admin: true,
      audit: {
        entries: ({ input, outcome, actor }) => {
          if (!outcome.ok || Number(outcome.result.removed_count ?? 0) === 0) return []
          const inUse = new Set((outcome.result.in_use as string[] | undefined) ?? [])
          const removed = [...new Set(input.p_addresses)].filter((a) => !inUse.has(a))
          return [
            {
              action: 'wallet_remove',
              actor,
              details: { removed: outcome.result.removed_count, addresses: removed.slice(0, 100) },
            },
          ]
        },
      },
      handler: async (input) => {
        const { removed, inUse } = await removeWalletAddresses(db, [...new Set(input.p_addresses)])
        return { success: inUse.length === 0, removed_count: removed.length, in_use: inUse }
      },
    }),
  ]
}
