import { createBrowserRouter, Navigate } from 'react-router'
import { ListingPage } from '../features/catalog/listing-page'
import { ProductPage } from '../features/product/product-page'
import { SupportPage } from '../features/support/support-page'
import { PublicLayout } from './public-layout'

export const router = createBrowserRouter([
  {
    element: <PublicLayout />,
    children: [
      { path: '/', element: <ListingPage /> },
      { path: '/products', element: <ListingPage /> },
      { path: '/product/:id', element: <ProductPage /> },
      { path: '/support', element: <SupportPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
])
