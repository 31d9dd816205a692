import { useT } from '../../i18n/i18n'

/** The first focusable element of every layout: jumps past the header to #main. */
export function SkipLink() {
  const t = useT()
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-primary focus:px-4 focus:py-2 focus:text-on-primary"
    >
      {t('layout.skipToContent')}
    </a>
  )
}
