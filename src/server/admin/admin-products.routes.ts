import {
  adminMessages,
  deleteProductInputSchema,
  manageProductInputSchema,
  productInputSchema,
} from '../../shared/admin'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import type { AuditRecord } from '../audit/audit-log'
import { changedKeys, onSuccess } from '../audit/audit-log'
import { productFormFields } from '../catalog/catalog.repo'
import { deleteProduct, listAdminProducts, saveProduct } from '../catalog/catalog-admin.repo'
import { AppError } from '../errors'
import { addKeyStock, countKeyStock, parseKeyLines } from '../keys/key-stock'
import { defineRpc, describeZodError } from '../rpc'
import type { AdminDeps } from './admin.routes'

// The admin's products: list with key stock, add or edit (with keys to add), delete. The catalogue
// module (catalog-admin.repo.ts) writes `products`; the keys module the stock.

export function adminProductRpcs({ database, catalog }: Pick<AdminDeps, 'database' | 'catalog'>) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_admin_products',
      input: adminOnlyPayloadSchema,
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
  ]
}
