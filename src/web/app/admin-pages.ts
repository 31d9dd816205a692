// Everything the admin panel renders, in one chunk that only /admin visits download.
export { ContentTab } from '../features/admin/content-tab'
export { AdminLoginPage } from '../features/admin/login-page'
export { OrdersTab } from '../features/admin/orders-tab'
export { ProductsTab } from '../features/admin/products-tab'
export { SecurityTab } from '../features/admin/security-tab'
export { WalletsTab } from '../features/admin/wallets-tab'
export { AdminLayout } from './admin-layout'
