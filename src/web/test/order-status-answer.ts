// What the shop's secure_get_order_status answers for a pending order nobody has paid yet (the
// payment page tests' stand-ins answer it, with the fields a test changes).

export function pendingStatusAnswer(orderId: string, over: Record<string, unknown> = {}) {
  return {
    success: true,
    order_id: orderId,
    status: 'pending',
    total: 20,
    amount_received: 0,
    tx_hash: null,
    access_token: null,
    window_ends_at: new Date(Date.now() + 30 * 60_000).toISOString(),
    grace_until: new Date(Date.now() + 90 * 60_000).toISOString(),
    paid_at: null,
    late: false,
    detection_delayed: false,
    sightings: { confirming: null, dropped: false, failed: [] },
    version: '0',
    ...over,
  }
}
