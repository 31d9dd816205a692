import { createBrowserRouter, Navigate } from 'react-router'
import { AuditTab } from '../features/admin/cockpit/audit-tab'
import { DashboardTab } from '../features/admin/cockpit/dashboard-tab'
import { StockTab } from '../features/admin/cockpit/stock-tab'
import { ContentTab } from '../features/admin/content-tab'
import { AdminLoginPage } from '../features/admin/login-page'
import { OrdersTab } from '../features/admin/orders-tab'
import { ProductsTab } from '../features/admin/products-tab'
import { SecurityTab } from '../features/admin/security-tab'
import { WalletsTab } from '../features/admin/wallets-tab'
import { CartPage } from '../features/cart/cart-page'
import { ListingPage } from '../features/catalog/listing-page'
import { CheckoutPage } from '../features/checkout/checkout-page'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { PaymentPage } from '../features/payment/payment-page'
import { ProductPage } from '../features/product/product-page'
import { SupportPage } from '../features/support/support-page'
import { AdminLayout } from './admin-layout'
import { PublicLayout } from './public-layout'

export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <PublicLayout />,
      children: [
        { path: '/', element: <ListingPage /> },
        { path: '/products', element: <ListingPage /> },
        { path: '/product/:id', element: <ProductPage /> },
        { path: '/support', element: <SupportPage /> },
        { path: '/cart', element: <CartPage /> },
        { path: '/checkout', element: <CheckoutPage /> },
        { path: '/payment', element: <PaymentPage /> },
        { path: '/dashboard/:token', element: <DashboardPage /> },
      ],
    },
    // The admin has its own header and no public header or footer.
    { path: '/admin/login', element: <AdminLoginPage /> },
    {
      path: '/admin',
      element: <AdminLayout />,
      children: [
        { index: true, element: <OrdersTab /> },
        { path: 'dashboard', element: <DashboardTab /> },
        { path: 'products', element: <ProductsTab /> },
        { path: 'stock', element: <StockTab /> },
        { path: 'audit', element: <AuditTab /> },
        { path: 'wallets', element: <WalletsTab /> },
        { path: 'content', element: <ContentTab /> },
        { path: 'security', element: <SecurityTab /> },
        { path: '*', element: <Navigate to="/admin" replace /> },
      ],
    },
    { path: '*', element: <Navigate to="/" replace /> },
  ])
}
