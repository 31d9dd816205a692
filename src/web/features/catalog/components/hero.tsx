import { ArrowDown, ShieldCheck, Zap } from 'lucide-react'
import type { SiteContent } from '../../../../shared/site-content'
import { ACCEPTED_PLACEHOLDER } from '../../../../shared/site-content-defaults'
import { buttonStyles } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useAcceptedNetworks } from '../../../lib/api/get-networks'

export function Hero({ hero }: { hero: SiteContent['hero'] }) {
  const t = useT()
  const accepted = useAcceptedNetworks()
  return (
    <section className="relative isolate overflow-hidden border-b border-line">
      {/* An <img>, not a CSS url(): the merchant's URL never becomes CSS. */}
      <img
        src={hero.backgroundImage}
        alt=""
        aria-hidden
        // The largest thing the first screen paints: fetched before the scripts.
        fetchPriority="high"
        className="absolute inset-0 -z-10 size-full object-cover opacity-90"
        onError={(e) => {
          e.currentTarget.style.display = 'none'
        }}
      />
      <div className="absolute inset-0 -z-10 bg-gradient-to-r from-background via-background/80 to-background/20" />
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 sm:py-28 lg:py-32">
        <div className="max-w-2xl">
          <p className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 text-xs font-semibold text-primary">
            <Zap className="size-3.5" aria-hidden />{' '}
            {accepted ? t('hero.badge.several', accepted) : t('hero.badge')}
          </p>
          {/* Chinese breaks at its punctuation rather than inside a word (软件), and anywhere only if it must. */}
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-balance break-keep text-fg [overflow-wrap:anywhere] sm:text-5xl lg:text-6xl">
            {hero.title}
          </h1>
          <p className="mt-5 max-w-xl text-base leading-relaxed text-pretty text-muted sm:text-lg">
            {hero.subtitle.replaceAll(
              ACCEPTED_PLACEHOLDER,
              accepted ? t('hero.accepted.several', accepted) : t('hero.accepted'),
            )}
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-4">
            <a href="#products" className={`${buttonStyles.primary} px-6 py-3 text-base`}>
              {t('hero.viewProducts')} <ArrowDown className="size-4" aria-hidden />
            </a>
            <span className="inline-flex items-center gap-2 text-sm text-muted">
              <ShieldCheck className="size-4 text-primary" aria-hidden /> {t('hero.verified')}
            </span>
          </div>
        </div>
      </div>
    </section>
  )
}
