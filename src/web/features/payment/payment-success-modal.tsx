import { CheckCircle2, ExternalLink, TriangleAlert } from 'lucide-react'
import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { Button } from '../../components/ui/button'
import { CopyField } from '../../components/ui/copy-field'
import { Modal } from '../../components/ui/modal'
import { Msg, useFormat, useT } from '../../i18n/i18n'
import { paymentSuccess, usePaymentSuccess } from '../../lib/checkout-store'

/** Shown from the stored payment_success flag, so it survives the redirect to / and a reload. */
export function PaymentSuccessModal() {
  const t = useT()
  const { usd } = useFormat()
  const success = usePaymentSuccess()
  const { pathname } = useLocation()
  const close = () => paymentSuccess.dismiss()
  // The buyer who reached their own dashboard has what the modal was there to give them.
  const onDashboard = pathname.startsWith('/dashboard/')
  const reachedIt = onDashboard && success?.dashboardUrl?.endsWith(pathname) === true
  // A page an e-mail's link opens (a dashboard, the orders, a refund) is about something else: the
  // dialog, left over in this browser from a payment, never covers it.
  const linkPage = onDashboard || /^\/(orders|refund)\//.test(pathname)
  useEffect(() => {
    if (reachedIt) paymentSuccess.dismiss()
  }, [reachedIt])
  return (
    <Modal
      open={success !== null && !linkPage}
      onClose={close}
      title={t('success.title')}
      className="max-w-lg"
    >
      {success && (
        <div className="p-6 text-center sm:p-8">
          <div className="mx-auto grid size-16 place-items-center rounded-full bg-primary/15">
            <CheckCircle2 className="size-9 text-primary" aria-hidden />
          </div>
          <h2 className="mt-4 text-2xl font-bold text-fg">{t('success.title')}</h2>
          <p className="mt-1 text-muted">
            <Msg
              id="success.received"
              values={{ amount: usd(success.amount) }}
              components={{ 0: <span className="font-semibold text-fg" /> }}
            />
          </p>
          {success.dashboardUrl && (
            <div className="mt-6 space-y-3 text-left">
              <CopyField
                label={t('success.dashboard')}
                value={success.dashboardUrl}
                copiedMessage={t('success.dashboardCopied')}
                failedMessage={t('success.dashboardCopyFailed')}
                mono={false}
              />
              <a
                href={success.dashboardUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline"
              >
                {t('success.openLink')} <ExternalLink className="size-3.5" aria-hidden />
              </a>
              <p className="flex gap-2 rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-200">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('success.saveLink')}
              </p>
            </div>
          )}
          <p className="mt-4 text-sm text-muted">{t('success.sent')}</p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
            <Button variant="secondary" onClick={close}>
              {t('success.gotIt')}
            </Button>
            {success.dashboardUrl && (
              <Button
                onClick={() => {
                  const url = success.dashboardUrl as string
                  close()
                  window.location.assign(url)
                }}
              >
                {t('success.openDashboard')}
              </Button>
            )}
          </div>
        </div>
      )}
    </Modal>
  )
}
