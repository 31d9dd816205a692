import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import {
  type AdminWebhookEndpoint,
  saveWebhookInputSchema,
  type WebhookEvent,
  webhookEvents,
} from '../../../../shared/webhooks'
import { Button } from '../../../components/ui/button'
import { Msg, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { ConfirmDialog } from '../components/confirm-dialog'
import { Panel } from '../components/fields'
import { ShownOnce } from '../components/shown-once'
import { useDeleteWebhook, useSaveWebhook, useWebhooks } from './api/webhooks'
import { DeliveryLog } from './delivery-log'
import { InvoiceWebhooks } from './invoice-webhooks'
import { EventChecklist, WebhookUrlField } from './webhook-form-fields'

/** Signed webhooks: endpoints (secret shown once), their delivery log, resend. */
export function WebhooksTab() {
  const t = useT()
  const endpoints = useWebhooks()
  const [newSecret, setNewSecret] = useState<{ url: string; secret: string } | null>(null)
  const [deleting, setDeleting] = useState<AdminWebhookEndpoint | null>(null)
  const [open, setOpen] = useState<number | null>(null)
  const create = useSaveWebhook()
  const toggle = useSaveWebhook()
  const remove = useDeleteWebhook()
  const switchEndpoint = (e: AdminWebhookEndpoint) =>
    toggle.mutate({
      id: e.id,
      url: e.url,
      events: e.events,
      includeKeys: e.include_keys,
      enabled: !e.enabled,
    })

  const form = useSchemaForm({
    schema: saveWebhookInputSchema,
    initial: {
      p_url: '',
      p_events: ['order.paid'] as WebhookEvent[],
      p_include_keys: false,
      p_enabled: true,
    },
    labels: { p_url: t('admin.webhooks.url') },
    errors: { p_events: { too_small: t('admin.webhooks.atLeastOne') } },
    onValid: (w) => {
      if (create.isPending) return
      const input = { url: w.p_url, events: w.p_events, includeKeys: w.p_include_keys, enabled: w.p_enabled }
      create.mutate(input, {
        onSuccess: (answer) => {
          if (answer.secret) setNewSecret({ url: input.url, secret: answer.secret })
          form.reset({ ...form.values, p_url: '' })
        },
      })
    },
  })

  return (
    <div className="grid grid-cols-1 gap-6">
      <Panel title={t('admin.webhooks.addTitle')}>
        <form {...form.formProps} className="grid max-w-2xl gap-4">
          <WebhookUrlField
            form={form}
            label={t('admin.webhooks.url')}
            hint={t('admin.webhooks.urlHint')}
            placeholder="https://example.com/stablecart"
          />
          <EventChecklist form={form} events={webhookEvents} />
          <label className="flex items-center gap-2 text-sm text-fg">
            <input type="checkbox" {...form.checkbox('p_include_keys')} />
            {t('admin.webhooks.includeKeys')}
          </label>
          <div>
            <Button type="submit" disabled={create.isPending}>
              <Plus className="size-4" aria-hidden />
              {t('admin.webhooks.add')}
            </Button>
          </div>
        </form>
        {newSecret && (
          <ShownOnce
            message={
              <Msg
                id="admin.webhooks.secretFor"
                values={{ url: newSecret.url }}
                components={{ 0: <span className="break-all font-mono" /> }}
              />
            }
            label={t('admin.webhooks.secret')}
            value={newSecret.secret}
            copiedMessage={t('admin.webhooks.secretCopied')}
            failedMessage={t('admin.webhooks.secretCopyFailed')}
            onDone={() => setNewSecret(null)}
          />
        )}
      </Panel>

      <Panel title={t('admin.webhooks.title')}>
        {!endpoints.data ? (
          <p role="status" className="text-sm text-muted">
            {endpoints.isError ? t('admin.webhooks.loadFailed') : t('admin.loading')}
          </p>
        ) : endpoints.data.endpoints.length === 0 ? (
          <p className="text-sm text-muted">{t('admin.webhooks.empty')}</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3">
            {endpoints.data.endpoints.map((e) => (
              <li key={e.id} className="rounded-xl border border-line p-4">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="break-all font-mono text-sm text-fg">{e.url}</p>
                    <p className="mt-1 text-xs text-muted">
                      {e.events.join(', ')}
                      {e.include_keys ? t('admin.webhooks.withKeys') : ''} ·{' '}
                      {e.enabled ? t('admin.webhooks.enabled') : t('admin.webhooks.disabled')}
                      {e.pending > 0 ? t('admin.webhooks.pending', { count: e.pending }) : ''}
                      {e.failed > 0 ? t('admin.webhooks.failed', { count: e.failed }) : ''}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button variant="secondary" onClick={() => setOpen(open === e.id ? null : e.id)}>
                      {open === e.id ? t('admin.webhooks.hideDeliveries') : t('admin.webhooks.deliveries')}
                    </Button>
                    <Button variant="secondary" disabled={toggle.isPending} onClick={() => switchEndpoint(e)}>
                      {e.enabled ? t('admin.webhooks.disable') : t('admin.webhooks.enable')}
                    </Button>
                    <Button
                      variant="ghost"
                      aria-label={t('admin.webhooks.deleteLabel', { url: e.url })}
                      onClick={() => setDeleting(e)}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </div>
                </div>
                {open === e.id && <DeliveryLog endpointId={e.id} />}
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.webhooks.deleteTitle')}
        message={t('admin.webhooks.deleteMessage', { url: deleting?.url ?? '' })}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
        onClose={() => setDeleting(null)}
      />
      <InvoiceWebhooks />
    </div>
  )
}
