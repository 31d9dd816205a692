import { eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { productInputSchema } from '../../shared/admin'
import { saveDiscountInputSchema } from '../../shared/discounts'
import { centsToDollars } from '../../shared/money'
import { mergeSiteContent } from '../../shared/site-content'
import { parseWalletAddressLines } from '../../shared/wallet-addresses'
import { type AuditRecord, recordAudit } from '../audit/audit-log'
import { toProduct } from '../catalog/catalog.repo'
import { readStoredContent } from '../content/content.repo'
import type { Db } from '../db/client'
import { orders, products } from '../db/schema'
import { discountFieldsOf, findDiscount } from '../discounts/discounts.repo'
import { AppError } from '../errors'
import type { RpcDefinition } from '../rpc'
import { findSession, sessionOf } from './admin-auth'

// Records the admin calls in the audit log without touching their handlers: each audited call has
// a hook that may look at the state before the call (the status an order had, the product's fields)
// and turns the call's outcome into entries. Reads are not recorded.

type Input = Record<string, unknown>
type Outcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: unknown }

interface AuditHook {
  before?: (db: Db, input: Input, request: FastifyRequest) => Promise<unknown>
  after: (input: Input, outcome: Outcome, request: FastifyRequest, before: unknown) => AuditRecord[]
}

const actorOf = (request: FastifyRequest) => {
  try {
    return sessionOf(request).username
  } catch {
    return 'unknown'
  }
}

const succeeded = (outcome: Outcome): outcome is { ok: true; result: Record<string, unknown> } =>
  outcome.ok && outcome.result.success === true

/** One entry, on success only. */
const onSuccess =
  (make: (input: Input, result: Record<string, unknown>, actor: string, before: unknown) => AuditRecord) =>
  (input: Input, outcome: Outcome, request: FastifyRequest, before: unknown): AuditRecord[] =>
    succeeded(outcome) ? [make(input, outcome.result, actorOf(request), before)] : []

/** Product fields as the product form names them (the catalogue's own mapping), to say which changed. */
function productFields(row: typeof products.$inferSelect | undefined): Record<string, unknown> | undefined {
  if (!row) return undefined
  const { id: _id, has_details: _details, created_at: _created, ...fields } = toProduct(row)
  return fields
}

function discountFieldsOfInput(input: Input): Record<string, unknown> {
  const parsed = saveDiscountInputSchema.safeParse(input)
  if (!parsed.success) return {}
  const v = parsed.data
  const iso = (at: string | null) => (at ? new Date(at).toISOString() : null)
  return {
    code: v.p_code,
    kind: v.p_kind,
    percent_bp: v.p_kind === 'percent' ? v.p_percent_bp : null,
    amount_cents: v.p_kind === 'fixed' ? v.p_amount_cents : null,
    min_total_cents: v.p_min_total_cents,
    max_discount_cents: v.p_max_discount_cents,
    product_ids: v.p_product_ids && v.p_product_ids.length > 0 ? [...new Set(v.p_product_ids)] : null,
    starts_at: iso(v.p_starts_at),
    ends_at: iso(v.p_ends_at),
    max_uses: v.p_max_uses,
    max_uses_per_email: v.p_max_uses_per_email,
    disabled: v.p_disabled,
  }
}

function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter(
    (key) => after[key] !== undefined && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  )
}

const auditHooks: Record<string, AuditHook> = {
  // Integrations and account security: what changed, never a secret, a token or a code.
  secure_save_webhook: {
    after: onSuccess((input, result, actor) => ({
      action: input.p_id ? 'webhook_update' : 'webhook_add',
      actor,
      target: String(input.p_id ?? result.id ?? ''),
      details: {
        url: String(input.p_url ?? ''),
        events: input.p_events ?? [],
        include_keys: input.p_include_keys ?? null,
        enabled: input.p_enabled ?? null,
      },
    })),
  },
  secure_delete_webhook: {
    after: onSuccess((input, _result, actor) => ({
      action: 'webhook_delete',
      actor,
      target: String(input.p_id),
    })),
  },
  secure_resend_webhook: {
    after: onSuccess((input, _result, actor) => ({
      action: 'webhook_resend',
      actor,
      target: String(input.p_delivery_id),
    })),
  },
  secure_update_settings: {
    after: onSuccess((input, _result, actor) => ({
      action: 'settings_update',
      actor,
      details: { fields: Object.keys((input.p_settings ?? {}) as Record<string, unknown>) },
    })),
  },
  secure_admin_2fa_enable: {
    after: onSuccess((_input, _result, actor) => ({ action: 'two_factor_enable', actor })),
  },
  secure_admin_2fa_disable: {
    after: onSuccess((_input, _result, actor) => ({ action: 'two_factor_disable', actor })),
  },
  secure_admin_login: {
    after: (input, outcome) => {
      const actor = String(input.p_username ?? '').trim()
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
  secure_admin_logout: {
    before: (db, _input, request) => findSession(db, request),
    after: (_input, outcome, _request, before) => {
      const session = before as { username: string } | null
      return outcome.ok && session ? [{ action: 'logout', actor: session.username }] : []
    },
  },
  secure_update_order_status: {
    before: async (db, input) => {
      const [row] = await db
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, String(input.p_order_id)))
      return row?.status ?? null
    },
    after: onSuccess((input, _result, actor, before) => ({
      action: 'order_status',
      actor,
      target: String(input.p_order_id),
      details: { from: before, to: input.p_status },
    })),
  },
  secure_delete_order: {
    before: async (db, input) => {
      const [row] = await db
        .select({ status: orders.status, totalCents: orders.totalCents })
        .from(orders)
        .where(eq(orders.id, String(input.p_order_id)))
      return row ?? null
    },
    after: onSuccess((input, _result, actor, before) => {
      const row = before as { status: string; totalCents: number } | null
      return {
        action: 'order_delete',
        actor,
        target: String(input.p_order_id),
        details: row ? { status: row.status, total: centsToDollars(row.totalCents) } : {},
      }
    }),
  },
  secure_resend_order_email: {
    after: onSuccess((input, result, actor) => ({
      action: 'mail_resend',
      actor,
      target: String(input.p_order_id),
      details: { queued: result.queued },
    })),
  },
  secure_assign_payment: {
    after: onSuccess((input, _result, actor) => ({
      action: 'payment_assign',
      actor,
      target: String(input.p_order_id),
      details: { payment_id: input.p_payment_id },
    })),
  },
  secure_review_held_order: {
    after: onSuccess((input, result, actor) => ({
      action: 'order_review',
      actor,
      target: String(input.p_order_id),
      details: { decision: input.p_decision, paid: result.paid },
    })),
  },
  secure_manage_product: {
    before: async (db, input) => {
      const id = (input.p_product as { id?: unknown } | null)?.id
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return undefined
      const [row] = await db.select().from(products).where(eq(products.id, id))
      return productFields(row)
    },
    after: (input, outcome, request, before) => {
      if (!succeeded(outcome)) return []
      const actor = actorOf(request)
      const target = outcome.result.product_id as number
      const parsed = productInputSchema.safeParse(input.p_product)
      const after = parsed.success ? (parsed.data as Record<string, unknown>) : {}
      const entries: AuditRecord[] = []
      const previous = before as Record<string, unknown> | undefined
      if (previous) {
        const fields = changedKeys(previous, after).filter((key) => key !== 'id' && key !== 'has_details')
        if (fields.length) entries.push({ action: 'product_update', actor, target, details: { fields } })
      } else if (parsed.success && parsed.data.id === undefined) {
        entries.push({ action: 'product_create', actor, target, details: { name: parsed.data.name } })
      }
      const added = Number(outcome.result.keys_added ?? 0)
      if (typeof input.p_keys === 'string' && input.p_keys.trim() !== '') {
        // How many, never which: the keys themselves stay out of the log.
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
  secure_delete_product: {
    before: async (db, input) => {
      const [row] = await db
        .select({ name: products.name })
        .from(products)
        .where(eq(products.id, Number(input.p_product_id)))
      return row?.name ?? null
    },
    after: onSuccess((input, _result, actor, before) => ({
      action: 'product_delete',
      actor,
      target: Number(input.p_product_id),
      details: { name: before },
    })),
  },
  secure_add_wallet_addresses: {
    after: onSuccess((input, result, actor) => {
      const parsed = parseWalletAddressLines(input.p_addresses as string | string[])
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
  secure_remove_wallet_address: {
    after: onSuccess((input, _result, actor) => ({
      action: 'wallet_remove',
      actor,
      details: { removed: 1, addresses: [input.p_address] },
    })),
  },
  secure_remove_wallet_addresses: {
    after: (input, outcome, request) => {
      if (!outcome.ok || Number(outcome.result.removed_count ?? 0) === 0) return []
      const inUse = new Set((outcome.result.in_use as string[] | undefined) ?? [])
      const removed = [...new Set(input.p_addresses as string[])].filter((a) => !inUse.has(a))
      return [
        {
          action: 'wallet_remove',
          actor: actorOf(request),
          details: { removed: outcome.result.removed_count, addresses: removed.slice(0, 100) },
        },
      ]
    },
  },
  secure_save_discount: {
    before: async (db, input) => {
      if (typeof input.p_id !== 'number' || !Number.isInteger(input.p_id) || input.p_id <= 0) return undefined
      const row = await findDiscount(db, input.p_id)
      return row ? discountFieldsOf(row) : undefined
    },
    after: onSuccess((input, result, actor, before) => {
      const after = discountFieldsOfInput(input)
      const previous = before as Record<string, unknown> | undefined
      return previous
        ? {
            action: 'discount_update',
            actor,
            target: String(result.id),
            details: { code: after.code, fields: changedKeys(previous, after) },
          }
        : { action: 'discount_create', actor, target: String(result.id), details: after }
    }),
  },
  secure_set_discount_disabled: {
    after: onSuccess((input, _result, actor) => ({
      action: input.p_disabled ? 'discount_disable' : 'discount_enable',
      actor,
      target: String(input.p_id),
    })),
  },
  secure_update_site_content: {
    before: async (db) => mergeSiteContent(await readStoredContent(db)),
    after: onSuccess((input, _result, actor, before) => {
      const previous = (before ?? {}) as Record<string, unknown>
      const next = (input.p_content ?? {}) as Record<string, unknown>
      return { action: 'content_update', actor, details: { fields: changedKeys(previous, next) } }
    }),
  },
  secure_update_admin_credentials: {
    after: (input, outcome, request) => {
      const actor = actorOf(request)
      const newUsername = String(input.p_new_username ?? '').trim()
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
}

/**
 * Wraps the admin calls so that each audited one records its entries after it ran. A failing audit
 * write is logged, never turned into a failed action (the action has already happened).
 */
export function withAudit(db: Db, defs: RpcDefinition[]): RpcDefinition[] {
  return defs.map((def) => {
    const hook = auditHooks[def.name]
    if (!hook) return def
    return {
      ...def,
      handler: async (input, ctx) => {
        // A look at the state before must never fail the call itself (the handler validates input
        // its own way, e.g. an id out of range is its 400 to give, not the audit's 500).
        const before = hook.before
          ? await hook.before(db, input as Input, ctx.request).catch(() => undefined)
          : undefined
        let outcome: Outcome
        let result: unknown
        try {
          result = await def.handler(input, ctx)
          outcome = { ok: true, result: (result ?? {}) as Record<string, unknown> }
        } catch (error) {
          outcome = { ok: false, error }
        }
        try {
          for (const entry of hook.after(input as Input, outcome, ctx.request, before)) {
            await recordAudit(db, ctx.request, entry)
          }
        } catch (error) {
          ctx.request.log.error({ err: error, call: def.name }, 'audit log write failed')
        }
        if (!outcome.ok) throw outcome.error
        return result
      },
    }
  })
}
