import type { z } from 'zod'
import {
  AUDIT_PAGE_SIZE,
  fetchAuditLogInputSchema,
  updateStockSettingsInputSchema,
} from '../../shared/cockpit'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { listAudit, onSuccess } from '../audit/audit-log'
import type { CatalogService } from '../catalog/catalog.service'
import { type StockSettings, stockSettingsOf, updateStockSettings } from '../catalog/catalog-admin.repo'
import type { Database } from '../db/client'
import type { ShopHealth } from '../payments/payments-health'
import { defineRpc } from '../rpc'
import { salesFigures } from './sales.repo'

export interface CockpitDeps {
  database: Database
  catalog: CatalogService
  /** The shop's health figures (payments-health.ts). */
  health: ShopHealth
}

/** Admin calls of the cockpit: the sales figures, the audit log, stock settings per product. */
export function cockpitRpcs({ database, catalog, health }: CockpitDeps) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_sales',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => salesFigures(db, { health }),
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
      audit: {
        before: (db, input) => stockSettingsOf(db, input.p_product_id),
        entries: onSuccess<z.infer<typeof updateStockSettingsInputSchema>, StockSettings | null>(
          ({ input, actor, before }) => ({
            action: 'product_stock_settings',
            actor,
            target: input.p_product_id,
            details: {
              delivery_mode: { from: before?.mode, to: input.p_delivery_mode },
              low_stock_threshold: { from: before?.threshold, to: input.p_low_stock_threshold },
              ...(input.p_licence_activation_limit === undefined
                ? {}
                : {
                    licence_activation_limit: {
                      from: before?.licenceLimit,
                      to: input.p_licence_activation_limit,
                    },
                  }),
              ...(input.p_licence_validity_days === undefined
                ? {}
                : {
                    licence_validity_days: { from: before?.licenceDays, to: input.p_licence_validity_days },
                  }),
            },
          }),
        ),
      },
      handler: async (input) => {
        const updated = await updateStockSettings(db, input.p_product_id, {
          mode: input.p_delivery_mode,
          threshold: input.p_low_stock_threshold,
          licenceLimit: input.p_licence_activation_limit,
          licenceDays: input.p_licence_validity_days,
        })
        if (!updated) return { success: false, error: `Product ${input.p_product_id} not found` }
        catalog.invalidate()
        return { success: true }
      },
    }),
  ]
}
