import { Link } from 'react-router'
import type { Product } from '../../../../shared/product'
import { Button } from '../../../components/ui/button'
import { Modal } from '../../../components/ui/modal'
import { ProductPrice } from '../../../components/ui/price'
import { ProductImage, VideoEmbed } from '../../../components/ui/product-media'
import { FeatureList, ProductActionLabel } from '../../../components/ui/product-parts'
import { useT } from '../../../i18n/i18n'
import { runProductAction } from '../../../lib/product-action'

export function ProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const t = useT()
  return (
    <Modal open={product !== null} onClose={onClose} title={product?.name ?? t('product.dialogTitle')}>
      {product && (
        <div>
          {product.video_id ? (
            <VideoEmbed videoId={product.video_id} title={product.name} poster={product.image} />
          ) : (
            <ProductImage src={product.image} alt={product.name} className="aspect-[16/9] w-full" />
          )}
          <div className="p-6 sm:p-8">
            <h2 className="pr-8 text-2xl font-bold tracking-tight text-fg">{product.name}</h2>
            <p className="mt-3 leading-relaxed text-muted">{product.description}</p>
            <h3 className="mt-6 text-sm font-semibold tracking-wide text-fg uppercase">
              {t('product.premiumFeatures', { count: product.features.length })}
            </h3>
            <FeatureList features={product.features} className="mt-3 grid gap-2 sm:grid-cols-2" />
            <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-line pt-6">
              <ProductPrice product={product} size="lg" />
              <div className="flex flex-wrap items-center gap-3">
                <Link to={`/product/${product.id}`} className="text-sm font-medium text-muted hover:text-fg">
                  {t('product.fullDetails')}
                </Link>
                <Button
                  className="px-6 py-3"
                  disabled={product.sold_out}
                  onClick={() => {
                    runProductAction(product, t)
                    onClose()
                  }}
                >
                  <ProductActionLabel product={product} download={t('price.downloadNow')} />
                </Button>
              </div>
            </div>
          </div>
        </div>
      )}
    </Modal>
  )
}
