import { eq } from 'drizzle-orm'
import {
  AUDIT_PAGE_SIZE,
  fetchAuditLogInputSchema,
  updateStockSettingsInputSchema,
} from '../../shared/cockpit'
import { adminKeyField, emptyPayloadSchema } from '../../shared/rpc'
import { listAudit, recordAudit } from '../audit/audit-log'
import type { CatalogService } from '../catalog/catalog.service'
import type { Database } from '../db/client'
import { products } from '../db/schema'
import type { ShopHealth } from '../payments/payments-health'
import { defineRpc } from '../rpc'
import { sessionOf } from './admin-auth'
import { dashboard } from './dashboard.repo'

export interface CockpitDeps {
  database: Database
  catalog: CatalogService
  /** The shop's health figures (payments-health.ts). */
  health: ShopHealth
}

const adminOnly = emptyPayloadSchema.extend(adminKeyField).strict()

/** Admin calls of the cockpit: the dashboard, the audit log, stock settings per product. */
export function cockpitRpcs({ database, catalog, health }: CockpitDeps) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_sales_dashboard',
      input: adminOnly,
      admin: true,
      handler: async () => dashboard(db, { health }),
    }),
    defineRpc({
      name: 'secure_fetch_audit_log',
      input: fetchAuditLogInputSchema,
      admin: true,
      handler: async (input) =>
        listAudit(db, {
          action: input.p_action,
          from: input.p_from ? new Date(input.p_from) : undefined,
          to: input.p_to ? new Date(input.p_to) : undefined,
          page: input.p_page ?? 1,
          pageSize: AUDIT_PAGE_SIZE,
        }),
    }),
    defineRpc({
      name: 'secure_update_stock_settings',
      input: updateStockSettingsInputSchema,
      admin: true,
      handler: async (input, { request }) => {
        const [before] = await db
          .select({ mode: products.deliveryMode, threshold: products.lowStockThreshold })
          .from(products)
          .where(eq(products.id, input.p_product_id))
        if (!before) return { success: false, error: `Product ${input.p_product_id} not found` }
        await db
          .update(products)
          .set({
            deliveryMode: input.p_delivery_mode,
            lowStockThreshold: input.p_low_stock_threshold,
            updatedAt: new Date(),
          })
          .where(eq(products.id, input.p_product_id))
        catalog.invalidate()
        await recordAudit(db, request, {
          action: 'product_stock_settings',
          actor: sessionOf(request).username,
          target: input.p_product_id,
          details: {
            delivery_mode: { from: before.mode, to: input.p_delivery_mode },
            low_stock_threshold: { from: before.threshold, to: input.p_low_stock_threshold },
          },
        })
        return { success: true }
      },
    }),
  ]
}
