import { type ComponentType, lazy, Suspense } from 'react'
import { Navigate, type RouteObject, useRoutes } from 'react-router'
import { ListingPage } from '../features/catalog/listing-page'
import { ProductPage } from '../features/product/product-page'
import { SupportPage } from '../features/support/support-page'
import { loadBuyMessages } from '../i18n/i18n'
import { PublicLayout } from './public-layout'

// The catalogue pages (server-rendered) are in the first chunk; the cart, checkout, payment,
// dashboard and the admin panel are downloaded when visited.
const later = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType) =>
  lazy(async () => ({ default: pick(await load()) }))
const admin = () => import('./admin-pages')
/** A buying page's chunk together with its messages (the `buy` area). */
const buying =
  <M,>(load: () => Promise<M>) =>
  async () =>
    (await Promise.all([load(), loadBuyMessages()]))[0]

const CartPage = later(
  buying(() => import('../features/cart/cart-page')),
  (m) => m.CartPage,
)
const CheckoutPage = later(
  buying(() => import('../features/checkout/checkout-page')),
  (m) => m.CheckoutPage,
)
const PaymentPage = later(
  buying(() => import('../features/payment/payment-page')),
  (m) => m.PaymentPage,
)
const InvoicePaymentPage = later(
  buying(() => import('../features/payment/invoice-payment-page')),
  (m) => m.InvoicePaymentPage,
)
const DashboardPage = later(
  buying(() => import('../features/dashboard/dashboard-page')),
  (m) => m.DashboardPage,
)
const AdminScope = later(admin, (m) => m.AdminScope)
const MyOrdersPage = later(
  buying(() => import('../features/order-links/my-orders-page')),
  (m) => m.MyOrdersPage,
)
const RefundPage = later(
  buying(() => import('../features/refund/refund-page')),
  (m) => m.RefundPage,
)
const AdminLoginPage = later(admin, (m) => m.AdminLoginPage)
const AdminLayout = later(admin, (m) => m.AdminLayout)
const OrdersTab = later(admin, (m) => m.OrdersTab)
const ProductsTab = later(admin, (m) => m.ProductsTab)
const WalletsTab = later(admin, (m) => m.WalletsTab)
const ContentTab = later(admin, (m) => m.ContentTab)
const SecurityTab = later(admin, (m) => m.SecurityTab)
const SalesTab = later(admin, (m) => m.SalesTab)
const StockTab = later(admin, (m) => m.StockTab)
const DiscountsTab = later(admin, (m) => m.DiscountsTab)
const LicencesTab = later(admin, (m) => m.LicencesTab)
const AuditTab = later(admin, (m) => m.AuditTab)
const WebhooksTab = later(admin, (m) => m.WebhooksTab)
const ApiKeysTab = later(admin, (m) => m.ApiKeysTab)
const SettingsTab = later(admin, (m) => m.SettingsTab)
const ChainTab = later(admin, (m) => m.ChainTab)

/** Paths the server renders to HTML (with the catalogue and site content). */
export const serverRenderedPaths = /^\/(products|support|product\/[1-9]\d{0,9})?$/

const storefrontRoutes = [
  { path: '/', element: <ListingPage /> },
  { path: '/products', element: <ListingPage /> },
  { path: '/product/:id', element: <ProductPage /> },
  { path: '/support', element: <SupportPage /> },
  { path: '/cart', element: <CartPage /> },
  { path: '/checkout', element: <CheckoutPage /> },
  { path: '/payment', element: <PaymentPage /> },
  // An invoice's hosted payment page (server-rendered by its own route, decision 062).
  { path: '/invoice/*', element: <InvoicePaymentPage /> },
  { path: '/dashboard/:token', element: <DashboardPage /> },
  { path: '/orders/:token', element: <MyOrdersPage /> },
  { path: '/refund/:token', element: <RefundPage /> },
] satisfies RouteObject[]

/** The storefront's route patterns (the render tests visit each). */
export const storefrontPaths: readonly string[] = storefrontRoutes.map((route) => route.path)

const routes: RouteObject[] = [
  { element: <PublicLayout />, children: storefrontRoutes },
  // The admin has its own header, no public header or footer, and its own language.
  {
    element: <AdminScope />,
    children: [
      { path: '/admin/login', element: <AdminLoginPage /> },
      {
        path: '/admin',
        element: <AdminLayout />,
        children: [
          { index: true, element: <OrdersTab /> },
          { path: 'products', element: <ProductsTab /> },
          { path: 'wallets', element: <WalletsTab /> },
          // The sales view keeps its first address; the buyer's dashboard is /dashboard/{token}.
          { path: 'dashboard', element: <SalesTab /> },
          { path: 'stock', element: <StockTab /> },
          { path: 'discounts', element: <DiscountsTab /> },
          { path: 'licences', element: <LicencesTab /> },
          { path: 'content', element: <ContentTab /> },
          { path: 'audit', element: <AuditTab /> },
          { path: 'webhooks', element: <WebhooksTab /> },
          { path: 'api-keys', element: <ApiKeysTab /> },
          { path: 'settings', element: <SettingsTab /> },
          { path: 'chain', element: <ChainTab /> },
          { path: 'security', element: <SecurityTab /> },
          { path: '*', element: <Navigate to="/admin" replace /> },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]

export function AppRoutes() {
  return <Suspense fallback={null}>{useRoutes(routes)}</Suspense>
}
