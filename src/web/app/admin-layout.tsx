import { useQueryClient } from '@tanstack/react-query'
import {
  BadgeCheck,
  Bell,
  Blocks,
  Boxes,
  FileText,
  KeyRound,
  LayoutDashboard,
  LogOut,
  Package,
  ScrollText,
  ShoppingBag,
  TicketPercent,
  Wallet,
  Webhook,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { Logo } from '../components/layout/logo'
import { MenuToggle } from '../components/layout/menu-toggle'
import { SkipLink } from '../components/layout/skip-link'
import { adminKeys } from '../features/admin/api/admin-api'
import { adminAuthFlag } from '../features/admin/session/admin-auth-flag'
import { logout as endSession, useAdminSession } from '../features/admin/session/api/session'
import { type MessageId, useT } from '../i18n/i18n'
import { LanguageSwitcher } from '../i18n/language-switcher'
import { useSiteContent } from '../lib/api/get-site-content'
import { UNAUTHORIZED_EVENT } from '../lib/rpc-client'
import { toast } from '../lib/toast'

const tabs = [
  { to: '/admin/dashboard', label: 'admin.tab.sales', icon: LayoutDashboard, end: false },
  { to: '/admin', label: 'admin.tab.orders', icon: ShoppingBag, end: true },
  { to: '/admin/products', label: 'admin.tab.products', icon: Package, end: false },
  { to: '/admin/stock', label: 'admin.tab.stock', icon: Boxes, end: false },
  { to: '/admin/discounts', label: 'admin.tab.discounts', icon: TicketPercent, end: false },
  { to: '/admin/licences', label: 'admin.tab.licences', icon: BadgeCheck, end: false },
  { to: '/admin/wallets', label: 'admin.tab.wallets', icon: Wallet, end: false },
  { to: '/admin/content', label: 'admin.tab.content', icon: FileText, end: false },
  { to: '/admin/webhooks', label: 'admin.tab.webhooks', icon: Webhook, end: false },
  { to: '/admin/api-keys', label: 'admin.tab.apiKeys', icon: KeyRound, end: false },
  { to: '/admin/chain', label: 'admin.tab.chain', icon: Blocks, end: false },
  { to: '/admin/settings', label: 'admin.tab.settings', icon: Bell, end: false },
  { to: '/admin/audit', label: 'admin.tab.audit', icon: ScrollText, end: false },
  { to: '/admin/security', label: 'admin.tab.security', icon: KeyRound, end: false },
] as const satisfies { to: string; label: MessageId; icon: unknown; end: boolean }[]

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition ${
    isActive ? 'bg-primary/15 text-primary' : 'text-muted hover:bg-white/5 hover:text-fg'
  }`

/** Every /admin page: the server's session decides; without one the panel goes to /admin/login. */
export function AdminLayout() {
  const t = useT()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { content } = useSiteContent()
  const { pathname } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const session = useAdminSession({ once: true })

  // biome-ignore lint/correctness/useExhaustiveDependencies: closes the menu on page change
  useEffect(() => setMenuOpen(false), [pathname])

  useEffect(() => {
    const leave = () => {
      adminAuthFlag.clear()
      queryClient.removeQueries({ queryKey: adminKeys.all })
      navigate('/admin/login', { replace: true })
    }
    // A visitor who was never logged in is just sent to the login page; a session that ended says so.
    const expired = () => {
      if (adminAuthFlag.get()) toast.error(t('admin.sessionExpired'), { id: 'session-expired' })
      leave()
    }
    window.addEventListener(UNAUTHORIZED_EVENT, expired)
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, expired)
  }, [navigate, queryClient, t])

  // A refused browser (403) or an unreachable server also ends at the login page, which explains why.
  useEffect(() => {
    if (session.isError) navigate('/admin/login', { replace: true })
  }, [session.isError, navigate])

  async function logout() {
    await endSession()
    adminAuthFlag.clear()
    queryClient.removeQueries({ queryKey: adminKeys.all })
    navigate('/admin/login', { replace: true })
  }

  if (!session.data) {
    return (
      <p role="status" className="py-32 text-center text-muted">
        {t('admin.loading')}
      </p>
    )
  }

  const links = tabs.map(({ to, label, icon: Icon, end }) => (
    <NavLink key={to} to={to} end={end} className={tabClass}>
      <Icon className="size-4" aria-hidden />
      {t(label)}
    </NavLink>
  ))

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-background/90 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <div className="shrink-0">
            <Logo mainText={content.logo.mainText} subText={t('admin.panel')} />
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <LanguageSwitcher admin />
            <button
              type="button"
              onClick={logout}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-muted hover:bg-white/5 hover:text-fg"
            >
              <LogOut className="size-4" aria-hidden />
              <span className="hidden sm:inline">{t('admin.logout')}</span>
              <span className="sr-only sm:hidden">{t('admin.logout')}</span>
            </button>
            <MenuToggle
              open={menuOpen}
              controls="admin-menu"
              onToggle={() => setMenuOpen((v) => !v)}
              className="lg:hidden"
            />
          </div>
        </div>
        {/* From 1024 px every tab is in view, on a row of its own that wraps rather than scrolls
            sideways; below, the menu. */}
        <nav
          aria-label={t('admin.nav')}
          className="mx-auto hidden max-w-7xl flex-wrap items-center gap-1 px-4 pb-2 sm:px-6 lg:flex [&_svg]:hidden 2xl:[&_svg]:block"
        >
          {links}
        </nav>
        {menuOpen && (
          <nav
            id="admin-menu"
            aria-label={t('admin.navMobile')}
            className="border-t border-line px-4 py-3 lg:hidden"
          >
            <div className="flex flex-col gap-1">{links}</div>
          </nav>
        )}
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
        <Outlet />
      </main>
    </div>
  )
}
