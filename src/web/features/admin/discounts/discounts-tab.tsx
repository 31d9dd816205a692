import { Pencil, Plus, X } from 'lucide-react'
import { useState } from 'react'
import {
  basisPointsToText,
  countFromText,
  type DiscountCodeRow,
  hundredthsFromText,
  saveDiscountInputSchema,
} from '../../../../shared/discounts'
import { formatCents } from '../../../../shared/money'
import { Button } from '../../../components/ui/button'
import { type MessageId, useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Field, Panel, TextInput } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { useAdminProducts } from '../products/api/products'
import { useDiscountCodes, useSaveDiscount, useSetDiscountDisabled } from './api/discounts'

/** The form's values: what the admin types, turned into the call's integers by toInput. */
interface DiscountForm {
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

const blank: DiscountForm = {
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

function formOf(code: DiscountCodeRow): DiscountForm {
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

const toInput = (v: DiscountForm) => ({
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
const fieldNames: Record<string, keyof DiscountForm> = {
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

function statusOf(code: DiscountCodeRow, now: number): { label: MessageId; tone: string } {
  if (code.disabled) return { label: 'admin.discounts.status.disabled', tone: 'bg-white/10 text-muted' }
  if (code.ends_at && Date.parse(code.ends_at) <= now)
    return { label: 'admin.discounts.status.expired', tone: 'bg-white/10 text-muted' }
  if (code.starts_at && Date.parse(code.starts_at) > now)
    return { label: 'admin.discounts.status.scheduled', tone: 'bg-sky-500/15 text-sky-300' }
  if (code.max_uses !== null && code.uses >= code.max_uses)
    return { label: 'admin.discounts.status.usedUp', tone: 'bg-amber-500/15 text-amber-300' }
  return { label: 'admin.discounts.status.active', tone: 'bg-emerald-500/15 text-emerald-300' }
}

/** Discount codes: create, edit, disable; each with its uses and the revenue of its paid orders. */
export function DiscountsTab() {
  const t = useT()
  const { usd } = useFormat()
  const money = (cents: number) => usd(cents / 100)
  const codes = useDiscountCodes()
  const products = useAdminProducts()
  const [editing, setEditing] = useState<string | null>(null)
  const save = useSaveDiscount()
  const toggle = useSetDiscountDisabled()

  const form = useSchemaForm({
    schema: saveDiscountInputSchema,
    initial: blank,
    toInput,
    fieldOf: (path) => fieldNames[String(path[0])] ?? String(path[0]),
    message: (issue) => (issue.code === 'invalid_type' ? t('admin.discounts.enterNumber') : undefined),
    labels: {
      code: t('admin.discounts.code'),
      percent: t('admin.discounts.percentOff'),
      amount: t('admin.discounts.amountOff'),
      minTotal: t('admin.discounts.minTotal'),
      maxDiscount: t('admin.discounts.maxDiscount'),
      startsAt: t('admin.discounts.start'),
      endsAt: t('admin.discounts.end'),
      maxUses: t('admin.discounts.totalUses'),
      maxUsesPerEmail: t('admin.discounts.usesPerEmail'),
    },
    onValid: (input) => {
      if (save.isPending) return
      save.mutate(input, {
        onSuccess: () => {
          toast.success(
            input.p_id
              ? t('admin.discounts.saved', { code: input.p_code })
              : t('admin.discounts.added', { code: input.p_code }),
            { duration: 2000 },
          )
          form.reset(blank)
          setEditing(null)
        },
      })
    },
  })
  const { values, errors } = form
  const { date } = useOrderFormat()
  const now = Date.now()
  const paidProducts = (products.data?.products ?? []).filter((p) => !p.is_free && p.price > 0)

  return (
    <div className="grid gap-6">
      <Panel
        title={editing ? t('admin.discounts.edit', { code: editing }) : t('admin.discounts.addTitle')}
        actions={
          editing && (
            <Button
              variant="ghost"
              onClick={() => {
                form.reset(blank)
                setEditing(null)
              }}
            >
              <X className="size-4" aria-hidden /> {t('admin.discounts.cancelEditing')}
            </Button>
          )
        }
      >
        <form {...form.formProps} className="grid max-w-3xl gap-4 sm:grid-cols-2">
          <Field label={t('admin.discounts.code')} hint={t('admin.discounts.codeHint')} error={errors.code}>
            <TextInput
              value={values.code}
              maxLength={40}
              autoComplete="off"
              className="font-mono uppercase"
              onChange={(e) => form.set('code', e.target.value)}
            />
          </Field>
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-fg">{t('admin.discounts.type')}</legend>
            <div className="flex gap-4 pt-2">
              {(['percent', 'fixed'] as const).map((kind) => (
                <label key={kind} className="flex items-center gap-2 text-sm text-fg">
                  <input
                    type="radio"
                    name="discount-kind"
                    checked={values.kind === kind}
                    onChange={() => form.set('kind', kind)}
                  />
                  {kind === 'percent' ? t('admin.discounts.percentage') : t('admin.discounts.fixed')}
                </label>
              ))}
            </div>
          </fieldset>
          {values.kind === 'percent' ? (
            <Field
              label={t('admin.discounts.percentOff')}
              hint={t('admin.discounts.percentHint')}
              error={errors.percent}
            >
              <TextInput
                inputMode="decimal"
                value={values.percent}
                onChange={(e) => form.set('percent', e.target.value)}
              />
            </Field>
          ) : (
            <Field
              label={t('admin.discounts.amountOffUsd')}
              hint={t('admin.discounts.amountHint')}
              error={errors.amount}
            >
              <TextInput
                inputMode="decimal"
                value={values.amount}
                onChange={(e) => form.set('amount', e.target.value)}
              />
            </Field>
          )}
          <Field
            label={t('admin.discounts.maxDiscountUsd')}
            hint={t('admin.discounts.capHint')}
            error={errors.maxDiscount}
          >
            <TextInput
              inputMode="decimal"
              value={values.maxDiscount}
              onChange={(e) => form.set('maxDiscount', e.target.value)}
            />
          </Field>
          <Field
            label={t('admin.discounts.minTotalUsd')}
            hint={t('admin.discounts.optional')}
            error={errors.minTotal}
          >
            <TextInput
              inputMode="decimal"
              value={values.minTotal}
              onChange={(e) => form.set('minTotal', e.target.value)}
            />
          </Field>
          <Field
            label={t('admin.discounts.totalUses')}
            hint={t('admin.discounts.unlimitedHint')}
            error={errors.maxUses}
          >
            <TextInput
              inputMode="numeric"
              value={values.maxUses}
              onChange={(e) => form.set('maxUses', e.target.value)}
            />
          </Field>
          <Field
            label={t('admin.discounts.usesPerEmail')}
            hint={t('admin.discounts.optional')}
            error={errors.maxUsesPerEmail}
          >
            <TextInput
              inputMode="numeric"
              value={values.maxUsesPerEmail}
              onChange={(e) => form.set('maxUsesPerEmail', e.target.value)}
            />
          </Field>
          <Field
            label={t('admin.discounts.start')}
            hint={t('admin.discounts.startHint')}
            error={errors.startsAt}
          >
            <TextInput
              type="datetime-local"
              value={values.startsAt}
              onChange={(e) => form.set('startsAt', e.target.value)}
            />
          </Field>
          <Field label={t('admin.discounts.end')} hint={t('admin.discounts.optional')} error={errors.endsAt}>
            <TextInput
              type="datetime-local"
              value={values.endsAt}
              onChange={(e) => form.set('endsAt', e.target.value)}
            />
          </Field>
          <fieldset className="sm:col-span-2">
            <legend className="mb-1.5 text-sm font-medium text-fg">{t('admin.discounts.appliesTo')}</legend>
            <p className="mb-2 text-xs text-muted">{t('admin.discounts.appliesToHint')}</p>
            <div className="grid max-h-48 gap-2 overflow-y-auto rounded-xl border border-line p-3 sm:grid-cols-2">
              {paidProducts.map((p) => (
                <label key={p.id} className="flex items-center gap-2 text-sm text-fg">
                  <input
                    type="checkbox"
                    checked={values.productIds.includes(p.id)}
                    onChange={(e) =>
                      form.set(
                        'productIds',
                        e.target.checked
                          ? [...values.productIds, p.id]
                          : values.productIds.filter((id) => id !== p.id),
                      )
                    }
                  />
                  <span className="truncate">{p.name}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <label className="flex items-center gap-2 text-sm text-fg sm:col-span-2">
            <input
              type="checkbox"
              checked={values.disabled}
              onChange={(e) => form.set('disabled', e.target.checked)}
            />
            {t('admin.discounts.disabledBox')}
          </label>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {editing ? <Pencil className="size-4" aria-hidden /> : <Plus className="size-4" aria-hidden />}
              {editing ? t('admin.discounts.save') : t('admin.discounts.add')}
            </Button>
          </div>
        </form>
      </Panel>

      <Panel title={t('admin.discounts.listTitle')}>
        {!codes.data ? (
          <p role="status" className="text-sm text-muted">
            {codes.isError ? t('admin.discounts.loadFailed') : t('admin.loading')}
          </p>
        ) : codes.data.codes.length === 0 ? (
          <p className="text-sm text-muted">{t('admin.discounts.empty')}</p>
        ) : (
          <ul className="grid gap-3" aria-label={t('admin.discounts.listLabel')}>
            {codes.data.codes.map((code) => {
              const status = statusOf(code, now)
              const limits = [
                code.min_total_cents !== null
                  ? t('admin.discounts.limit.min', { amount: money(code.min_total_cents) })
                  : null,
                code.max_discount_cents !== null
                  ? t('admin.discounts.limit.max', { amount: money(code.max_discount_cents) })
                  : null,
                code.product_ids
                  ? t('admin.discounts.limit.products', { count: code.product_ids.length })
                  : t('admin.discounts.limit.allProducts'),
                code.starts_at ? t('admin.discounts.limit.from', { date: date(code.starts_at) }) : null,
                code.ends_at ? t('admin.discounts.limit.until', { date: date(code.ends_at) }) : null,
                code.max_uses_per_email !== null
                  ? t('admin.discounts.limit.perEmail', { count: code.max_uses_per_email })
                  : null,
              ].filter(Boolean)
              return (
                <li key={code.id} className="rounded-xl border border-line p-4">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2">
                        <span className="font-mono text-base font-semibold text-fg">{code.code}</span>
                        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${status.tone}`}>
                          {t(status.label)}
                        </span>
                      </p>
                      <p className="mt-1 text-sm text-fg">
                        {code.kind === 'percent'
                          ? t('admin.discounts.percentValue', { percent: basisPointsToText(code.percent_bp) })
                          : t('admin.discounts.amountValue', { amount: money(code.amount_cents ?? 0) })}
                      </p>
                      <p className="mt-1 text-xs text-muted">{limits.join(' · ')}</p>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button
                        variant="secondary"
                        aria-label={t('admin.discounts.edit', { code: code.code })}
                        onClick={() => {
                          form.reset(formOf(code))
                          setEditing(code.code)
                          window.scrollTo({ top: 0, behavior: 'smooth' })
                        }}
                      >
                        {t('admin.discounts.editButton')}
                      </Button>
                      <Button
                        variant="secondary"
                        aria-label={t(
                          code.disabled ? 'admin.discounts.enableCode' : 'admin.discounts.disableCode',
                          {
                            code: code.code,
                          },
                        )}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate(code)}
                      >
                        {code.disabled ? t('admin.discounts.enable') : t('admin.discounts.disable')}
                      </Button>
                    </div>
                  </div>
                  <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-line pt-3 text-sm sm:grid-cols-4">
                    <Figure
                      label={t('admin.discounts.uses')}
                      value={code.max_uses !== null ? `${code.uses} / ${code.max_uses}` : String(code.uses)}
                    />
                    <Figure label={t('admin.discounts.paidOrders')} value={String(code.paid_orders)} />
                    <Figure label={t('admin.discounts.revenue')} value={money(code.revenue_cents)} />
                    <Figure
                      label={t('admin.discounts.discountGiven')}
                      value={money(code.discount_given_cents)}
                    />
                  </dl>
                </li>
              )
            })}
          </ul>
        )}
      </Panel>
    </div>
  )
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-semibold tabular-nums text-fg">{value}</dd>
    </div>
  )
}
