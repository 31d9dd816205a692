import type {
  AdminOrderDetail,
  AdminOrderStatus,
  AdminPayment,
  AdminProduct,
  FetchOrdersAnswer,
  FetchWalletAddressesAnswer,
} from '../../../../shared/admin'
import type { SiteContent } from '../../../../shared/site-content'
import { callRpc } from '../../../lib/rpc-client'

// The admin panel's calls. Reads are safe to retry; writes are sent once unless repeating one
// changes nothing. Retrying is the RPC client's job alone (network errors and 5xx).

export type Outcome = { success: true } | { success: false; error: string }

const read = <T>(name: string, payload: unknown = {}) => callRpc<T>(name, payload, { idempotent: true })
const write = <T = Outcome>(name: string, payload: unknown = {}) => callRpc<T>(name, payload)

export const adminApi = {
  session: () => callRpc<{ success: true; username: string }>('secure_admin_session', {}, { quiet: true }),
  login: (username: string, password: string, code?: string) =>
    write<Outcome & { username?: string; two_factor_required?: boolean }>('secure_admin_login', {
      p_username: username,
      p_password: password,
      p_code: code || undefined,
    }),
  logout: () => write('secure_admin_logout'),

  orders: (query: { search: string; status: AdminOrderStatus | 'all'; page: number; pageSize: number }) =>
    read<FetchOrdersAnswer>('secure_fetch_orders', {
      p_search: query.search || undefined,
      p_status: query.status,
      p_page: query.page,
      p_page_size: query.pageSize,
    }),
  order: (id: string) => read<AdminOrderDetail>('secure_fetch_order', { p_order_id: id }),
  // Setting a status is idempotent (paying an order delivers it once), so the client may retry it.
  updateOrderStatus: (id: string, status: AdminOrderStatus) =>
    callRpc<Outcome>(
      'secure_update_order_status',
      { p_order_id: id, p_status: status },
      { idempotent: true },
    ),
  deleteOrder: (id: string) => write('secure_delete_order', { p_order_id: id }),
  resendOrderEmail: (id: string) => write('secure_resend_order_email', { p_order_id: id }),
  unmatchedPayments: () =>
    read<{ success: true; payments: AdminPayment[] }>('secure_fetch_unmatched_payments'),
  assignPayment: (paymentId: number, orderId: string) =>
    write('secure_assign_payment', { p_payment_id: paymentId, p_order_id: orderId }),
  reviewHeldOrder: (orderId: string, decision: 'release' | 'refuse') =>
    write<{ success: true; paid: boolean } | { success: false; error: string }>('secure_review_held_order', {
      p_order_id: orderId,
      p_decision: decision,
    }),

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
  ordersAll: ['admin', 'orders'] as const,
  orders: (query: object) => ['admin', 'orders', query] as const,
  order: (id: string) => ['admin', 'order', id] as const,
  unmatched: ['admin', 'unmatched-payments'] as const,
  products: ['admin', 'products'] as const,
  wallets: ['admin', 'wallets'] as const,
}
