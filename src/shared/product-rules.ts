// Catalogue rules without the schema library, so the storefront's first load stays small.

/** Free means is_free or a price of 0. */
export function isFreeProduct(p: { is_free: boolean; price: number }): boolean {
  return p.is_free || p.price === 0
}
