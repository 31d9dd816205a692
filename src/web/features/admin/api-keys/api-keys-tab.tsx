import { Plus } from 'lucide-react'
import { useState } from 'react'
import * as z from 'zod'
import { type ApiKeyScope, apiKeyScopes, createApiKeyInputSchema } from '../../../../shared/api-keys'
import { Button } from '../../../components/ui/button'
import { CopyField } from '../../../components/ui/copy-field'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { Field, Panel, TextInput } from '../components/fields'
import { ShownOnce } from '../components/shown-once'
import { useOrderFormat } from '../lib/orders-format'
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api/api-keys'

// The invoice API's keys (docs/invoice-api.md): the store id carts are set up with, keys made with
// the admin's password and shown once, revoked with the password again.

const revokeSchema = z.object({ p_current_password: z.string().min(1, 'is required').max(200) })

export function ApiKeysTab() {
  const t = useT()
  const fmt = useOrderFormat()
  const keys = useApiKeys()
  const create = useCreateApiKey()
  const revoke = useRevokeApiKey()
  const [made, setMade] = useState<{ label: string; key: string } | null>(null)
  const [revoking, setRevoking] = useState<number | null>(null)

  const form = useSchemaForm({
    schema: createApiKeyInputSchema,
    initial: {
      p_label: '',
      p_scopes: ['btcpay.store.cancreateinvoice', 'btcpay.store.canviewinvoices'] as ApiKeyScope[],
      p_current_password: '',
    },
    labels: { p_label: t('admin.apiKeys.label'), p_current_password: t('admin.apiKeys.password') },
    errors: { p_scopes: { too_small: t('admin.apiKeys.atLeastOne') } },
    onValid: (v) => {
      if (create.isPending) return
      create.mutate(
        { label: v.p_label, scopes: v.p_scopes, password: v.p_current_password },
        {
          onSuccess: (answer) => {
            setMade({ label: v.p_label, key: answer.key })
            form.reset({ ...form.values, p_label: '', p_current_password: '' })
          },
        },
      )
    },
  })
  const revokeForm = useSchemaForm({
    schema: revokeSchema,
    initial: { p_current_password: '' },
    labels: { p_current_password: t('admin.apiKeys.password') },
    onValid: (v) => {
      if (revoking === null || revoke.isPending) return
      revoke.mutate(
        { id: revoking, password: v.p_current_password },
        { onSuccess: () => setRevoking(null), onSettled: () => revokeForm.reset({ p_current_password: '' }) },
      )
    },
  })
  const { values, errors } = form

  return (
    <div className="grid gap-6">
      <Panel title={t('admin.apiKeys.addTitle')}>
        <p className="mb-4 max-w-2xl text-sm text-muted">{t('admin.apiKeys.intro')}</p>
        {keys.data && (
          <div className="mb-6 max-w-2xl">
            <CopyField
              label={t('admin.apiKeys.storeId')}
              value={keys.data.store_id}
              copiedMessage={t('admin.apiKeys.copied')}
              failedMessage={t('admin.apiKeys.copyFailed')}
            />
          </div>
        )}
        <form {...form.formProps} className="grid max-w-2xl gap-4">
          <Field label={t('admin.apiKeys.label')} error={errors.p_label}>
            <TextInput required maxLength={100} {...form.field('p_label')} />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">{t('admin.apiKeys.scopes')}</legend>
            {apiKeyScopes.map((scope) => (
              <label key={scope} className="flex items-center gap-2 font-mono text-sm text-fg">
                <input
                  type="checkbox"
                  checked={values.p_scopes.includes(scope)}
                  onChange={(e) =>
                    form.set(
                      'p_scopes',
                      e.target.checked
                        ? apiKeyScopes.filter((s) => s === scope || values.p_scopes.includes(s))
                        : values.p_scopes.filter((s) => s !== scope),
                    )
                  }
                  {...form.control('p_scopes')}
                />
                {scope}
              </label>
            ))}
            {errors.p_scopes && (
              <span id={form.errorId('p_scopes')} role="alert" className="text-xs text-red-400">
                {errors.p_scopes}
              </span>
            )}
          </fieldset>
          <Field label={t('admin.apiKeys.password')} error={errors.p_current_password}>
            <TextInput
              type="password"
              autoComplete="current-password"
              required
              {...form.field('p_current_password')}
            />
          </Field>
          <div>
            <Button type="submit" disabled={create.isPending}>
              <Plus className="size-4" aria-hidden />
              {t('admin.apiKeys.add')}
            </Button>
          </div>
        </form>
        {made && (
          <ShownOnce
            message={t('admin.apiKeys.shownOnce', { label: made.label })}
            label={t('admin.apiKeys.key')}
            value={made.key}
            copiedMessage={t('admin.apiKeys.copied')}
            failedMessage={t('admin.apiKeys.copyFailed')}
            onDone={() => setMade(null)}
          />
        )}
      </Panel>

      <Panel title={t('admin.apiKeys.title')}>
        {!keys.data ? (
          <p role="status" className="text-sm text-muted">
            {keys.isError ? t('admin.apiKeys.loadFailed') : t('admin.loading')}
          </p>
        ) : keys.data.keys.length === 0 ? (
          <p className="text-sm text-muted">{t('admin.apiKeys.empty')}</p>
        ) : (
          <ul className="grid gap-3">
            {keys.data.keys.map((k) => (
              <li key={k.id} className="rounded-xl border border-line p-4">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="text-sm font-medium text-fg">
                      {k.label} <span className="font-mono text-muted">{k.prefix}…</span>
                    </p>
                    <p className="mt-1 break-all font-mono text-xs text-muted">{k.scopes.join(', ')}</p>
                    <p className="mt-1 text-xs text-muted">
                      {t('admin.apiKeys.created', { date: fmt.date(k.created_at) })} ·{' '}
                      {k.last_used_at
                        ? t('admin.apiKeys.lastUsed', { date: fmt.date(k.last_used_at) })
                        : t('admin.apiKeys.neverUsed')}
                      {k.revoked_at
                        ? ` · ${t('admin.apiKeys.revokedOn', { date: fmt.date(k.revoked_at) })}`
                        : ''}
                    </p>
                  </div>
                  {!k.revoked_at && revoking !== k.id && (
                    <Button variant="secondary" onClick={() => setRevoking(k.id)}>
                      {t('admin.apiKeys.revoke')}
                    </Button>
                  )}
                </div>
                {revoking === k.id && (
                  <form {...revokeForm.formProps} className="mt-3 flex flex-wrap items-end gap-3">
                    <Field label={t('admin.apiKeys.password')} error={revokeForm.errors.p_current_password}>
                      <TextInput
                        type="password"
                        autoComplete="current-password"
                        required
                        {...revokeForm.field('p_current_password')}
                      />
                    </Field>
                    <Button type="submit" disabled={revoke.isPending}>
                      {t('admin.apiKeys.revokeConfirm', { label: k.label })}
                    </Button>
                    <Button variant="ghost" onClick={() => setRevoking(null)}>
                      {t('admin.cancel')}
                    </Button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  )
}
