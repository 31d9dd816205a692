import { Mail } from 'lucide-react'
import { Link } from 'react-router'
import { useT } from '../../i18n/i18n'
import { useAcceptedNetworks } from '../../lib/api/get-networks'
import { useSiteContent } from '../../lib/api/get-site-content'
import { EmailAddress } from '../ui/email-address'
import { Logo } from './logo'

const socials = [
  {
    // i18n-ignore: a brand
    label: 'Telegram',
    href: 'https://t.me/',
    path: 'M21.9 4.3 18.6 19.9c-.2 1.1-.9 1.4-1.8.9l-5-3.7-2.4 2.3c-.3.3-.5.5-1 .5l.4-5.1 9.2-8.3c.4-.4-.1-.6-.6-.2L6 13.4l-4.9-1.5c-1.1-.3-1.1-1.1.2-1.6L20.5 2.9c.9-.3 1.7.2 1.4 1.4Z',
  },
  {
    // i18n-ignore: a brand
    label: 'X',
    href: 'https://x.com/',
    path: 'M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5Z',
  },
  {
    // i18n-ignore: a brand
    label: 'GitHub',
    href: 'https://github.com/',
    path: 'M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.3-3.4-1.3-.5-1.2-1.1-1.5-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.6 2.4 1.1 3 .9.1-.7.4-1.1.6-1.4-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.7 1a9.4 9.4 0 0 1 5 0c1.9-1.3 2.7-1 2.7-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2Z',
  },
]

export function Footer() {
  const t = useT()
  const accepted = useAcceptedNetworks()
  const { content } = useSiteContent()
  const year = new Date().getFullYear()
  return (
    <footer className="mt-24 border-t border-line bg-card/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr]">
        <div className="max-w-sm">
          <Logo mainText={content.logo.mainText} subText={content.logo.subText} />
          <p className="mt-4 text-sm leading-relaxed text-muted">
            {accepted ? t('footer.about.several', accepted) : t('footer.about')}
          </p>
          <div className="mt-5 flex gap-2">
            {socials.map((s) => (
              <a
                key={s.label}
                href={s.href}
                target="_blank"
                rel="noopener noreferrer"
                className="rounded-lg border border-line p-2 text-muted transition hover:border-primary/50 hover:text-fg"
              >
                <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden>
                  <path d={s.path} />
                </svg>
                <span className="sr-only">{s.label}</span>
              </a>
            ))}
          </div>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-fg">{t('footer.quickLinks')}</h2>
          <ul className="mt-4 space-y-2 text-sm">
            <li>
              <Link to="/products" className="text-muted hover:text-fg">
                {content.navigation.products}
              </Link>
            </li>
            <li>
              <Link to="/support" className="text-muted hover:text-fg">
                {content.navigation.support}
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-fg">{t('footer.contact')}</h2>
          {content.support.email && (
            <a
              href={`mailto:${content.support.email}`}
              className="mt-4 flex items-center gap-2 text-sm text-muted hover:text-fg"
            >
              <Mail className="size-4 shrink-0" aria-hidden />
              <EmailAddress email={content.support.email} className="min-w-0" />
            </a>
          )}
          <p className="mt-3 text-sm text-muted">
            {accepted ? t('footer.accept.several', accepted) : t('footer.accept')}
          </p>
        </div>
      </div>
      <div className="border-t border-line py-5 text-center text-xs text-muted">
        {t('footer.copyright', { year, name: `${content.logo.mainText} ${content.logo.subText}` })}
      </div>
    </footer>
  )
}
