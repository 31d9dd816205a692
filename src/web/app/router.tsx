import { createBrowserRouter, Navigate } from 'react-router'
import { CartPage } from '../features/cart/cart-page'
import { ListingPage } from '../features/catalog/listing-page'
import { CheckoutPage } from '../features/checkout/checkout-page'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { PaymentPage } from '../features/payment/payment-page'
import { ProductPage } from '../features/product/product-page'
import { SupportPage } from '../features/support/support-page'
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
    { path: '*', element: <Navigate to="/" replace /> },
  ])
}
