import {
  checkDiscountInputSchema,
  discountAdminMessages,
  saveDiscountInputSchema,
  setDiscountDisabledInputSchema,
} from '../../shared/discounts'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { changedKeys, onSuccess } from '../audit/audit-log'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { refusal, refused } from '../i18n/refusals'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { priceCart } from '../orders/order-pricing'
import { defineRpc } from '../rpc'
import {
  discountFieldsOf,
  discountFieldsOfInput,
  findDiscount,
  listDiscounts,
  previewDiscount,
  saveDiscount,
  setDiscountDisabled,
} from './discounts.repo'

const MINUTE = 60_000
/** Checks one client may make a minute: enough for a buyer, too few to guess codes. */
const CHECKS_PER_MINUTE = 20

export function discountRpcs(database: Database) {
  const { db } = database
  const checks = createWindowLimiter({ limit: CHECKS_PER_MINUTE, windowMs: MINUTE })
  return [
    defineRpc({
      name: 'secure_check_discount',
      input: checkDiscountInputSchema,
      handler: async (input, { request }) => {
        const wait = checks.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('tooManyAttempts'), wait)
        const { items, totalCents } = await priceCart(db, input.p_items)
        const found = await previewDiscount(db, { code: input.p_code, email: input.p_email, items })
        if (!found) return refused('discount.unknown')
        if (!found.verdict.ok) return refused(found.verdict.error)
        return {
          success: true,
          code: found.row.code,
          subtotal_cents: totalCents,
          discount_cents: found.verdict.discountCents,
          total_cents: totalCents - found.verdict.discountCents,
        }
      },
    }),
    defineRpc({
      name: 'secure_fetch_discounts',
      admin: true,
      input: adminOnlyPayloadSchema,
      handler: async () => ({ success: true, codes: await listDiscounts(db) }),
    }),
    defineRpc({
      name: 'secure_save_discount',
      admin: true,
      input: saveDiscountInputSchema,
      audit: {
        before: async (db, input) => {
          if (input.p_id === undefined || input.p_id === null) return undefined
          const row = await findDiscount(db, input.p_id)
          return row ? discountFieldsOf(row) : undefined
        },
        entries: onSuccess(({ input, result, actor, before }) => {
          const after = discountFieldsOfInput(input)
          return before
            ? {
                action: 'discount_update',
                actor,
                target: String(result.id),
                details: { code: after.code, fields: changedKeys(before, after) },
              }
            : { action: 'discount_create', actor, target: String(result.id), details: after }
        }),
      },
      handler: async (input) => ({ success: true, id: await saveDiscount(db, input) }),
    }),
    defineRpc({
      name: 'secure_set_discount_disabled',
      admin: true,
      input: setDiscountDisabledInputSchema,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: input.p_disabled ? 'discount_disable' : 'discount_enable',
          actor,
          target: String(input.p_id),
        })),
      },
      handler: async (input) => {
        if (!(await setDiscountDisabled(db, input.p_id, input.p_disabled)))
          throw new AppError('not_found', discountAdminMessages.notFound)
        return { success: true }
      },
    }),
  ]
}
