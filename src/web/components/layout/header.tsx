import { ShoppingCart } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { useT } from '../../i18n/i18n'
import { LanguageSwitcher } from '../../i18n/language-switcher'
import { useSiteContent } from '../../lib/api/get-site-content'
import { useCartItems } from '../../lib/cart-store'
import { Logo } from './logo'
import { MenuToggle } from './menu-toggle'

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium transition hover:bg-white/5 hover:text-fg ${isActive ? 'text-fg' : 'text-muted'}`

export function Header() {
  const t = useT()
  const { content } = useSiteContent()
  const lines = useCartItems().length
  const [menuOpen, setMenuOpen] = useState(false)
  const location = useLocation()

  // Close the mobile menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route change only
  useEffect(() => setMenuOpen(false), [location.pathname])

  const navLinks = (
    <>
      <NavLink to="/products" className={navClass}>
        {content.navigation.products}
      </NavLink>
      <NavLink to="/support" className={navClass}>
        {content.navigation.support}
      </NavLink>
    </>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-background/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="rounded-lg">
          <Logo mainText={content.logo.mainText} subText={content.logo.subText} />
          <span className="sr-only"> {t('header.home')}</span>
        </Link>
        <nav aria-label={t('header.mainNav')} className="hidden items-center gap-1 md:flex">
          {navLinks}
        </nav>
        <div className="flex items-center gap-1">
          <LanguageSwitcher />
          <Link
            to="/cart"
            aria-label={t('header.cart', { count: lines })}
            className="relative rounded-lg p-2.5 text-fg hover:bg-white/5"
          >
            <ShoppingCart className="size-5" aria-hidden />
            {lines > 0 && (
              <span
                data-testid="cart-badge"
                className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] font-bold text-on-primary"
              >
                {lines}
              </span>
            )}
          </Link>
          <MenuToggle
            open={menuOpen}
            controls="mobile-menu"
            onToggle={() => setMenuOpen((v) => !v)}
            className="md:hidden"
          />
        </div>
      </div>
      {menuOpen && (
        <nav
          id="mobile-menu"
          aria-label={t('header.mobileNav')}
          className="border-t border-line px-4 py-3 md:hidden"
        >
          <div className="flex flex-col gap-1">{navLinks}</div>
        </nav>
      )}
    </header>
  )
}
