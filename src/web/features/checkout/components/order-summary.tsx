import { X } from 'lucide-react'
import { centsToDollars } from '../../../../shared/money'
import { ProductImage } from '../../../components/ui/product-media'
import { useFormat, useT } from '../../../i18n/i18n'
import type { CartItem } from '../../../lib/cart-store'
import type { DiscountCode } from './discount-code-form'

/** The cart's lines in the order summary. */
export function OrderLines({ lines }: { lines: readonly CartItem[] }) {
  const t = useT()
  const { usd } = useFormat()
  return (
    <ul className="mt-4 space-y-4">
      {lines.map((line) => (
        <li key={line.product.id} className="flex items-center gap-3">
          <ProductImage src={line.product.image} alt="" className="size-12 shrink-0 rounded-lg" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-fg">{line.product.name}</p>
            <p className="text-xs text-muted">{t('checkout.qty', { count: line.quantity })}</p>
          </div>
          <span className="text-sm font-semibold tabular-nums text-fg">
            {usd(line.product.price * line.quantity)}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** The subtotal and discount (when a code is accepted) and the total the order is placed at. */
export function OrderTotals({ discount, totalCents }: { discount: DiscountCode; totalCents: number }) {
  const t = useT()
  const { usd } = useFormat()
  const { accepted } = discount
  return (
    <>
      {accepted && (
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex justify-between text-muted">
            <dt>{t('order.subtotal')}</dt>
            <dd className="tabular-nums">{usd(centsToDollars(accepted.subtotal_cents))}</dd>
          </div>
          <div className="flex items-center justify-between text-emerald-400">
            <dt className="flex items-center gap-2">
              {t('order.discount')}{' '}
              <span className="rounded-md bg-emerald-500/15 px-1.5 py-0.5 font-mono text-xs">
                {accepted.code}
              </span>
              <button
                type="button"
                className="rounded p-0.5 text-muted hover:text-fg"
                aria-label={t('discount.remove', { code: accepted.code })}
                onClick={discount.remove}
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </dt>
            <dd className="tabular-nums" data-testid="checkout-discount">
              −{usd(centsToDollars(accepted.discount_cents))}
            </dd>
          </div>
        </dl>
      )}
      <div className="mt-5 flex justify-between border-t border-line pt-4 text-base font-semibold text-fg">
        <span>{t('order.total')}</span>
        <span className="tabular-nums" data-testid="checkout-total">
          {usd(centsToDollars(totalCents))}
        </span>
      </div>
    </>
  )
}
