import type { CatalogService } from '../catalog/catalog.service'
import type { Database } from '../db/client'
import type { Env } from '../env'
import type { Signal } from '../lib/signal'
import type { PaymentRules } from '../payments/payment-rules'
import { adminOrderRpcs } from './admin-orders.routes'
import { adminProductRpcs } from './admin-products.routes'
import { adminWalletRpcs } from './admin-wallets.routes'
import { sessionRpcs } from './session.routes'

export interface AdminDeps {
  database: Database
  env: Env
  catalog: CatalogService
  /** The payment rules and delivery context of the one path to paid. */
  rules: PaymentRules
  orderPaid: Signal<string>
}

/** The admin panel's calls, by resource; every one but login is `admin: true` and passes the admin guard first. */
export function adminRpcs(deps: AdminDeps) {
  return [...sessionRpcs(deps), ...adminOrderRpcs(deps), ...adminProductRpcs(deps), ...adminWalletRpcs(deps)]
}
