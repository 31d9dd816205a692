import { lazy, Suspense, useEffect } from 'react'
import { Outlet, useLocation } from 'react-router'
import { Footer } from '../components/layout/footer'
import { Header } from '../components/layout/header'
import { SkipLink } from '../components/layout/skip-link'
import { loadBuyMessages } from '../i18n/i18n'
import { usePaymentSuccess } from '../lib/checkout-store'
import { HydratedMark } from './app'
import { CheckoutWatch } from './checkout-watch'

// The success modal is downloaded only when there is a payment to announce: a first visit never
// needs it (nor its copy field and icons).
const PaymentSuccessModal = lazy(async () => {
  const [module] = await Promise.all([import('../features/payment/payment-success-modal'), loadBuyMessages()])
  return { default: module.PaymentSuccessModal }
})

function PaymentSuccess() {
  const success = usePaymentSuccess()
  if (!success) return null
  return (
    <Suspense fallback={null}>
      <PaymentSuccessModal />
    </Suspense>
  )
}

export function PublicLayout() {
  const { pathname, hash } = useLocation()
  // A new page starts at the top; #anchors scroll themselves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0)
  }, [pathname, hash])
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <Header />
      <main id="main" className="flex-1">
        {/* A page downloaded on the first visit keeps the footer where it will stay. */}
        <Suspense fallback={<div className="min-h-[70vh]" />}>
          <Outlet />
          {/* The innermost boundary: hydrated last, so the mark means the whole page is. */}
          <HydratedMark by="page" />
        </Suspense>
      </main>
      <Footer />
      <CheckoutWatch />
      <PaymentSuccess />
    </div>
  )
}
