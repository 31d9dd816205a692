import {
  basisPointsToText,
  countFromText,
  type DiscountCodeRow,
  hundredthsFromText,
} from '../../../../shared/discounts'
import { formatCents } from '../../../../shared/money'
import type { MessageId } from '../../../i18n/i18n'

// The discount form's values as the admin types them, and how they become the call's integers.

/** The form's values: what the admin types, turned into the call's integers by toInput. */
export interface DiscountForm {
  id: number | null
  code: string
  kind: 'percent' | 'fixed'
  percent: string
  amount: string
  minTotal: string
  maxDiscount: string
  productIds: number[]
  startsAt: string
  endsAt: string
  maxUses: string
  maxUsesPerEmail: string
  disabled: boolean
}

export const blank: DiscountForm = {
  id: null,
  code: '',
  kind: 'percent',
  percent: '',
  amount: '',
  minTotal: '',
  maxDiscount: '',
  productIds: [],
  startsAt: '',
  endsAt: '',
  maxUses: '',
  maxUsesPerEmail: '',
  disabled: false,
}

const centsText = (cents: number | null) => (cents === null ? '' : formatCents(cents))
/** An ISO time as a datetime-local value in the admin's own time zone. */
function localInput(iso: string | null): string {
  if (!iso) return ''
  const d = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}
const isoOf = (local: string) => {
  if (local === '') return null
  const time = new Date(local)
  return Number.isNaN(time.getTime()) ? local : time.toISOString()
}

export function formOf(code: DiscountCodeRow): DiscountForm {
  return {
    id: code.id,
    code: code.code,
    kind: code.kind,
    percent: basisPointsToText(code.percent_bp),
    amount: centsText(code.amount_cents),
    minTotal: centsText(code.min_total_cents),
    maxDiscount: centsText(code.max_discount_cents),
    productIds: code.product_ids ?? [],
    startsAt: localInput(code.starts_at),
    endsAt: localInput(code.ends_at),
    maxUses: code.max_uses === null ? '' : String(code.max_uses),
    maxUsesPerEmail: code.max_uses_per_email === null ? '' : String(code.max_uses_per_email),
    disabled: code.disabled,
  }
}

export const toInput = (v: DiscountForm) => ({
  ...(v.id !== null ? { p_id: v.id } : {}),
  p_code: v.code,
  p_kind: v.kind,
  p_percent_bp: v.kind === 'percent' ? hundredthsFromText(v.percent) : null,
  p_amount_cents: v.kind === 'fixed' ? hundredthsFromText(v.amount) : null,
  p_min_total_cents: hundredthsFromText(v.minTotal),
  p_max_discount_cents: hundredthsFromText(v.maxDiscount),
  p_product_ids: v.productIds.length > 0 ? v.productIds : null,
  p_starts_at: isoOf(v.startsAt),
  p_ends_at: isoOf(v.endsAt),
  p_max_uses: countFromText(v.maxUses),
  p_max_uses_per_email: countFromText(v.maxUsesPerEmail),
  p_disabled: v.disabled,
})

/** The schema's fields are the call's; the form shows each error at the control that made it. */
export const fieldNames: Record<string, keyof DiscountForm> = {
  p_code: 'code',
  p_percent_bp: 'percent',
  p_amount_cents: 'amount',
  p_min_total_cents: 'minTotal',
  p_max_discount_cents: 'maxDiscount',
  p_product_ids: 'productIds',
  p_starts_at: 'startsAt',
  p_ends_at: 'endsAt',
  p_max_uses: 'maxUses',
  p_max_uses_per_email: 'maxUsesPerEmail',
}

export function statusOf(code: DiscountCodeRow, now: number): { label: MessageId; tone: string } {
  if (code.disabled) return { label: 'admin.discounts.status.disabled', tone: 'bg-white/10 text-muted' }
  if (code.ends_at && Date.parse(code.ends_at) <= now)
    return { label: 'admin.discounts.status.expired', tone: 'bg-white/10 text-muted' }
  if (code.starts_at && Date.parse(code.starts_at) > now)
    return { label: 'admin.discounts.status.scheduled', tone: 'bg-sky-500/15 text-sky-300' }
  if (code.max_uses !== null && code.uses >= code.max_uses)
    return { label: 'admin.discounts.status.usedUp', tone: 'bg-amber-500/15 text-amber-300' }
  return { label: 'admin.discounts.status.active', tone: 'bg-emerald-500/15 text-emerald-300' }
}
