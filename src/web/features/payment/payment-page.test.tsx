// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { makeProduct } from '../../../../tests/support/product'
import { CheckoutWatch } from '../../app/checkout-watch'
import { cart } from '../../lib/cart-store'
import { checkout, paymentSuccess } from '../../lib/checkout-store'
import { storageKeys } from '../../lib/storage'
import { pendingStatusAnswer } from '../../test/order-status-answer'
import { renderWithProviders } from '../../test/render'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { PaymentPage } from './payment-page'

// The page talks to the shared RPC stand-in (a real local HTTP server), answering
// secure_get_order_status as the shop does.
const ORDER_ID = '7d7c2c4e-9b7a-4c52-9d1c-2f4b6a8e0a11'
let rpc: RpcServer
/** What the shop answers the page's status calls from now on. */
const answerStatus = (answer: Record<string, unknown>) => rpc.reply('secure_get_order_status', answer)

const status = (over: Record<string, unknown>) => pendingStatusAnswer(ORDER_ID, over)

const confirming = (over: Record<string, unknown> = {}) => ({
  amount_seen: 20,
  missing: 0,
  block: 1000,
  head_block: 1005,
  solid_block: 986,
  blocks_left: 14,
  seconds_left: 42,
  progress: 5 / 19,
  ...over,
})

beforeAll(async () => {
  rpc = await startRpcServer('/payment')
})
afterAll(() => rpc.close())

const product = makeProduct(1, { price: 20 })

function renderPayment(locale: 'en' | 'zh' | 'ru' = 'en') {
  renderWithProviders(
    <MemoryRouter initialEntries={['/payment']}>
      <CheckoutWatch />
      <Routes>
        <Route path="/payment" element={<PaymentPage />} />
        <Route path="/cart" element={<h1>Cart page</h1>} />
        <Route path="/checkout" element={<h1>Checkout page</h1>} />
        <Route path="/" element={<h1>Home page</h1>} />
      </Routes>
    </MemoryRouter>,
    { locale },
  )
}

/** The checkout the page shows: a $20 order in USDT only, unless a test sets more. */
function startCheckout(over: Partial<Parameters<typeof checkout.start>[0]> = {}) {
  checkout.start({
    email: 'buyer@example.com',
    orderId: ORDER_ID,
    orderSecret: 'test-secret',
    walletAddress: 'TTestAddressForThePaymentPage0000',
    windowEndsAt: Date.now() + 30 * 60_000,
    total: 20,
    trxAmount: null,
    trxRate: null,
    ...over,
  })
}

describe('payment page', () => {
  beforeEach(() => {
    paymentSuccess.dismiss()
    cart.clear()
    cart.add(product)
    startCheckout()
  })

  it('waiting: the amount, the address and the countdown', async () => {
    answerStatus(status({}))
    renderPayment()
    expect(screen.getByRole('heading', { name: 'Complete Your Payment' })).toBeTruthy()
    expect(screen.getByTestId('pay-amount').textContent).toBe('$20.00')
    expect(screen.getByRole('timer').textContent).toMatch(/^(30:00|29:5\d)$/)
    await waitFor(() => expect(screen.getByText('Waiting for your payment…')).toBeTruthy())
    expect(
      screen.getByText('This address is for this order only. For another purchase, place a new order.'),
    ).toBeTruthy()
    // It asks for its own order, with the secret the checkout kept.
    await waitFor(() =>
      expect(rpc.callsTo('secure_get_order_status')[0]).toMatchObject({
        p_order_id: ORDER_ID,
        p_order_secret: 'test-secret',
      }),
    )
  })

  it("a new order placed while the browser's earlier payment is confirming says so, in every language", async () => {
    answerStatus(status({}))
    renderPayment()
    await waitFor(() => expect(screen.getByText('Waiting for your payment…')).toBeTruthy())
    expect(screen.queryByTestId('earlier-payment-confirming')).toBeNull()
    cleanup()

    startCheckout({ earlierConfirming: true })
    renderPayment()
    expect(screen.getByTestId('earlier-payment-confirming').textContent).toMatch(
      /^Your earlier payment is being confirmed; this new order has its own address\./,
    )
    cleanup()
    renderPayment('zh')
    expect(screen.getByTestId('earlier-payment-confirming').textContent).toMatch(
      /^您之前的付款正在确认中；这笔新订单有自己的收款地址。/,
    )
    cleanup()
    renderPayment('ru')
    expect(screen.getByTestId('earlier-payment-confirming').textContent).toMatch(
      /^Ваш предыдущий платёж подтверждается; у этого нового заказа свой адрес\./,
    )
  })

  it('several minutes with nothing seen: the transaction-hash form opens and says why, in every language', async () => {
    answerStatus(status({}))
    renderPayment()
    await waitFor(() => expect(screen.getByText('Waiting for your payment…')).toBeTruthy())
    expect(screen.queryByTestId('tx-hash-nudge')).toBeNull()
    cleanup()
    // The order was placed six minutes ago (the checkout as the browser stored it).
    const stored = JSON.parse(localStorage.getItem(storageKeys.checkout) as string)
    localStorage.setItem(
      storageKeys.checkout,
      JSON.stringify({ ...stored, startTime: Date.now() - 6 * 60_000 }),
    )
    checkout.reload()
    const texts = {
      en: /^Nothing has been seen on the chain yet\. If you have already sent the payment, enter its transaction hash/,
      zh: /^链上尚未看到付款。如果您已经付款，请输入交易哈希/,
      ru: /^Платёж в сети пока не виден\. Если вы уже отправили его, введите хеш транзакции/,
    }
    for (const locale of ['en', 'zh', 'ru'] as const) {
      renderPayment(locale)
      await waitFor(() => expect(screen.getByTestId('tx-hash-nudge').textContent).toMatch(texts[locale]))
      expect(screen.getByTestId('tx-hash-nudge').closest('details')?.open).toBe(true)
      cleanup()
    }
    // A transfer seen at the head is no reason to point at the form.
    answerStatus(status({ sightings: { confirming: confirming(), dropped: false, failed: [] } }))
    renderPayment()
    await waitFor(() => expect(rpc.callsTo('secure_get_order_status').length).toBeGreaterThan(0))
    await waitFor(() => expect(screen.getByRole('progressbar')).toBeTruthy())
    expect(screen.queryByTestId('tx-hash-nudge')).toBeNull()
  })

  it('in Russian: USDT, TRX and the rate as Russian writes them; the copied TRX amount stays as wallets read it', async () => {
    startCheckout({ total: 1234.5, trxAmount: '4938.000001', trxRate: '0.25' })
    answerStatus(status({ total: 1234.5 }))
    renderPayment('ru')
    expect(screen.getByTestId('pay-amount').textContent).toBe('1\u00a0234,50\u00a0$')
    expect(screen.getByText('Отправьте ровно 1 234,50 USDT в сети TRON (TRC20).')).toBeTruthy()
    expect(screen.getByText(/^4 938,000001 TRX по курсу 0,25 \$ за TRX,/)).toBeTruthy()
    expect((screen.getByLabelText('Или оплатите в TRX') as HTMLInputElement).value).toBe('4938.000001')
    await waitFor(() => expect(screen.getByText('Ожидаем вашу оплату…')).toBeTruthy())
  })

  it('detection delayed: says a payment made now is safe, instead of a silent spinner', async () => {
    answerStatus(status({ detection_delayed: true }))
    renderPayment()
    await waitFor(() => expect(screen.getByText('Payment detection is delayed')).toBeTruthy())
    expect(screen.getByRole('status').textContent).toMatch(/A payment you make now is safe/)
    expect(screen.queryByText('Waiting for your payment…')).toBeNull()
  })

  it('detected: confirming on the TRON network, the amount seen and the blocks still to come', async () => {
    answerStatus(status({ sightings: { confirming: confirming(), dropped: false, failed: [] } }))
    renderPayment()
    await waitFor(() =>
      expect(screen.getByText('Payment detected — confirming on the TRON network')).toBeTruthy(),
    )
    expect(screen.getByText('Amount seen: $20.00')).toBeTruthy()
    expect(screen.getByText(/5 of 19 blocks built on your transfer · about 42 seconds left/)).toBeTruthy()
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('26')
    expect(screen.queryByText('Waiting for your payment…')).toBeNull()
  })

  it('detected but short: says how much is still missing', async () => {
    answerStatus(
      status({
        sightings: {
          confirming: confirming({ amount_seen: 12.5, missing: 7.5 }),
          dropped: false,
          failed: [],
        },
      }),
    )
    renderPayment()
    await waitFor(() =>
      expect(
        screen.getByText('We see $12.50 of $20.00. $7.50 is still missing: send it to the same address.'),
      ).toBeTruthy(),
    )
  })

  it('the window ends while a transfer is confirming: no alarm, the checkout stays', async () => {
    startCheckout({ windowEndsAt: Date.now() + 1500 })
    answerStatus(status({ sightings: { confirming: confirming(), dropped: false, failed: [] } }))
    renderPayment()
    await waitFor(() => expect(screen.getByRole('timer').textContent).toBe('Confirming'), { timeout: 4000 })
    expect(checkout.get().isActive).toBe(true)
  })

  it('dropped and failed: back to waiting with the message, and the failure in plain words', async () => {
    answerStatus(
      status({
        sightings: {
          confirming: null,
          dropped: true,
          failed: [{ tx_id: 'ab'.repeat(32), token: 'USDT', amount: 20, reason: 'OUT_OF_ENERGY' }],
        },
      }),
    )
    renderPayment()
    await waitFor(() => expect(screen.getByText(/was dropped by the TRON network/)).toBeTruthy())
    expect(screen.getByText('Waiting for your payment…')).toBeTruthy()
    expect(
      screen.getByText('A transfer of 20.00 USDT to this address failed on the TRON network'),
    ).toBeTruthy()
    expect(screen.getByText(/Your wallet did not have enough TRX for the network fee/)).toBeTruthy()
  })

  it('underpaid: says what arrived and what is left', async () => {
    answerStatus(status({ amount_received: 12.5 }))
    renderPayment()
    await waitFor(() => expect(screen.getByText(/We received \$12\.50 of \$20\.00/)).toBeTruthy())
    expect(screen.getByText(/Send the remaining\s+\$7\.50/)).toBeTruthy()
  })

  it('underpaid on TRON: the amount to send is the rest in USDT, and the TRX amount for the total is withdrawn', async () => {
    startCheckout({ trxAmount: '80.000001', trxRate: '0.25' })
    answerStatus(
      status({
        amount_received: 12.5,
        shortfall: {
          token: 'USDT',
          received: '12.50',
          missing: '7.50',
          missingUnits: '7500000',
          paymentUri: null,
        },
      }),
    )
    renderPayment()
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Still to pay (USDT-TRC20)' })).toBeTruthy(),
    )
    expect(screen.getByTestId('pay-amount').textContent).toMatch(/^7\.50\sUSDT$/)
    expect(
      screen.getByText(
        /^Send exactly the remaining 7\.50\sUSDT on the TRON network \(TRC20\), not the full total\.$/,
      ),
    ).toBeTruthy()
    expect(screen.getByTestId('trx-total-only').textContent).toBe(
      'The TRX amount was for the full total: send the rest in USDT.',
    )
    expect(screen.queryByText(/80[.,]000001/)).toBeNull()
    expect(screen.getByText('Send exactly the amount shown in USDT to the address above.')).toBeTruthy()
    expect(screen.queryByText(/or TRX/)).toBeNull()
    expect(screen.queryByText(/Send exactly 20/)).toBeNull()
    // TRON's QR code is the address alone, as before.
    expect(
      screen.getByRole('img', { name: 'QR code of wallet address TTestAddressForThePaymentPage0000' }),
    ).toBeTruthy()
  })

  it('paid: confirmed, and the success is stored with the dashboard link', async () => {
    answerStatus(status({ status: 'paid', amount_received: 20, access_token: 'tok123' }))
    renderPayment()
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Payment confirmed' })).toBeTruthy())
    // The paid state replaces the payment instructions: nothing to send, nothing to cancel.
    expect(screen.queryByText(/Send exactly/)).toBeNull()
    expect(screen.queryByLabelText('Wallet address')).toBeNull()
    expect(screen.queryByRole('button', { name: /Cancel/ })).toBeNull()
    expect(screen.queryByRole('timer')).toBeNull()
    const panel = screen.getByRole('heading', { name: 'Payment confirmed' }).closest('section')
    expect(panel?.textContent).toContain('We received $20.00. Thank you!')
    expect(paymentSuccess.get()).toEqual({
      amount: 20,
      dashboardUrl: `${window.location.origin}/dashboard/tok123`,
    })
  })

  it('cancelled by the server: back to the cart, which is kept', async () => {
    answerStatus(status({ status: 'cancelled' }))
    renderPayment()
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Cart page' })).toBeTruthy())
    expect(checkout.get().isActive).toBe(false)
    expect(cart.getItems()).toHaveLength(1)
  })

  it('without an active checkout: to /checkout', async () => {
    checkout.reset()
    renderPayment()
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Checkout page' })).toBeTruthy())
  })
})
