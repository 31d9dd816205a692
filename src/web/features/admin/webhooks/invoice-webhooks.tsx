import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import {
  type AdminWebhookEndpoint,
  addGreenfieldWebhookInputSchema,
  type GreenfieldEvent,
  greenfieldEvents,
} from '../../../../shared/webhooks'
import { Button } from '../../../components/ui/button'
import { Msg, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { ConfirmDialog } from '../components/confirm-dialog'
import { Panel } from '../components/fields'
import { ShownOnce } from '../components/shown-once'
import { useAddGreenfieldWebhook, useDeleteWebhook, useInvoiceWebhooks } from './api/webhooks'
import { DeliveryLog } from './delivery-log'
import { EventChecklist, WebhookUrlField } from './webhook-form-fields'

/**
 * The invoice API's webhooks, below the shop's own: Greenfield's (registered here or through the
 * API, deleted here) and the epusdt sellers' notify_urls (made by their orders, shown read-only),
 * each with its delivery log and redelivery.
 */
export function InvoiceWebhooks() {
  const t = useT()
  const list = useInvoiceWebhooks()
  const [newSecret, setNewSecret] = useState<{ url: string; secret: string } | null>(null)
  const [deleting, setDeleting] = useState<AdminWebhookEndpoint<GreenfieldEvent> | null>(null)
  const add = useAddGreenfieldWebhook()
  const remove = useDeleteWebhook()

  const form = useSchemaForm({
    schema: addGreenfieldWebhookInputSchema,
    initial: { p_url: '', p_events: [...greenfieldEvents] as GreenfieldEvent[] },
    labels: { p_url: t('admin.invoiceWebhooks.url') },
    errors: { p_events: { too_small: t('admin.webhooks.atLeastOne') } },
    onValid: (w) => {
      if (add.isPending) return
      add.mutate(
        { url: w.p_url, events: w.p_events },
        {
          onSuccess: (answer) => {
            setNewSecret({ url: w.p_url, secret: answer.secret })
            form.reset({ ...form.values, p_url: '' })
          },
        },
      )
    },
  })

  return (
    <>
      <Panel title={t('admin.invoiceWebhooks.title')}>
        <p className="mb-4 max-w-2xl text-sm text-muted">{t('admin.invoiceWebhooks.intro')}</p>
        <form {...form.formProps} className="grid max-w-2xl gap-4">
          <WebhookUrlField
            form={form}
            label={t('admin.invoiceWebhooks.url')}
            hint={t('admin.invoiceWebhooks.urlHint')}
            placeholder="https://example.com/btcpay"
          />
          <EventChecklist form={form} events={greenfieldEvents} />
          <div>
            <Button type="submit" disabled={add.isPending}>
              <Plus className="size-4" aria-hidden />
              {t('admin.invoiceWebhooks.add')}
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
        <div className="mt-6">
          <EndpointList
            endpoints={list.data?.greenfield}
            failed={list.isError}
            empty={t('admin.invoiceWebhooks.empty')}
            onDelete={(e) => setDeleting(e as AdminWebhookEndpoint<GreenfieldEvent>)}
          />
        </div>
      </Panel>

      <Panel title={t('admin.invoiceWebhooks.epusdtTitle')}>
        <p className="mb-4 max-w-2xl text-sm text-muted">{t('admin.invoiceWebhooks.epusdtIntro')}</p>
        <EndpointList
          endpoints={list.data?.epusdt}
          failed={list.isError}
          empty={t('admin.invoiceWebhooks.epusdtEmpty')}
        />
      </Panel>

      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.webhooks.deleteTitle')}
        message={t('admin.webhooks.deleteMessage', { url: deleting?.url ?? '' })}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
        onClose={() => setDeleting(null)}
      />
    </>
  )
}

/** Endpoints with their events, state and newest delivery; deleted only when `onDelete` is given. */
function EndpointList({
  endpoints,
  failed,
  empty,
  onDelete,
}: {
  endpoints: AdminWebhookEndpoint<string>[] | undefined
  failed: boolean
  empty: string
  onDelete?: (e: AdminWebhookEndpoint<string>) => void
}) {
  const t = useT()
  const [open, setOpen] = useState<number | null>(null)
  if (!endpoints)
    return (
      <p role="status" className="text-sm text-muted">
        {failed ? t('admin.webhooks.loadFailed') : t('admin.loading')}
      </p>
    )
  if (endpoints.length === 0) return <p className="text-sm text-muted">{empty}</p>
  return (
    <ul className="grid grid-cols-1 gap-3">
      {endpoints.map((e) => (
        <li key={e.id} className="rounded-xl border border-line p-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="break-all font-mono text-sm text-fg">{e.url}</p>
              <p className="mt-1 text-xs text-muted">
                {e.events.length > 0 ? `${e.events.join(', ')} · ` : ''}
                {e.enabled ? t('admin.webhooks.enabled') : t('admin.webhooks.disabled')}
                {e.pending > 0 ? t('admin.webhooks.pending', { count: e.pending }) : ''}
                {e.failed > 0 ? t('admin.webhooks.failed', { count: e.failed }) : ''}
              </p>
              <p className="mt-1 text-xs text-muted">
                {e.last_status === null
                  ? t('admin.webhooks.noDeliveries')
                  : t('admin.invoiceWebhooks.last', {
                      status: e.last_status,
                      code: e.last_status_code === null ? '—' : String(e.last_status_code),
                    })}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => setOpen(open === e.id ? null : e.id)}>
                {open === e.id ? t('admin.webhooks.hideDeliveries') : t('admin.webhooks.deliveries')}
              </Button>
              {onDelete && (
                <Button
                  variant="ghost"
                  aria-label={t('admin.webhooks.deleteLabel', { url: e.url })}
                  onClick={() => onDelete(e)}
                >
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              )}
            </div>
          </div>
          {open === e.id && <DeliveryLog endpointId={e.id} invoices />}
        </li>
      ))}
    </ul>
  )
}
