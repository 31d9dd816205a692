import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useT } from '../i18n/i18n'
import { cart } from '../lib/cart-store'
import { checkout, msRemaining, paymentConfirming, useCheckout } from '../lib/checkout-store'
import { toast } from '../lib/toast'

const PAYMENT_PATH = '/payment'

/**
 * The checkout's reload rules (clear an expired or paid checkout). Called once before the router mounts, so the first
 * page rendered is already the right one (and no page's own guard races them).
 */
export function applyReloadRules(): void {
  const s = checkout.get()
  const onPayment = window.location.pathname === PAYMENT_PATH
  let target: string | null = null
  if (s.isActive && msRemaining(s) === 0) {
    checkout.reset()
    cart.clear()
    if (onPayment) target = '/cart'
  } else if (onPayment && (!s.isActive || !s.walletAddress || !s.orderId || cart.getItems().length === 0)) {
    checkout.reset()
    target = '/cart'
  } else if (s.isActive && !onPayment && !/^\/(admin|dashboard)(\/|$)/.test(window.location.pathname)) {
    target = PAYMENT_PATH
  }
  if (target) window.history.replaceState(null, '', target)
}

/** The countdown's end, ticked every second wherever the buyer is. */
export function CheckoutWatch() {
  const t = useT()
  const state = useCheckout()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const pathRef = useRef(pathname)
  pathRef.current = pathname

  useEffect(() => {
    if (!state.isActive) return
    const tick = () => {
      const current = checkout.get()
      if (msRemaining(current) > 0 || paymentConfirming.is(current.orderId)) return
      checkout.reset()
      cart.clear()
      toast.error(t('checkout.expired'), { id: 'payment-expired' })
      if (pathRef.current === PAYMENT_PATH) navigate('/cart', { replace: true })
    }
    tick()
    const timer = window.setInterval(tick, 1000)
    return () => window.clearInterval(timer)
  }, [state.isActive, navigate, t])

  return null
}
