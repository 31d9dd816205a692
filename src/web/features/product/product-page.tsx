import { ArrowLeft, Headphones, ShieldCheck, Wallet, Zap } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Button } from '../../components/ui/button'
import { ProductPrice } from '../../components/ui/price'
import { ProductImage, VideoEmbed } from '../../components/ui/product-media'
import { FeatureList, ProductActionLabel } from '../../components/ui/product-parts'
import { useT } from '../../i18n/i18n'
import { useAcceptedNetworks } from '../../lib/api/get-networks'
import { useProducts } from '../../lib/api/get-products'
import { runProductAction } from '../../lib/product-action'

const ID_PATTERN = /^[1-9]\d{0,9}$/

export function ProductPage() {
  const t = useT()
  const accepted = useAcceptedNetworks()
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const products = useProducts()
  const validId = ID_PATTERN.test(id)
  const product = validId ? products.data?.find((p) => p.id === Number(id)) : undefined

  // Unknown or malformed ids send the buyer back to the catalogue.
  useEffect(() => {
    if (!validId || (products.isSuccess && !product) || products.isError) navigate('/', { replace: true })
  }, [validId, products.isSuccess, products.isError, product, navigate])

  if (!product) {
    return (
      <p role="status" className="py-32 text-center text-muted">
        {t('product.loading')}
      </p>
    )
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <Link
        to="/products"
        className="inline-flex items-center gap-2 text-sm font-medium text-muted hover:text-fg"
      >
        <ArrowLeft className="size-4" aria-hidden /> {t('product.back')}
      </Link>
      <div className="mt-6 grid gap-10 lg:grid-cols-[3fr_2fr]">
        <div className="space-y-8">
          <div className="overflow-hidden rounded-2xl border border-line bg-card">
            {product.video_id ? (
              <VideoEmbed videoId={product.video_id} title={product.name} poster={product.image} />
            ) : (
              <ProductImage src={product.image} alt={product.name} className="aspect-[4/3] w-full" />
            )}
          </div>
          <section
            aria-labelledby="features-title"
            className="rounded-2xl border border-line bg-card p-6 sm:p-8"
          >
            <h2 id="features-title" className="text-lg font-semibold text-fg">
              {t('product.features')}
            </h2>
            <FeatureList features={product.features} className="mt-4 grid gap-3 sm:grid-cols-2" />
          </section>
        </div>
        <div className="space-y-6 lg:sticky lg:top-24 lg:self-start">
          <div className="rounded-2xl border border-line bg-card p-6 sm:p-8">
            <h1 className="text-3xl font-bold tracking-tight text-fg">{product.name}</h1>
            <p className="mt-4 leading-relaxed text-muted">{product.description}</p>
            <div className="mt-6 border-t border-line pt-6">
              <ProductPrice product={product} size="lg" />
            </div>
            <Button
              className="mt-6 w-full py-3 text-base"
              disabled={product.sold_out}
              onClick={() => runProductAction(product, t)}
            >
              <ProductActionLabel product={product} />
            </Button>
          </div>
          <section
            aria-labelledby="secure-title"
            className="rounded-2xl border border-primary/30 bg-primary/5 p-6"
          >
            <h2 id="secure-title" className="flex items-center gap-2 font-semibold text-fg">
              <ShieldCheck className="size-5 text-primary" aria-hidden /> {t('product.secure.title')}
            </h2>
            <ul className="mt-4 space-y-3 text-sm text-fg/90">
              <li className="flex items-center gap-3">
                <Zap className="size-4 text-primary" aria-hidden /> {t('product.secure.instant')}
              </li>
              <li className="flex items-center gap-3">
                <Wallet className="size-4 text-primary" aria-hidden />{' '}
                {accepted ? t('product.secure.accepted.several', accepted) : t('product.secure.accepted')}
              </li>
              <li className="flex items-center gap-3">
                <Headphones className="size-4 text-primary" aria-hidden /> {t('product.secure.support')}
              </li>
            </ul>
          </section>
        </div>
      </div>
    </div>
  )
}
