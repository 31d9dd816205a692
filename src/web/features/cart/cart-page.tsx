import { ArrowLeft, ArrowRight, Lock, Minus, Plus, ShoppingCart, Trash2 } from 'lucide-react'
import { Link, useNavigate } from 'react-router'
import { centsToDollars, formatUsd } from '../../../shared/money'
import { Button, buttonStyles } from '../../components/ui/button'
import { ProductImage } from '../../components/ui/product-media'
import { type CartItem, cart, cartTotalCents, MAX_QUANTITY, useCartItems } from '../../lib/cart-store'
import { useCatalogSync } from '../../lib/use-catalog-sync'

export function CartPage() {
  const lines = useCartItems()
  const navigate = useNavigate()
  useCatalogSync()

  if (lines.length === 0) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
        <div className="grid size-20 place-items-center rounded-full border border-line bg-card">
          <ShoppingCart className="size-9 text-muted" aria-hidden />
        </div>
        <h1 className="mt-6 text-2xl font-bold text-fg">Your Cart is Empty</h1>
        <p className="mt-2 text-muted">Browse the catalogue and add the software you need.</p>
        <Link to="/" className={`${buttonStyles.primary} mt-8`}>
          Continue Shopping
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
        <ArrowLeft className="size-4" aria-hidden /> Continue Shopping
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-fg">Shopping Cart</h1>
      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_22rem]">
        <ul className="space-y-4" aria-label="Cart items">
          {lines.map((line) => (
            <CartLine key={line.product.id} line={line} />
          ))}
        </ul>
        <aside
          aria-labelledby="summary-title"
          className="h-fit rounded-2xl border border-line bg-card p-6 lg:sticky lg:top-24"
        >
          <h2 id="summary-title" className="text-lg font-semibold text-fg">
            Order Summary
          </h2>
          <dl className="mt-4 space-y-2 text-sm">
            {lines.map((line) => (
              <div key={line.product.id} className="flex justify-between gap-4 text-muted">
                <dt className="truncate">
                  {line.product.name} × {line.quantity}
                </dt>
                <dd className="shrink-0 tabular-nums">{formatUsd(line.product.price * line.quantity)}</dd>
              </div>
            ))}
            <div className="flex justify-between border-t border-line pt-3 text-base font-semibold text-fg">
              <dt>Total</dt>
              <dd className="tabular-nums" data-testid="cart-total">
                {formatUsd(total)}
              </dd>
            </div>
          </dl>
          <Button className="mt-6 w-full py-3 text-base" onClick={() => navigate('/checkout')}>
            Proceed to Checkout <ArrowRight className="size-4" aria-hidden />
          </Button>
          <p className="mt-4 flex items-center justify-center gap-2 text-xs text-muted">
            <Lock className="size-3.5" aria-hidden /> Secure payment with USDT-TRC20/TRX
          </p>
        </aside>
      </div>
    </div>
  )
}

function CartLine({ line }: { line: CartItem }) {
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
          <p className="text-sm text-muted">{formatUsd(product.price)} each</p>
        </div>
        <div className="flex items-center justify-between gap-4 sm:justify-end">
          <fieldset
            className="flex items-center rounded-xl border border-line"
            aria-label={`Quantity of ${product.name}`}
          >
            <button
              type="button"
              className="grid size-9 place-items-center rounded-l-xl text-muted hover:bg-white/5 hover:text-fg"
              aria-label={`Decrease quantity of ${product.name}`}
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
              aria-label={`Increase quantity of ${product.name}`}
              disabled={quantity >= MAX_QUANTITY}
              onClick={() => cart.setQuantity(product.id, quantity + 1)}
            >
              <Plus className="size-4" aria-hidden />
            </button>
          </fieldset>
          <span className="w-24 text-right font-semibold tabular-nums text-fg" data-testid="line-total">
            {formatUsd(product.price * quantity)}
          </span>
          <button
            type="button"
            className="grid size-9 place-items-center rounded-xl text-muted hover:bg-red-500/10 hover:text-red-400"
            aria-label={`Remove ${product.name}`}
            onClick={() => cart.remove(product.id)}
          >
            <Trash2 className="size-4" aria-hidden />
          </button>
        </div>
      </div>
    </li>
  )
}
