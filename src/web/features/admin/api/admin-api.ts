import type { AdminProduct, FetchWalletAddressesAnswer } from '../../../../shared/admin'
import type { SiteContent } from '../../../../shared/site-content'
import { callRpc } from '../../../lib/rpc-client'

// The admin panel's calls. Reads are safe to retry; writes are sent once unless repeating one
// changes nothing. Retrying is the RPC client's job alone (network errors and 5xx).

export type Outcome = { success: true } | { success: false; error: string }

export const read = <T>(name: string, payload: unknown = {}) =>
  callRpc<T>(name, payload, { idempotent: true })
export const write = <T = Outcome>(name: string, payload: unknown = {}) => callRpc<T>(name, payload)

export const adminApi = {
  session: () => callRpc<{ success: true; username: string }>('secure_admin_session', {}, { quiet: true }),
  login: (username: string, password: string, code?: string) =>
    write<Outcome & { username?: string; two_factor_required?: boolean }>('secure_admin_login', {
      p_username: username,
      p_password: password,
      p_code: code || undefined,
    }),
  logout: () => write('secure_admin_logout'),

  products: () => read<{ success: true; products: AdminProduct[] }>('secure_fetch_admin_products'),
  saveProduct: (product: unknown, keys: string) =>
    write<Outcome & { product_id?: number; keys_added?: number }>('secure_manage_product', {
      p_product: product,
      p_keys: keys.trim() ? keys : undefined,
    }),
  deleteProduct: (id: number) => write('secure_delete_product', { p_product_id: id }),

  wallets: () => read<FetchWalletAddressesAnswer>('secure_fetch_wallet_addresses'),
  addWallets: (addresses: string[]) =>
    write<Outcome & { added_count: number }>('secure_add_wallet_addresses', { p_addresses: addresses }),
  removeWallet: (address: string) => write('secure_remove_wallet_address', { p_address: address }),
  removeWallets: (addresses: string[]) =>
    write<{ success: boolean; removed_count: number; in_use: string[] }>('secure_remove_wallet_addresses', {
      p_addresses: addresses,
    }),

  updateContent: (content: SiteContent) => write('secure_update_site_content', { p_content: content }),
  updateCredentials: (input: {
    currentPassword: string
    newUsername: string
    newPassword: string
    confirmPassword: string
  }) =>
    write('secure_update_admin_credentials', {
      p_current_password: input.currentPassword,
      p_new_username: input.newUsername,
      p_new_password: input.newPassword,
      p_confirm_password: input.confirmPassword,
    }),
}

export const adminKeys = {
  all: ['admin'] as const,
  content: ['admin', 'content'] as const,
  session: ['admin', 'session'] as const,
  products: ['admin', 'products'] as const,
  wallets: ['admin', 'wallets'] as const,
}
