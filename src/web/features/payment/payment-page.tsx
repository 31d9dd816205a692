import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { useT } from '../../i18n/i18n'
import { cart, useCartItems } from '../../lib/cart-store'
import { checkout, paymentSuccess, useCheckout } from '../../lib/checkout-store'
import { toast } from '../../lib/toast'
import { PaymentView } from './payment-view'

const REDIRECT_AFTER_PAID_MS = 3_000

/** The storefront's payment page: the browser's checkout, paid in the payment view. */
export function PaymentPage() {
  const t = useT()
  const state = useCheckout()
  const lines = useCartItems()
  const navigate = useNavigate()

  // Entry rules of the payment page. Only on entry: later changes (paid, cancelled,
  // expired) are handled by whatever made them, which also decides where the buyer goes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: entry only
  useEffect(() => {
    if (!state.isActive || !state.walletAddress) {
      navigate('/checkout', { replace: true })
    } else if (lines.length === 0) {
      checkout.reset()
      navigate('/', { replace: true })
    }
  }, [])

  const { orderId, walletAddress } = state
  if (!state.isActive || !walletAddress || !orderId) return null

  return (
    <PaymentView
      state={{ ...state, orderId, walletAddress }}
      onPaid={(data) => {
        paymentSuccess.record(data.amount_received > 0 ? data.amount_received : data.total, data.access_token)
        toast.success(t('payment.confirmedRedirecting'), {
          id: 'payment-confirmed',
          duration: REDIRECT_AFTER_PAID_MS,
        })
        window.setTimeout(() => {
          cart.clear()
          checkout.reset()
          navigate('/', { replace: true })
        }, REDIRECT_AFTER_PAID_MS)
      }}
      onCancelled={() => {
        checkout.reset()
        navigate('/cart', { replace: true })
      }}
    />
  )
}
