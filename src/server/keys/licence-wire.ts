import type { InstanceRow, KeyState } from './licences.repo'

// The licence API's answers in Lemon Squeezy's shapes (its License API), so an app written for
// that API works against this shop by changing only the host. Refusal texts are theirs too.

export const licenceErrors = {
  notFound: 'license_key not found.',
  instanceNotFound: 'license_key instance not found.',
  limitReached: 'This license key has reached the activation limit.',
  disabled: 'This license key is disabled.',
  expired: 'This license key has expired.',
  tooMany: 'Too many requests. Try again later.',
} as const

export type LicenceVerb = 'activated' | 'valid' | 'deactivated'

/** The shop has one store: every key's meta names store 1. */
export const STORE_ID = 1

export function licenseKeyWire(state: KeyState) {
  const { key } = state
  return {
    id: key.id,
    status: state.status,
    key: key.key,
    activation_limit: key.activationLimit,
    activation_usage: state.usage,
    created_at: key.soldAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    test_mode: false,
  }
}

export function instanceWire(instance: InstanceRow) {
  return { id: instance.id, name: instance.name, created_at: instance.createdAt.toISOString() }
}

export function metaWire(state: KeyState) {
  const { key } = state
  return {
    store_id: STORE_ID,
    order_id: key.orderId,
    order_item_id: null,
    product_id: key.productId,
    product_name: key.productName,
    variant_id: key.productId,
    variant_name: 'Default',
    customer_id: null,
    customer_name: '',
    customer_email: key.email ?? '',
  }
}

/** A refusal of any call: the verb false, the error, and the key's facts when the key is known. */
export function refusalBody(verb: LicenceVerb, error: string, state?: KeyState) {
  return {
    [verb]: false,
    error,
    license_key: state ? licenseKeyWire(state) : null,
    ...(verb === 'deactivated' ? {} : { instance: null }),
    meta: state ? metaWire(state) : null,
    ...(verb === 'deactivated' ? {} : { license_token: null }),
  }
}
