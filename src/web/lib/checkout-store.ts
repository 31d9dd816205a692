import { type ChainId, chainIds, firstChain, type TokenSymbol, tokenSymbols } from '../../shared/chains'
import { createLocalStore } from './local-store'
import { readJson, removeKey, storageKeys, writeJson } from './storage'

/** The network an order is paid on, when it is not TRON: what its payment page shows. */
export interface OrderNetwork {
  chain: ChainId
  token: TokenSymbol
  /** The token's decimals on that chain (18 for USDT and USDC on BNB Smart Chain). */
  tokenDecimals: number
  /** The total in the token's base units (decimal string, exact). */
  amountUnits: string
  /** What the QR code holds: an EIP-681 transfer of the token, on the chain, for the amount. */
  paymentUri: string
  /** Every network on which a payment to the order's address is credited. */
  watched: { chain: ChainId; tokens: TokenSymbol[] }[]
  /** Blocks on top of a transfer before it pays, and what they take at the chain's block time (s). */
  /** The expected wait; blocks null: the chain marks the transfer final itself (Solana's finalized). */
  confirm?: { blocks: number | null; seconds: number }
}

function isChain(value: unknown): value is ChainId {
  return typeof value === 'string' && (chainIds as readonly string[]).includes(value)
}
function isToken(value: unknown): value is TokenSymbol {
  return typeof value === 'string' && (tokenSymbols as readonly string[]).includes(value)
}

function loadNetwork(raw: unknown): OrderNetwork | null {
  if (!raw || typeof raw !== 'object') return null
  const n = raw as Record<string, unknown>
  if (!isChain(n.chain) || !isToken(n.token) || typeof n.tokenDecimals !== 'number') return null
  if (typeof n.amountUnits !== 'string' || !/^\d+$/.test(n.amountUnits) || typeof n.paymentUri !== 'string')
    return null
  const watched = Array.isArray(n.watched)
    ? n.watched.flatMap((w: { chain?: unknown; tokens?: unknown }) =>
        isChain(w?.chain) && Array.isArray(w.tokens)
          ? [{ chain: w.chain, tokens: w.tokens.filter(isToken) }]
          : [],
      )
    : []
  const confirm = n.confirm as { blocks?: unknown; seconds?: unknown } | undefined
  return {
    chain: n.chain,
    token: n.token,
    tokenDecimals: n.tokenDecimals,
    amountUnits: n.amountUnits,
    paymentUri: n.paymentUri,
    watched,
    ...((typeof confirm?.blocks === 'number' || confirm?.blocks === null) &&
    typeof confirm.seconds === 'number'
      ? { confirm: { blocks: confirm.blocks, seconds: confirm.seconds } }
      : {}),
  }
}

/** What the payment page needs of the order's network (null: a TRON order, shown as always). */
export function networkOfOrder(order: {
  chain?: ChainId
  token?: TokenSymbol
  token_decimals?: number
  amount_units?: string
  payment_uri?: string
  watched?: { chain: ChainId; tokens: TokenSymbol[] }[]
  confirm_blocks?: number | null
  confirm_seconds?: number | null
}): OrderNetwork | null {
  if (!order.chain || order.chain === firstChain || !order.token || !order.payment_uri || !order.amount_units)
    return null
  return {
    chain: order.chain,
    token: order.token,
    tokenDecimals: order.token_decimals ?? 6,
    amountUnits: order.amount_units,
    paymentUri: order.payment_uri,
    watched: order.watched ?? [],
    ...(typeof order.confirm_seconds === 'number'
      ? { confirm: { blocks: order.confirm_blocks ?? null, seconds: order.confirm_seconds } }
      : {}),
  }
}

/** The checkout state kept in localStorage, plus the end of the server's payment window and total. */
export interface CheckoutState {
  email: string
  /** When the order was created (ms since epoch). */
  startTime: number | null
  isActive: boolean
  orderId: string | null
  /** The order's secret from secure_create_order: it unlocks the order's full status and Cancel. */
  orderSecret: string | null
  walletAddress: string | null
  /** When the payment window closes, from the server's clock (ms since epoch). */
  windowEndsAt: number | null
  /** Order total in dollars, as the server computed it. */
  total: number | null
  /** TRX to send instead, locked at order time, and its rate (USD per TRX); null when not offered. */
  trxAmount: string | null
  trxRate: string | null
  /** The discount code the order was placed with and what it took off (dollars); null without one. */
  discountCode: string | null
  discount: number | null
  /** The browser's earlier order had a payment in flight when this one was placed: it was kept. */
  earlierConfirming: boolean
  /** The order's network when it is not TRON; null for a TRON order. */
  network: OrderNetwork | null
}

export const inactiveCheckout: CheckoutState = {
  email: '',
  startTime: null,
  isActive: false,
  orderId: null,
  orderSecret: null,
  walletAddress: null,
  windowEndsAt: null,
  total: null,
  trxAmount: null,
  trxRate: null,
  discountCode: null,
  discount: null,
  earlierConfirming: false,
  network: null,
}

function load(): CheckoutState {
  // expiresAt: the name a checkout stored before an upgrade gave the window's end (decision 032).
  const raw = readJson<(Partial<CheckoutState> & { expiresAt?: unknown }) | null>(storageKeys.checkout, null)
  if (!raw || typeof raw !== 'object') return inactiveCheckout
  return {
    email: typeof raw.email === 'string' ? raw.email : '',
    startTime: typeof raw.startTime === 'number' ? raw.startTime : null,
    isActive: raw.isActive === true,
    orderId: typeof raw.orderId === 'string' ? raw.orderId : null,
    orderSecret: typeof raw.orderSecret === 'string' ? raw.orderSecret : null,
    walletAddress: typeof raw.walletAddress === 'string' ? raw.walletAddress : null,
    windowEndsAt:
      typeof raw.windowEndsAt === 'number'
        ? raw.windowEndsAt
        : typeof raw.expiresAt === 'number'
          ? raw.expiresAt
          : null,
    total: typeof raw.total === 'number' ? raw.total : null,
    trxAmount: typeof raw.trxAmount === 'string' ? raw.trxAmount : null,
    trxRate: typeof raw.trxRate === 'string' ? raw.trxRate : null,
    discountCode: typeof raw.discountCode === 'string' ? raw.discountCode : null,
    discount: typeof raw.discount === 'number' ? raw.discount : null,
    earlierConfirming: raw.earlierConfirming === true,
    network: loadNetwork(raw.network),
  }
}

const store = createLocalStore<CheckoutState>({
  keys: [storageKeys.checkout],
  load,
  save: (next) => (next.isActive ? writeJson(storageKeys.checkout, next) : removeKey(storageKeys.checkout)),
  initial: inactiveCheckout,
})
const commit = store.set

export const checkout = {
  get: () => store.get(),
  start(order: {
    email: string
    orderId: string
    orderSecret: string
    walletAddress: string
    windowEndsAt: number
    total: number
    trxAmount: string | null
    trxRate: string | null
    discountCode?: string | null
    discount?: number | null
    earlierConfirming?: boolean
    network?: OrderNetwork | null
  }): void {
    commit({
      discountCode: null,
      discount: null,
      earlierConfirming: false,
      network: null,
      ...order,
      startTime: Date.now(),
      isActive: true,
    })
  },
  reset(): void {
    commit(inactiveCheckout)
  },
  subscribe: store.subscribe,
  reload: store.reload,
}

/**
 * Set by the payment page while a transfer to the order was seen and is being confirmed: the
 * window's end then neither alarms the buyer nor clears the checkout (the server settles or expires
 * the order by chain time, and the page follows its answer). In memory only: a reload asks again.
 */
let confirmingOrder: string | null = null
export const paymentConfirming = {
  set(orderId: string | null): void {
    confirmingOrder = orderId
  },
  is(orderId: string | null): boolean {
    return orderId !== null && confirmingOrder === orderId
  },
}

/** The secret of this browser's order with that id, to send with calls about it. */
export function secretOfOrder(orderId: string): string | undefined {
  const state = store.get()
  return state.orderId === orderId ? (state.orderSecret ?? undefined) : undefined
}

export function useCheckout(): CheckoutState {
  return store.use()
}

/** Milliseconds left in the window (0 when over); a state without the window's end falls back to 30 minutes from the start. */
export function msRemaining(s: CheckoutState, now = Date.now()): number {
  const end = s.windowEndsAt ?? (s.startTime ? s.startTime + 30 * 60_000 : now)
  return Math.max(0, end - now)
}

/** m:ss, as the payment page shows the countdown. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(ms / 1000)
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`
}

// What the payment success modal reads: the stored payment_success, payment_amount and
// dashboard_url keys.
export interface PaymentSuccess {
  amount: number
  dashboardUrl: string | null
}

function loadSuccess(): PaymentSuccess | null {
  if (readJson<unknown>(storageKeys.paymentSuccess, null) !== true) return null
  const amount = Number(readJson<unknown>(storageKeys.paymentAmount, 0))
  const url = readJson<unknown>(storageKeys.dashboardUrl, null)
  return { amount: Number.isFinite(amount) ? amount : 0, dashboardUrl: typeof url === 'string' ? url : null }
}

const successStore = createLocalStore<PaymentSuccess | null>({
  keys: [storageKeys.paymentSuccess, storageKeys.paymentAmount, storageKeys.dashboardUrl],
  load: loadSuccess,
  save(next) {
    if (next) {
      writeJson(storageKeys.paymentSuccess, true)
      writeJson(storageKeys.paymentAmount, next.amount)
      // Stored only when a token came back; a dismissed modal keeps the link.
      if (next.dashboardUrl) writeJson(storageKeys.dashboardUrl, next.dashboardUrl)
    } else {
      removeKey(storageKeys.paymentSuccess)
      removeKey(storageKeys.paymentAmount)
    }
  },
  initial: null,
})

export const paymentSuccess = {
  get: () => successStore.get(),
  record(amount: number, accessToken: string | null): void {
    const dashboardUrl = accessToken
      ? `${window.location.origin}/dashboard/${accessToken}`
      : readJson<string | null>(storageKeys.dashboardUrl, null)
    successStore.set({ amount, dashboardUrl: typeof dashboardUrl === 'string' ? dashboardUrl : null })
  },
  /** The buyer closed the modal; the dashboard link stays stored. */
  dismiss(): void {
    successStore.set(null)
  },
  subscribe: successStore.subscribe,
  reload: successStore.reload,
}

export function usePaymentSuccess(): PaymentSuccess | null {
  return successStore.use()
}
