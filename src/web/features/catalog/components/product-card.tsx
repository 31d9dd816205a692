import { Check } from 'lucide-react'
import type { Product } from '../../../../shared/product'
import { isFreeProduct } from '../../../../shared/product-rules'
import { Button } from '../../../components/ui/button'
import { ProductPrice } from '../../../components/ui/price'
import { ProductImage } from '../../../components/ui/product-media'
import { ProductActionLabel } from '../../../components/ui/product-parts'
import { useT } from '../../../i18n/i18n'
import { runProductAction } from '../../../lib/product-action'

export function ProductCard({ product, onOpen }: { product: Product; onOpen: () => void }) {
  const t = useT()
  const free = isFreeProduct(product)
  const extra = product.features.length - 2
  return (
    <article
      aria-label={product.name}
      className="group flex flex-col overflow-hidden rounded-2xl border border-line bg-card transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-xl hover:shadow-black/30"
    >
      {/* One control per card opens the details (the name below); the picture is a larger mouse target for it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; keyboards and screen readers use the name's button */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the name's button is the keyboard control */}
      <div onClick={onOpen} className="relative block aspect-[4/3] w-full cursor-pointer overflow-hidden">
        <ProductImage
          src={product.image}
          alt=""
          className="size-full transition duration-300 group-hover:scale-[1.03]"
        />
        {(free || product.featured) && (
          <span
            className={`absolute top-3 left-3 rounded-full px-2.5 py-1 text-xs font-semibold shadow ${
              free ? 'bg-primary text-on-primary' : 'bg-accent text-slate-900'
            }`}
          >
            {free ? t('price.free') : t('product.featured')}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-lg font-semibold text-fg">
          <button
            type="button"
            onClick={onOpen}
            aria-label={t('product.viewDetails', { name: product.name })}
            className="text-left hover:text-primary"
          >
            {product.name}
          </button>
        </h3>
        <p className="mt-2 line-clamp-2 text-sm leading-relaxed text-muted">{product.description}</p>
        <ul className="mt-4 space-y-1.5 text-sm text-fg/90">
          {product.features.slice(0, 2).map((f) => (
            <li key={f} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              <span>{f}</span>
            </li>
          ))}
          {extra > 0 && (
            <li className="pl-6 text-xs text-muted">{t('product.moreFeatures', { count: extra })}</li>
          )}
        </ul>
        <div className="mt-auto flex items-end justify-between gap-3 pt-5">
          <ProductPrice product={product} />
          <Button
            className="shrink-0 whitespace-nowrap"
            disabled={product.sold_out}
            onClick={() => runProductAction(product, t)}
          >
            <ProductActionLabel product={product} />
          </Button>
        </div>
      </div>
    </article>
  )
}
