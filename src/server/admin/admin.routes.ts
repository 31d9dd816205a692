import { eq } from 'drizzle-orm'
import {
  addWalletAddressesInputSchema,
  adminMessages,
  assignPaymentInputSchema,
  deleteProductInputSchema,
  fetchOrdersInputSchema,
  loginInputSchema,
  manageProductInputSchema,
  ORDERS_PAGE_SIZE,
  orderIdInputSchema,
  productInputSchema,
  removeWalletAddressesInputSchema,
  removeWalletAddressInputSchema,
  reviewHeldOrderInputSchema,
  updateCredentialsInputSchema,
  updateOrderStatusInputSchema,
  updateSiteContentInputSchema,
} from '../../shared/admin'
import { centsToDollars } from '../../shared/money'
import { adminKeyField, emptyPayloadSchema } from '../../shared/rpc'
import { mergeSiteContent } from '../../shared/site-content'
import { parseWalletAddressLines } from '../../shared/wallet-addresses'
import type { AuditRecord } from '../audit/audit-log'
import { changedKeys, onSuccess } from '../audit/audit-log'
import { productFormFields } from '../catalog/catalog.repo'
import type { CatalogService } from '../catalog/catalog.service'
import { deleteProduct, listAdminProducts, saveProduct } from '../catalog/catalog-admin.repo'
import { readStoredContent } from '../content/content.repo'
import type { ContentService } from '../content/content.service'
import type { Database } from '../db/client'
import { adminUsers } from '../db/schema'
import { requeueOrderMail } from '../delivery/order-mail.repo'
import type { Env } from '../env'
import { AppError } from '../errors'
import { addKeyStock, countKeyStock, parseKeyLines } from '../keys/key-stock'
import type { Signal } from '../lib/signal'
import { findOrder, type OrderRow } from '../orders/orders.repo'
import type { PaymentRules } from '../payments/payment-rules'
import { defineRpc, describeZodError } from '../rpc'
import { addWalletAddresses, listWalletAddresses, removeWalletAddresses } from '../wallets/wallets.repo'
import {
  checkCurrentPassword,
  checkOrigin,
  checkUserAgent,
  clearAttempts,
  clearPasswordAttempts,
  clearSessionCookie,
  clientKey,
  endOtherSessions,
  endSession,
  findSession,
  sessionOf,
  startSession,
  takeAttempt,
  verifyLogin,
} from './admin-auth'
import {
  assignPayment,
  deleteOrder,
  listOrders,
  listUnmatchedPayments,
  orderDetail,
  reviewHeldOrder,
  updateOrderStatus,
} from './admin-orders.repo'
import { hashPassword } from './passwords'
import { loginSecondFactor, twoFactorRpcs } from './two-factor.routes'

export interface AdminDeps {
  database: Database
  env: Env
  catalog: CatalogService
  content: ContentService
  /** The payment rules and delivery context of the one path to paid. */
  rules: PaymentRules
  orderPaid: Signal<string>
}

const adminOnly = emptyPayloadSchema.extend(adminKeyField).strict()
const LOW_FREE_SHARE = 0.2

/** The admin panel's calls; every one but login is `admin: true` and passes the admin guard first. */
export function adminRpcs({ database, env, catalog, content, rules, orderPaid }: AdminDeps) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_admin_login',
      input: loginInputSchema,
      audit: {
        // The name typed, never the password; a lock-out and a refusal are recorded too.
        entries: ({ input, outcome }) => {
          const actor = input.p_username.trim()
          if (outcome.ok) {
            return [
              outcome.result.success === true
                ? { action: 'login', actor: String(outcome.result.username ?? actor) }
                : { action: 'login_failed', actor },
            ]
          }
          if (outcome.error instanceof AppError && outcome.error.code === 'rate_limited')
            return [{ action: 'login_locked', actor }]
          if (outcome.error instanceof AppError)
            return [{ action: 'login_failed', actor, details: { reason: outcome.error.message } }]
          return []
        },
      },
      handler: async (input, { request, reply }) => {
        checkUserAgent(request, env)
        checkOrigin(request, env)
        const key = clientKey(request, input.p_username)
        if (!(await takeAttempt(db, key))) {
          request.log.warn(
            { ip: request.ip, username: input.p_username.slice(0, 100) },
            'admin login locked out',
          )
          throw AppError.rateLimited(adminMessages.tooManyAttempts, 15 * 60_000)
        }
        const user = await verifyLogin(db, input.p_username, input.p_password)
        if (!user) {
          request.log.warn({ ip: request.ip, username: input.p_username.slice(0, 100) }, 'admin login failed')
          return { success: false, error: adminMessages.invalidCredentials }
        }
        if (user.totpSecret) {
          const refusal = await loginSecondFactor(db, request, user, key, input.p_code)
          if (refusal) return refusal
        }
        request.log.info({ ip: request.ip, username: user.username }, 'admin logged in')
        await clearAttempts(db, key)
        await startSession(db, env, reply, user.id)
        return { success: true, username: user.username }
      },
    }),
    defineRpc({
      name: 'secure_admin_logout',
      input: adminOnly,
      audit: {
        before: (db, _input, request) => findSession(db, request),
        entries: ({ outcome, before }) =>
          outcome.ok && before ? [{ action: 'logout', actor: before.username }] : [],
      },
      handler: async (_input, { request, reply }) => {
        // Logging out needs no live session: a stale cookie is cleared all the same.
        checkOrigin(request, env)
        const session = await findSession(db, request)
        if (session) await endSession(db, session.tokenHash)
        clearSessionCookie(env, reply)
        return { success: true }
      },
    }),
    defineRpc({
      name: 'secure_admin_session',
      input: adminOnly,
      admin: true,
      handler: async (_input, { request }) => ({ success: true, username: sessionOf(request).username }),
    }),

    // Orders
    defineRpc({
      name: 'secure_fetch_orders',
      input: fetchOrdersInputSchema,
      admin: true,
      handler: async (input) =>
        listOrders(db, {
          search: input.p_search || undefined,
          status: input.p_status,
          page: input.p_page ?? 1,
          pageSize: input.p_page_size ?? ORDERS_PAGE_SIZE,
        }),
    }),
    defineRpc({
      name: 'secure_fetch_order',
      input: orderIdInputSchema,
      admin: true,
      handler: async (input) => {
        const detail = await orderDetail(db, input.p_order_id)
        if (!detail) throw new AppError('not_found', `Order ${input.p_order_id} not found`)
        return detail
      },
    }),
    defineRpc({
      name: 'secure_update_order_status',
      input: updateOrderStatusInputSchema,
      admin: true,
      audit: {
        before: async (db, input) => (await findOrder(db, input.p_order_id))?.status ?? null,
        entries: onSuccess(({ input, actor, before }) => ({
          action: 'order_status',
          actor,
          target: input.p_order_id,
          details: { from: before, to: input.p_status },
        })),
      },
      handler: async (input) => {
        const result = await updateOrderStatus(db, input.p_order_id, input.p_status, rules)
        if (result.kind === 'not_found')
          return { success: false, error: `Order ${input.p_order_id} not found` }
        if (result.kind === 'refused') return { success: false, error: result.error }
        if (result.delivered) orderPaid.emit(input.p_order_id)
        return { success: true }
      },
    }),
    defineRpc({
      name: 'secure_delete_order',
      input: orderIdInputSchema,
      admin: true,
      audit: {
        before: (db, input) => findOrder(db, input.p_order_id),
        entries: onSuccess<{ p_order_id: string }, OrderRow | undefined>(({ input, actor, before }) => ({
          action: 'order_delete',
          actor,
          target: input.p_order_id,
          details: before ? { status: before.status, total: centsToDollars(before.totalCents) } : {},
        })),
      },
      handler: async (input) =>
        (await deleteOrder(db, input.p_order_id, rules))
          ? { success: true }
          : { success: false, error: `Order ${input.p_order_id} not found` },
    }),
    defineRpc({
      name: 'secure_resend_order_email',
      input: orderIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'mail_resend',
          actor,
          target: input.p_order_id,
          details: { queued: result.queued },
        })),
      },
      handler: async (input) => {
        const queued = await requeueOrderMail(db, input.p_order_id)
        return queued > 0
          ? { success: true, queued }
          : { success: false, error: 'No e-mail was queued for this order' }
      },
    }),
    defineRpc({
      name: 'secure_fetch_unmatched_payments',
      input: adminOnly,
      admin: true,
      handler: async () => ({ success: true, payments: await listUnmatchedPayments(db) }),
    }),
    defineRpc({
      name: 'secure_assign_payment',
      input: assignPaymentInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'payment_assign',
          actor,
          target: input.p_order_id,
          details: { payment_id: input.p_payment_id },
        })),
      },
      handler: async (input) => {
        const result = await assignPayment(db, input.p_payment_id, input.p_order_id, rules)
        if (result.kind === 'ok') {
          if (result.paid) orderPaid.emit(input.p_order_id)
          return { success: true, paid: result.paid }
        }
        return {
          success: false,
          error:
            result.kind === 'no_order'
              ? `Order ${input.p_order_id} not found`
              : result.kind === 'already_credited'
                ? adminMessages.paymentAlreadyCredited
                : `Payment ${input.p_payment_id} not found`,
        }
      },
    }),

    defineRpc({
      name: 'secure_review_held_order',
      input: reviewHeldOrderInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'order_review',
          actor,
          target: input.p_order_id,
          details: { decision: input.p_decision, paid: result.paid },
        })),
      },
      handler: async (input) => {
        const result = await reviewHeldOrder(db, input.p_order_id, input.p_decision, rules)
        if (result.kind === 'ok') {
          if (result.paid) orderPaid.emit(input.p_order_id)
          return { success: true, paid: result.paid }
        }
        return {
          success: false,
          error: result.kind === 'no_order' ? `Order ${input.p_order_id} not found` : adminMessages.notHeld,
        }
      },
    }),

    // Products
    defineRpc({
      name: 'secure_fetch_admin_products',
      input: adminOnly,
      admin: true,
      handler: async () => ({ success: true, products: await listAdminProducts(db) }),
    }),
    defineRpc({
      name: 'secure_manage_product',
      input: manageProductInputSchema,
      admin: true,
      audit: {
        before: async (db, input) => {
          const id = (input.p_product as { id?: unknown } | null)?.id
          if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return undefined
          return productFormFields(db, id)
        },
        entries: ({ input, outcome, actor, before }) => {
          if (!outcome.ok || outcome.result.success !== true) return []
          const target = outcome.result.product_id as number
          const parsed = productInputSchema.safeParse(input.p_product)
          const after = parsed.success ? (parsed.data as Record<string, unknown>) : {}
          const entries: AuditRecord[] = []
          if (before) {
            const fields = changedKeys(before, after).filter((key) => key !== 'id' && key !== 'has_details')
            if (fields.length) entries.push({ action: 'product_update', actor, target, details: { fields } })
          } else if (parsed.success && parsed.data.id === undefined) {
            entries.push({ action: 'product_create', actor, target, details: { name: parsed.data.name } })
          }
          if (typeof input.p_keys === 'string' && input.p_keys.trim() !== '') {
            // How many, never which: the keys themselves stay out of the log.
            const added = Number(outcome.result.keys_added ?? 0)
            entries.push({
              action: 'key_stock_upload',
              actor,
              target,
              details: { added, stock: outcome.result.key_stock },
            })
          }
          return entries
        },
      },
      handler: async (input) => {
        const parsed = productInputSchema.safeParse(input.p_product)
        if (!parsed.success) {
          const rule = parsed.error.issues.find((i) => i.message === adminMessages.downloadUrlRequired)
          if (rule) return { success: false, error: rule.message }
          throw new AppError(
            'bad_request',
            describeZodError(parsed.error).replace('Invalid request: ', 'Invalid product: '),
          )
        }
        const id = await saveProduct(db, parsed.data)
        if (id === null) return { success: false, error: `Product ${parsed.data.id} not found` }
        const keysAdded = input.p_keys ? await addKeyStock(db, id, parseKeyLines(input.p_keys)) : 0
        catalog.invalidate()
        const stock = await countKeyStock(db, [id])
        return { success: true, product_id: id, keys_added: keysAdded, key_stock: stock.get(id) ?? 0 }
      },
    }),
    defineRpc({
      name: 'secure_delete_product',
      input: deleteProductInputSchema,
      admin: true,
      audit: {
        before: async (db, input) => (await productFormFields(db, input.p_product_id))?.name ?? null,
        entries: onSuccess(({ input, actor, before }) => ({
          action: 'product_delete',
          actor,
          target: input.p_product_id,
          details: { name: before },
        })),
      },
      handler: async (input) => {
        const deleted = await deleteProduct(db, input.p_product_id)
        catalog.invalidate()
        return deleted
          ? { success: true }
          : { success: false, error: `Product ${input.p_product_id} not found` }
      },
    }),

    // Wallets
    defineRpc({
      name: 'secure_fetch_wallet_addresses',
      input: adminOnly,
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
        return { success: true, added_count: await addWalletAddresses(db, parsed.addresses) }
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

    // Content
    defineRpc({
      name: 'secure_update_site_content',
      input: updateSiteContentInputSchema,
      admin: true,
      audit: {
        before: async (db) => mergeSiteContent(await readStoredContent(db)),
        entries: onSuccess(({ input, actor, before }) => ({
          action: 'content_update',
          actor,
          details: { fields: changedKeys(before ?? {}, input.p_content ?? {}) },
        })),
      },
      handler: async (input) => {
        await content.save(input.p_content)
        return { success: true }
      },
    }),

    // Credentials
    defineRpc({
      name: 'secure_update_admin_credentials',
      input: updateCredentialsInputSchema,
      admin: true,
      audit: {
        entries: ({ input, outcome, actor }) => {
          const newUsername = input.p_new_username.trim()
          if (!outcome.ok) {
            return outcome.error instanceof AppError
              ? [{ action: 'credentials_change_failed', actor, details: { reason: outcome.error.message } }]
              : []
          }
          if (outcome.result.success !== true) {
            const reason = String(outcome.result.error ?? '')
            return [{ action: 'credentials_change_failed', actor, details: { reason } }]
          }
          return [
            {
              action: 'credentials_change',
              actor,
              details: { username_changed: newUsername !== actor, new_username: newUsername },
            },
          ]
        },
      },
      handler: async (input, { request }) => {
        const session = sessionOf(request)
        if (input.p_confirm_password !== undefined && input.p_confirm_password !== input.p_new_password) {
          return { success: false, error: adminMessages.passwordsDoNotMatch }
        }
        const user = await checkCurrentPassword(db, session.userId, input.p_current_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        await clearPasswordAttempts(db, user.id)
        await db
          .update(adminUsers)
          .set({
            username: input.p_new_username,
            passwordHash: await hashPassword(input.p_new_password),
            updatedAt: new Date(),
          })
          .where(eq(adminUsers.id, user.id))
        await endOtherSessions(db, user.id, session.tokenHash)
        request.log.info({ ip: request.ip, username: input.p_new_username }, 'admin credentials changed')
        return { success: true }
      },
    }),
    ...twoFactorRpcs(db),
  ]
}
