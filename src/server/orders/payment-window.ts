// An order's payment window, computed in this one place: placing an order and the admin setting
// an order back to pending both open one. The window ends windowMs after it opens; a payment made
// within graceMs after that is still taken (late), and the order expires then.

export interface PaymentWindowRules {
  windowMs: number
  graceMs: number
}

export function paymentWindow(
  opensAt: Date,
  rules: PaymentWindowRules,
): { windowEndsAt: Date; graceUntil: Date } {
  const windowEndsAt = new Date(opensAt.getTime() + rules.windowMs)
  return { windowEndsAt, graceUntil: new Date(windowEndsAt.getTime() + rules.graceMs) }
}
