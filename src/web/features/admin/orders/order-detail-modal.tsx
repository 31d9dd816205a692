import { ExternalLink, Mail } from 'lucide-react'
import { firstChain } from '../../../../shared/chains'
import { chainNames } from '../../../../shared/networks'
import { Button } from '../../../components/ui/button'
import { EmailAddress } from '../../../components/ui/email-address'
import { Modal } from '../../../components/ui/modal'
import { type AdminMessageId, Msg, useFormat, useT } from '../../../i18n/i18n'
import { Mark } from '../components/mark'
import { useOrderFormat } from '../lib/orders-format'
import { OrderRefunds } from '../refunds/order-refunds'
import { useOrder, useResendOrderEmail } from './api/orders'
import { ConfirmingMark, OrderSightings } from './order-sightings'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-line/60 py-2 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-sm break-all text-fg">{children}</dd>
    </div>
  )
}

export function OrderDetailModal({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const t = useT()
  const { usd, token } = useFormat()
  const orderFmt = useOrderFormat()
  const detail = useOrder(orderId)
  const resendMail = useResendOrderEmail(orderId)
  const resending = resendMail.isPending
  const resend = () => resendMail.mutate()

  const data = detail.data
  return (
    <Modal open onClose={onClose} title={t('admin.order.title')}>
      <div className="p-6 sm:p-8">
        <h2 className="text-xl font-semibold text-fg">{t('admin.order.title')}</h2>
        {!data ? (
          <p role="status" className="py-8 text-muted">
            {detail.isError ? t('admin.order.loadFailed') : t('admin.loading')}
          </p>
        ) : (
          <>
            <dl className="mt-4">
              <Row label={t('admin.order.id')}>
                <span className="font-mono">{data.order.id}</span>
              </Row>
              {data.order.seller_order_id && (
                <Row label={t('admin.order.sellerOrder')}>
                  <span className="font-mono break-all">{data.order.seller_order_id}</span>
                </Row>
              )}
              <Row label={t('admin.orders.col.date')}>{orderFmt.date(data.order.created_at)}</Row>
              <Row label={t('admin.orders.col.email')}>
                <EmailAddress email={data.order.email} />
              </Row>
              <Row label={t('admin.orders.col.status')}>
                <span className="flex flex-wrap items-center gap-2">
                  {t(`admin.status.${data.order.status}`)}
                  {data.order.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                  {data.order.underpaid && <Mark tone="red">{t('admin.underpaid')}</Mark>}
                  <ConfirmingMark amount={data.order.confirming} />
                </span>
              </Row>
              <Row label={t('admin.orders.col.items')}>{orderFmt.items(data.order.items)}</Row>
              {data.order.discount_code && (
                <Row label={t('admin.order.discount')}>
                  <span className="font-mono">{data.order.discount_code}</span> −{usd(data.order.discount)}
                </Row>
              )}
              <Row label={t('admin.orders.col.total')}>{usd(data.order.total)}</Row>
              {data.order.trx_amount && (
                <Row label={t('admin.order.trxTotal')}>{token(data.order.trx_amount, 'TRX')}</Row>
              )}
              <Row label={t('admin.order.received')}>
                {data.order.shortfall ? (
                  <span
                    data-testid="order-shortfall"
                    className="[overflow-wrap:anywhere] [word-break:normal]"
                  >
                    {t('admin.order.shortfall', {
                      received: token(data.order.shortfall.received, data.order.shortfall.token),
                      total: token(data.order.total.toFixed(2), data.order.shortfall.token),
                      missing: token(data.order.shortfall.missing, data.order.shortfall.token),
                    })}
                  </span>
                ) : (
                  usd(data.order.amount_received)
                )}
                {data.order.trx_received !== '0.00' &&
                  t('admin.order.includesTrx', { amount: token(data.order.trx_received, 'TRX') })}
              </Row>
              <Row label={t('admin.order.network')}>
                <span data-testid="order-network">
                  {data.order.token ?? 'USDT'} · {chainNames[data.order.chain ?? firstChain]}
                </span>
              </Row>
              <Row label={t('admin.orders.col.wallet')}>
                <span className="font-mono">{data.order.wallet_address}</span>
              </Row>
              <Row label={t('admin.order.paidAt')}>
                {data.order.paid_at ? orderFmt.date(data.order.paid_at) : '—'}
              </Row>
            </dl>

            <h3 className="mt-6 font-semibold text-fg">{t('admin.order.keys')}</h3>
            {data.keys.length === 0 ? (
              <p className="mt-1 text-sm text-muted">{t('admin.order.none')}</p>
            ) : (
              <ul className="mt-2 space-y-1 font-mono text-sm">
                {data.keys.map((k) => (
                  <li key={k.key} className="break-all">
                    #{k.product_id}: {k.key}
                  </li>
                ))}
              </ul>
            )}

            <h3 className="mt-6 font-semibold text-fg">{t('admin.order.payments')}</h3>
            {data.payments.length === 0 ? (
              <p className="mt-1 text-sm text-muted">{t('admin.order.none')}</p>
            ) : (
              <ul className="mt-2 space-y-2 text-sm">
                {data.payments.map((p) => (
                  <li key={p.id} className="rounded-lg border border-line p-2">
                    <span className="font-semibold">{token(p.amount, p.token)}</span>{' '}
                    <span className="text-muted">· {chainNames[p.chain]}</span>{' '}
                    {p.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                    <a
                      href={p.tx_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="mt-0.5 flex items-center gap-1 font-mono text-xs break-all text-primary hover:underline"
                    >
                      <span className="min-w-0 break-all">{p.tx_id}</span>
                      <ExternalLink className="size-3 shrink-0" aria-hidden />
                      <span className="sr-only">
                        {t('admin.order.explorer', { network: chainNames[p.chain] })}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )}

            <OrderSightings orderId={orderId} />

            <OrderRefunds orderId={orderId} />

            <h3 className="mt-6 font-semibold text-fg">{t('admin.order.email')}</h3>
            {data.mails.length === 0 ? (
              <p className="mt-1 text-sm text-muted">{t('admin.order.noEmail')}</p>
            ) : (
              <ul className="mt-2 space-y-2 text-sm">
                {data.mails.map((m) => (
                  <li key={m.id} className="rounded-lg border border-line p-2">
                    <Msg
                      id="admin.order.mail"
                      values={{
                        kind: t(mailKindName(m.kind)),
                        to: m.to_email,
                        status: m.status,
                        attempts: m.attempts,
                      }}
                      components={{ 0: <span className="font-semibold" /> }}
                    />
                    {m.last_error && <div className="text-xs text-red-300">{m.last_error}</div>}
                  </li>
                ))}
              </ul>
            )}
            {data.mails.length > 0 && (
              <Button variant="secondary" className="mt-3" onClick={resend} disabled={resending}>
                <Mail className="size-4" aria-hidden />
                {t('admin.order.resend')}
              </Button>
            )}
          </>
        )}
      </div>
    </Modal>
  )
}

/** What an order's e-mail is, by its kind (the outbox's kinds carry ids after a colon: never shown). */
function mailKindName(kind: string): AdminMessageId {
  const base = kind.split(':')[0]
  if (base === 'order_paid') return 'admin.order.mailKind.order_paid'
  if (base === 'refund_link') return 'admin.order.mailKind.refund_link'
  if (base === 'refund_sent') return 'admin.order.mailKind.refund_sent'
  return 'admin.order.mailKind.other'
}
