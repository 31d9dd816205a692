import { KeyRound, Search } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import type { DashboardLicence } from '../../../shared/dashboard'
import { type AdminLicence, setLicenceTermsInputSchema } from '../../../shared/licences'
import { Button } from '../../components/ui/button'
import { type MessageId, useT } from '../../i18n/i18n'
import { useSchemaForm } from '../../lib/form'
import { toast } from '../../lib/toast'
import { ConfirmDialog } from './components/confirm-dialog'
import { Field, Panel, TextInput } from './components/fields'
import {
  useLicences,
  useResetLicence,
  useRotateSigningKey,
  useSetLicenceDisabled,
  useSetLicenceTerms,
} from './licences/api/licences'
import { useOrderFormat } from './orders-format'

// The operator's Licences view: sold keys found by key, e-mail or order; each key's activations;
// disable or enable it, free its seats, change its limit or expiry; rotate the token signing key.

const statusStyle: Record<DashboardLicence['status'], { label: MessageId; className: string }> = {
  inactive: { label: 'admin.licences.status.inactive', className: 'border-line bg-white/5 text-muted' },
  active: {
    label: 'admin.licences.status.active',
    className: 'border-emerald-400/30 bg-emerald-400/10 text-emerald-300',
  },
  expired: {
    label: 'admin.licences.status.expired',
    className: 'border-amber-400/30 bg-amber-400/10 text-amber-300',
  },
  disabled: {
    label: 'admin.licences.status.disabled',
    className: 'border-red-400/30 bg-red-400/10 text-red-300',
  },
}

/** Why an order disabled its keys, in words; another module's reason is shown as it is. */
const orderReasons: Record<string, MessageId> = {
  cancelled: 'admin.licences.reason.cancelled',
  refunded: 'admin.licences.reason.refunded',
}

const termsFormSchema = setLicenceTermsInputSchema.pick({ p_activation_limit: true, p_expires_at: true })
const orNull = (text: string) => (text.trim() === '' ? null : text.trim())

function TermsForm({ licence, onDone }: { licence: AdminLicence; onDone: () => void }) {
  const t = useT()
  const save = useSetLicenceTerms()
  const form = useSchemaForm({
    schema: termsFormSchema,
    initial: {
      p_activation_limit: licence.activation_limit?.toString() ?? '',
      p_expires_at: licence.expires_at?.slice(0, 10) ?? '',
    },
    toInput: (v) => {
      const limit = orNull(v.p_activation_limit)
      return {
        p_activation_limit: limit === null ? null : Number(limit),
        p_expires_at: orNull(v.p_expires_at),
      }
    },
    onValid: (v) =>
      save.mutate(
        { id: licence.id, limit: v.p_activation_limit, expiresAt: v.p_expires_at },
        {
          onSuccess: () => {
            toast.success(t('admin.licences.termsSaved'))
            onDone()
          },
        },
      ),
  })
  return (
    <form
      {...form.formProps}
      className="mt-4 grid gap-3 rounded-xl border border-line p-4 sm:grid-cols-[1fr_1fr_auto]"
    >
      <Field
        label={t('admin.licences.limit')}
        hint={t('admin.licences.limitHint')}
        error={form.errors.p_activation_limit}
      >
        <TextInput
          inputMode="numeric"
          value={form.values.p_activation_limit}
          onChange={(e) => form.set('p_activation_limit', e.target.value)}
          {...form.control('p_activation_limit')}
        />
      </Field>
      <Field
        label={t('admin.licences.expires')}
        hint={t('admin.licences.expiresHint')}
        error={form.errors.p_expires_at}
      >
        <TextInput
          type="date"
          value={form.values.p_expires_at}
          onChange={(e) => form.set('p_expires_at', e.target.value)}
          {...form.control('p_expires_at')}
        />
      </Field>
      <div className="flex items-end gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('admin.saving') : t('admin.save')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('admin.licences.cancel')}
        </Button>
      </div>
    </form>
  )
}

function LicenceCard({ licence }: { licence: AdminLicence }) {
  const t = useT()
  const fmt = useOrderFormat()
  const [editing, setEditing] = useState(false)
  const [confirmReset, setConfirmReset] = useState(false)
  const toggle = useSetLicenceDisabled()
  const reset = useResetLicence()
  const status = statusStyle[licence.status]
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-fg">{licence.key}</p>
          <p className="mt-1 text-xs text-muted">
            {licence.product_name} · {licence.email ?? '—'} ·{' '}
            <span className="font-mono">{licence.order_id}</span>
          </p>
          <p className="mt-1 text-xs text-muted">
            {t('admin.licences.sold', { date: fmt.date(licence.sold_at) })} ·{' '}
            {licence.expires_at
              ? t('admin.licences.expiresOn', { date: fmt.date(licence.expires_at) })
              : t('admin.licences.neverExpires')}
          </p>
        </div>
        <span
          className={`shrink-0 rounded-full border px-2.5 py-0.5 text-xs font-medium ${status.className}`}
        >
          {t(status.label)}
        </span>
      </div>
      {licence.status === 'disabled' && !licence.disabled_by_operator && licence.order_disabled_reason && (
        <p className="mt-2 text-xs text-red-300">
          {t('admin.licences.disabledByOrder', {
            reason:
              licence.order_disabled_reason in orderReasons
                ? t(orderReasons[licence.order_disabled_reason] as MessageId)
                : licence.order_disabled_reason,
          })}
        </p>
      )}
      <p className="mt-3 text-sm text-fg">
        {licence.activation_limit === null
          ? t('admin.licences.usageUnlimited', { used: licence.activation_usage })
          : t('admin.licences.usage', { used: licence.activation_usage, limit: licence.activation_limit })}
      </p>
      {licence.instances.length > 0 && (
        <ul className="mt-2 space-y-1 text-xs text-muted" aria-label={t('admin.licences.activations')}>
          {licence.instances.map((instance) => (
            <li key={instance.id} className="flex flex-wrap gap-x-3">
              <span className="text-fg">{instance.name}</span>
              <span>{fmt.date(instance.created_at)}</span>
              <span className="font-mono">{instance.id}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant={licence.disabled_by_operator ? 'secondary' : 'danger'}
          disabled={toggle.isPending}
          onClick={() => toggle.mutate(licence)}
        >
          {licence.disabled_by_operator ? t('admin.licences.enable') : t('admin.licences.disable')}
        </Button>
        <Button
          variant="secondary"
          disabled={licence.activation_usage === 0 || reset.isPending}
          onClick={() => setConfirmReset(true)}
        >
          {t('admin.licences.reset')}
        </Button>
        <Button variant="ghost" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          {t('admin.licences.editTerms')}
        </Button>
      </div>
      {editing && <TermsForm licence={licence} onDone={() => setEditing(false)} />}
      <ConfirmDialog
        open={confirmReset}
        title={t('admin.licences.resetTitle')}
        message={t('admin.licences.resetConfirm', { count: licence.activation_usage, key: licence.key })}
        confirmLabel={t('admin.licences.reset')}
        busy={reset.isPending}
        onConfirm={() => reset.mutate(licence, { onSettled: () => setConfirmReset(false) })}
        onClose={() => setConfirmReset(false)}
      />
    </li>
  )
}

export function LicencesTab() {
  const t = useT()
  const [typed, setTyped] = useState('')
  const [search, setSearch] = useState('')
  const [confirmRotate, setConfirmRotate] = useState(false)
  const query = useLicences(search)
  const rotate = useRotateSigningKey()
  const licences = query.data?.licences ?? []
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSearch(typed.trim())
  }
  return (
    <Panel
      title={t('admin.licences.title')}
      actions={
        <Button variant="secondary" onClick={() => setConfirmRotate(true)}>
          <KeyRound className="size-4" aria-hidden />
          {t('admin.licences.rotate')}
        </Button>
      }
    >
      <p className="mb-4 text-sm text-muted">{t('admin.licences.intro')}</p>
      <search>
        <form onSubmit={submit} className="flex gap-2">
          <TextInput
            aria-label={t('admin.licences.search')}
            placeholder={t('admin.licences.searchPlaceholder')}
            value={typed}
            maxLength={200}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit">
            <Search className="size-4" aria-hidden />
            <span className="sr-only sm:not-sr-only">{t('admin.licences.find')}</span>
          </Button>
        </form>
      </search>
      {query.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          {t('admin.loading')}
        </p>
      ) : licences.length === 0 ? (
        <p className="py-10 text-center text-muted">{t('admin.licences.none')}</p>
      ) : (
        <ul className="mt-2 flex flex-col divide-y divide-line" aria-label={t('admin.licences.title')}>
          {licences.map((licence) => (
            <LicenceCard key={licence.id} licence={licence} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirmRotate}
        title={t('admin.licences.rotateTitle')}
        message={t('admin.licences.rotateConfirm')}
        confirmLabel={t('admin.licences.rotate')}
        busy={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: () => toast.success(t('admin.licences.rotated')),
            onSettled: () => setConfirmRotate(false),
          })
        }
        onClose={() => setConfirmRotate(false)}
      />
    </Panel>
  )
}
