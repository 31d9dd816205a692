// What a buyer's wallet and an explorer are handed on Solana: the Solana Pay request and Solscan's
// page. Apart from the adapter, so the family object has them without loading the adapter's code.

/** Solscan's page of a transaction. */
export function solanaExplorerTxUrl(signature: string): string {
  return `https://solscan.io/tx/${encodeURIComponent(signature)}`
}

/**
 * A Solana Pay transfer request (https://docs.solanapay.com/spec): the recipient is the order's
 * address (the wallet sends to its associated token account), the amount in whole tokens written
 * exactly, the mint, and the order's address again as the reference (the transfer then names it,
 * so a listing of the address finds it), with the shop's label.
 */
export function solanaPayUri(p: {
  address: string
  mint: string
  amountUnits: bigint
  decimals: number
  label?: string
}): string {
  const digits = p.amountUnits.toString().padStart(p.decimals + 1, '0')
  const whole = digits.slice(0, digits.length - p.decimals)
  const frac = digits.slice(digits.length - p.decimals).replace(/0+$/, '')
  const amount = frac ? `${whole}.${frac}` : whole
  const params = new URLSearchParams({ amount, 'spl-token': p.mint, reference: p.address })
  if (p.label) params.set('label', p.label)
  return `solana:${p.address}?${params.toString().replace(/\+/g, '%20')}`
}
