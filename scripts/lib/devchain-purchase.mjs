// A purchase through a running shop, paid on the devchain: what the scripts that run the built shop
// (purchase-in-512mb.mjs, container-test.mjs) do to prove it takes money end to end.

/** POST a JSON body; the answer's JSON, or an error naming the path and the status. */
export async function postJson(base, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = await res.json()
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`)
  return json
}

/** The order's status answer once it is paid (or completed); null before. */
export async function paidStatus(shopUrl, order) {
  const status = await postJson(shopUrl, '/rpc/secure_get_order_status', {
    p_order_id: order.order_id,
    p_order_secret: order.order_secret,
  })
  return status.status === 'paid' || status.status === 'completed' ? status : null
}

/**
 * Orders one unit of the first paid product, pays its total on the devchain, makes the transfer
 * final and waits (with the caller's `until(what, check)`) for the order to be paid.
 */
export async function buyOnDevchain({ shopUrl, chainUrl, until, email = 'buyer@example.com' }) {
  const { products } = await postJson(shopUrl, '/rpc/fetch_products', {})
  const product = products.find((p) => !p.is_free && p.price > 0)
  const order = await postJson(shopUrl, '/rpc/secure_create_order', {
    p_email: email,
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
  })
  if (!order.success) throw new Error(`the order was refused: ${order.error}`)
  await postJson(chainUrl, '/_sim/transfers', { to: order.wallet_address, amount: String(order.total) })
  const state = await (await fetch(`${chainUrl}/_sim/state`)).json()
  await postJson(chainUrl, '/_sim/mine', { blocks: state.solidify_lag + 1 })
  await until('the order to be paid', () => paidStatus(shopUrl, order))
  return order
}
