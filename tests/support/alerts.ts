/** Every operator alert switched on, as the admin's settings store them. */
export const allAlertsOn = {
  order_paid: true,
  payment_unmatched: true,
  stock_low: true,
  pool_low: true,
  mail_failing: true,
  scanner_stalled: true,
  providers_down: true,
  provider_quota: true,
  provider_set_aside: true,
}
