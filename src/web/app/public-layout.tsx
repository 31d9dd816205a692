import { useEffect } from 'react'
import { Outlet, useLocation } from 'react-router'
import { Footer } from '../components/layout/footer'
import { Header } from '../components/layout/header'
import { PaymentSuccessModal } from '../features/payment/payment-success-modal'
import { CheckoutWatch } from './checkout-watch'

export function PublicLayout() {
  const { pathname, hash } = useLocation()
  // A new page starts at the top; #anchors scroll themselves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0)
  }, [pathname, hash])
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-primary focus:px-4 focus:py-2 focus:text-on-primary"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <CheckoutWatch />
      <PaymentSuccessModal />
    </div>
  )
}
