import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
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
  Wallet,
  Webhook,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { adminMessages } from '../../shared/admin'
import { Logo } from '../components/layout/logo'
import { MenuToggle } from '../components/layout/menu-toggle'
import { SkipLink } from '../components/layout/skip-link'
import { adminAuthFlag } from '../features/admin/admin-auth-flag'
import { adminApi, adminKeys } from '../features/admin/api/admin-api'
import { useSiteContent } from '../lib/api/get-site-content'
import { UNAUTHORIZED_EVENT } from '../lib/rpc-client'
import { toast } from '../lib/toast'

const tabs = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard, end: false },
  { to: '/admin', label: 'Orders', icon: ShoppingBag, end: true },
  { to: '/admin/products', label: 'Products', icon: Package, end: false },
  { to: '/admin/stock', label: 'Stock', icon: Boxes, end: false },
  { to: '/admin/wallets', label: 'Wallets', icon: Wallet, end: false },
  { to: '/admin/content', label: 'Content', icon: FileText, end: false },
  { to: '/admin/webhooks', label: 'Webhooks', icon: Webhook, end: false },
  { to: '/admin/chain', label: 'Chain', icon: Blocks, end: false },
  { to: '/admin/settings', label: 'Settings', icon: Bell, end: false },
  { to: '/admin/audit', label: 'Audit', icon: ScrollText, end: false },
  { to: '/admin/security', label: 'Security', icon: KeyRound, end: false },
]

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition ${
    isActive ? 'bg-primary/15 text-primary' : 'text-muted hover:bg-white/5 hover:text-fg'
  }`

/** Every /admin page: the server's session decides; without one the panel goes to /admin/login. */
export function AdminLayout() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { content } = useSiteContent()
  const { pathname } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const session = useQuery({
    queryKey: adminKeys.session,
    queryFn: adminApi.session,
    staleTime: Number.POSITIVE_INFINITY,
  })

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
      if (adminAuthFlag.get()) toast.error(adminMessages.sessionExpired, { id: 'session-expired' })
      leave()
    }
    window.addEventListener(UNAUTHORIZED_EVENT, expired)
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, expired)
  }, [navigate, queryClient])

  // A refused browser (403) or an unreachable server also ends at the login page, which explains why.
  useEffect(() => {
    if (session.isError) navigate('/admin/login', { replace: true })
  }, [session.isError, navigate])

  async function logout() {
    try {
      await adminApi.logout()
    } catch {}
    adminAuthFlag.clear()
    queryClient.removeQueries({ queryKey: adminKeys.all })
    navigate('/admin/login', { replace: true })
  }

  if (!session.data) {
    return (
      <p role="status" className="py-32 text-center text-muted">
        Loading...
      </p>
    )
  }

  const links = tabs.map(({ to, label, icon: Icon, end }) => (
    <NavLink key={to} to={to} end={end} className={tabClass}>
      {/* Eleven tabs fit one line from 1280 px with their icons only from 1536 px. */}
      <Icon className="size-4 xl:hidden 2xl:block" aria-hidden />
      {label}
    </NavLink>
  ))

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-line bg-background/90 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo mainText={content.logo.mainText} subText="ADMIN PANEL" />
          <nav aria-label="Admin" className="hidden items-center gap-1 xl:flex">
            {links}
          </nav>
          <div className="flex items-center gap-1">
            <button
              type="button"
              onClick={logout}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-muted hover:bg-white/5 hover:text-fg"
            >
              <LogOut className="size-4" aria-hidden />
              <span className="hidden sm:inline">Logout</span>
              <span className="sr-only sm:hidden">Logout</span>
            </button>
            <MenuToggle
              open={menuOpen}
              controls="admin-menu"
              onToggle={() => setMenuOpen((v) => !v)}
              className="xl:hidden"
            />
          </div>
        </div>
        {menuOpen && (
          <nav id="admin-menu" aria-label="Admin mobile" className="border-t border-line px-4 py-3 xl:hidden">
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
