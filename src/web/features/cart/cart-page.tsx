import { ArrowLeft, ArrowRight, Lock, Minus, Plus, ShoppingCart, Trash2 } from 'lucide-react'
import { Link, useNavigate } from 'react-router'
import { centsToDollars } from '../../../shared/money'
import { Button, buttonStyles } from '../../components/ui/button'
import { ProductImage } from '../../components/ui/product-media'
import { useFormat, useT } from '../../i18n/i18n'
import { useAcceptedNetworks } from '../../lib/api/get-networks'
import { type CartItem, cart, cartTotalCents, MAX_QUANTITY, useCartItems } from '../../lib/cart-store'
import { useCatalogSync } from '../../lib/use-catalog-sync'

export function CartPage() {
  const t = useT()
  const accepted = useAcceptedNetworks()
  const { usd } = useFormat()
  const lines = useCartItems()
  const navigate = useNavigate()
  useCatalogSync()

  if (lines.length === 0) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
        <div className="grid size-20 place-items-center rounded-full border border-line bg-card">
          <ShoppingCart className="size-9 text-muted" aria-hidden />
        </div>
        <h1 className="mt-6 text-2xl font-bold text-fg">{t('cart.empty.title')}</h1>
        <p className="mt-2 text-muted">{t('cart.empty.text')}</p>
        <Link to="/" className={`${buttonStyles.primary} mt-8`}>
          {t('cart.continue')}
        </Link>
      </div>
    )
  }

  const total = centsToDollars(cartTotalCents(lines))
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <Link
        to="/products"
        className="inline-flex items-center gap-2 text-sm font-medium text-muted hover:text-fg"
      >
        <ArrowLeft className="size-4" aria-hidden /> {t('cart.continue')}
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-fg">{t('cart.title')}</h1>
      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_22rem]">
        <ul className="space-y-4" aria-label={t('cart.items')}>
          {lines.map((line) => (
            <CartLine key={line.product.id} line={line} />
          ))}
        </ul>
        <aside
          aria-labelledby="summary-title"
          className="h-fit rounded-2xl border border-line bg-card p-6 lg:sticky lg:top-24"
        >
          <h2 id="summary-title" className="text-lg font-semibold text-fg">
            {t('order.summary')}
          </h2>
          <dl className="mt-4 space-y-2 text-sm">
            {lines.map((line) => (
              <div key={line.product.id} className="flex justify-between gap-4 text-muted">
                <dt className="truncate">
                  {line.product.name} × {line.quantity}
                </dt>
                <dd className="shrink-0 tabular-nums">{usd(line.product.price * line.quantity)}</dd>
              </div>
            ))}
            <div className="flex justify-between border-t border-line pt-3 text-base font-semibold text-fg">
              <dt>{t('order.total')}</dt>
              <dd className="tabular-nums" data-testid="cart-total">
                {usd(total)}
              </dd>
            </div>
          </dl>
          <Button className="mt-6 w-full py-3 text-base" onClick={() => navigate('/checkout')}>
            {t('cart.proceed')} <ArrowRight className="size-4" aria-hidden />
          </Button>
          <p className="mt-4 flex items-center justify-center gap-2 text-xs text-muted">
            <Lock className="size-3.5" aria-hidden />{' '}
            {accepted ? t('checkout.network.secure') : t('order.securePayment')}
          </p>
        </aside>
      </div>
    </div>
  )
}

function CartLine({ line }: { line: CartItem }) {
  const t = useT()
  const { usd } = useFormat()
  const { product, quantity } = line
  return (
    <li className="flex gap-4 rounded-2xl border border-line bg-card p-4" aria-label={product.name}>
      <Link to={`/product/${product.id}`} className="shrink-0" aria-label={product.name} tabIndex={-1}>
        <ProductImage src={product.image} alt="" className="size-20 rounded-xl sm:size-24" />
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <Link to={`/product/${product.id}`} className="font-semibold text-fg hover:text-primary">
            {product.name}
          </Link>
          <p className="text-sm text-muted">{t('cart.each', { price: usd(product.price) })}</p>
        </div>
        <div className="flex items-center justify-between gap-4 sm:justify-end">
          <fieldset
            className="flex items-center rounded-xl border border-line"
            aria-label={t('cart.quantityOf', { name: product.name })}
          >
            <button
              type="button"
              className="grid size-9 place-items-center rounded-l-xl text-muted hover:bg-white/5 hover:text-fg"
              aria-label={t('cart.decrease', { name: product.name })}
              onClick={() => cart.setQuantity(product.id, quantity - 1)}
            >
              <Minus className="size-4" aria-hidden />
            </button>
            <output className="w-10 text-center font-semibold tabular-nums text-fg" aria-live="polite">
              {quantity}
            </output>
            <button
              type="button"
              className="grid size-9 place-items-center rounded-r-xl text-muted hover:bg-white/5 hover:text-fg disabled:opacity-40"
              aria-label={t('cart.increase', { name: product.name })}
              disabled={quantity >= MAX_QUANTITY}
              onClick={() => cart.setQuantity(product.id, quantity + 1)}
            >
              <Plus className="size-4" aria-hidden />
            </button>
          </fieldset>
          <span className="w-24 text-right font-semibold tabular-nums text-fg" data-testid="line-total">
            {usd(product.price * quantity)}
          </span>
          <button
            type="button"
            className="grid size-9 place-items-center rounded-xl text-muted hover:bg-red-500/10 hover:text-red-400"
            aria-label={t('cart.remove', { name: product.name })}
            onClick={() => cart.remove(product.id)}
          >
            <Trash2 className="size-4" aria-hidden />
          </button>
        </div>
      </div>
    </li>
  )
}
