// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { makeProduct } from '../../../../tests/support/product'
import { cart } from '../../lib/cart-store'
import { checkout, paymentSuccess } from '../../lib/checkout-store'
import { pendingStatusAnswer } from '../../test/order-status-answer'
import { renderWithProviders } from '../../test/render'
import { PaymentPage } from './payment-page'

// An order paid on an EVM network: the page shows the EIP-681 QR, the amount in the token's own
// decimals, the networks that pay it, and "confirming" naming the network. A real local HTTP
// server answers secure_get_order_status as the shop does.
const ORDER_ID = '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a40'
const ADDRESS = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4'
const URI = `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${ADDRESS}&uint256=25000000000000000000`
let answer: Record<string, unknown> = {}
let server: Server

const status = (over: Record<string, unknown>) => pendingStatusAnswer(ORDER_ID, { total: 25, ...over })

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (req.url === '/rpc/secure_get_order_status') res.end(JSON.stringify(answer))
    else res.end(JSON.stringify({ success: true }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `http://127.0.0.1:${port}/payment`,
  )
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

function renderPayment(locale: 'en' | 'zh' | 'ru' = 'en') {
  renderWithProviders(
    <MemoryRouter initialEntries={['/payment']}>
      <Routes>
        <Route path="/payment" element={<PaymentPage />} />
        <Route path="/" element={<h1>Home page</h1>} />
      </Routes>
    </MemoryRouter>,
    { locale },
  )
}

describe('payment page of an order on BNB Smart Chain', () => {
  beforeEach(() => {
    paymentSuccess.dismiss()
    cart.clear()
    cart.add(makeProduct(1, { price: 25 }))
    checkout.start({
      email: 'buyer@example.com',
      orderId: ORDER_ID,
      orderSecret: 'test-secret',
      walletAddress: ADDRESS,
      windowEndsAt: Date.now() + 30 * 60_000,
      total: 25,
      trxAmount: null,
      trxRate: null,
      network: {
        chain: 'bsc',
        token: 'USDT',
        tokenDecimals: 18,
        amountUnits: '25000000000000000000',
        paymentUri: URI,
        watched: [
          { chain: 'bsc', tokens: ['USDT', 'USDC'] },
          { chain: 'base', tokens: ['USDC'] },
        ],
        confirm: { blocks: 15, seconds: 12 },
      },
    })
  })

  it('the network, the exact amount in 18 decimals, the EIP-681 QR and the networks that pay it; no TRX', async () => {
    answer = status({})
    renderPayment()
    expect(screen.getByRole('heading', { name: 'Amount to pay (USDT · BNB Smart Chain)' })).toBeTruthy()
    expect(screen.getByTestId('pay-amount').textContent).toBe('$25.00')
    expect(screen.getByText('Send exactly 25.00 USDT on BNB Smart Chain (BEP-20).')).toBeTruthy()
    expect((screen.getByLabelText('Amount in USDT') as HTMLInputElement).value).toBe('25.00')
    expect(screen.getByTestId('token-decimals').textContent).toMatch(
      /^USDT has 18 decimals on BNB Smart Chain\./,
    )
    const qr = screen.getByRole('img', { name: `QR code of a USDT payment on BNB Smart Chain to ${ADDRESS}` })
    expect(qr).toBeTruthy()
    expect((screen.getByLabelText('Wallet address') as HTMLInputElement).value).toBe(ADDRESS)
    const watched = screen.getByTestId('watched-networks')
    expect(watched.textContent).toContain('Any of these networks pays this order:')
    expect([...watched.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'USDT, USDC · BNB Smart Chain',
      'USDC · Base',
    ])
    expect(screen.queryByText(/TRX/)).toBeNull()
    expect(screen.queryByText(/TRON/)).toBeNull()
    // The chain's own expected time, not TRON's "1-5 minutes".
    expect(
      screen.getByText(
        'Confirmation takes about 12 seconds after your transfer is in a block: 15 blocks on BNB Smart Chain.',
      ),
    ).toBeTruthy()
    expect(screen.queryByText(/1-5 minutes/)).toBeNull()
    await waitFor(() => expect(screen.getByText('Waiting for your payment…')).toBeTruthy())
  })

  it('detected: confirming on BNB Smart Chain with the blocks still to come', async () => {
    answer = status({
      sightings: {
        confirming: {
          amount_seen: 25,
          missing: 0,
          block: 100,
          head_block: 103,
          solid_block: 88,
          blocks_left: 12,
          seconds_left: 9,
          progress: 4 / 16,
        },
        dropped: false,
        failed: [],
      },
    })
    renderPayment()
    await waitFor(() =>
      expect(screen.getByText('Payment detected — confirming on BNB Smart Chain')).toBeTruthy(),
    )
    expect(screen.getByText(/3 of 15 blocks built on your transfer · about 9 seconds left/)).toBeTruthy()
  })

  it('paid one base unit short: the exact 18-decimal amount missing in USDT, never a cent', async () => {
    answer = status({
      amount_received: 24.99,
      shortfall: { token: 'USDT', received: '24.999999999999999999', missing: '0.000000000000000001' },
    })
    renderPayment()
    await waitFor(() =>
      expect(
        screen.getByText(
          /We received 24\.999999999999999999\s+USDT of 25\.00\s+USDT\. Send the remaining 0\.000000000000000001\s+USDT to the same address\./,
        ),
      ).toBeTruthy(),
    )
    expect(screen.queryByText(/\$0\.01/)).toBeNull()
  })

  it('paid in part: the QR code, the wallet link and the amount to send ask for the rest, not the total', async () => {
    // 17.5 USDT of 25 arrived: 7.5 USDT is missing, 7500000000000000000 base units.
    const rest = URI.replace('uint256=25000000000000000000', 'uint256=7500000000000000000')
    answer = status({
      amount_received: 17.5,
      shortfall: {
        token: 'USDT',
        received: '17.50',
        missing: '7.50',
        missingUnits: '7500000000000000000',
        paymentUri: rest,
      },
    })
    renderPayment()
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Still to pay (USDT · BNB Smart Chain)' })).toBeTruthy(),
    )
    const qr = screen.getByRole('img', {
      name: new RegExp(
        `^QR code of a payment of the remaining 7\\.50\\sUSDT on BNB Smart Chain to ${ADDRESS}$`,
      ),
    })
    expect(qr.querySelector('[data-testid="wallet-qr"]')?.getAttribute('data-value')).toBe(rest)
    expect(screen.getByRole('link', { name: 'Open in your wallet' }).getAttribute('href')).toBe(rest)
    expect(screen.getByTestId('remaining-link').textContent).toMatch(
      /^This QR code and the wallet link ask for the remaining 7\.50\sUSDT only\.$/,
    )
    expect(screen.getByTestId('pay-amount').textContent).toMatch(/^7\.50\sUSDT$/)
    expect(
      screen.getByText(
        /^Send exactly the remaining 7\.50\sUSDT on BNB Smart Chain \(BEP-20\), not the full total\.$/,
      ),
    ).toBeTruthy()
    expect((screen.getByLabelText('Remaining amount in USDT') as HTMLInputElement).value).toBe('7.50')
    expect(screen.queryByLabelText('Amount in USDT')).toBeNull()
    expect(screen.queryByText(/Send exactly 25\.00/)).toBeNull()
    expect(document.body.innerHTML).not.toContain('uint256=25000000000000000000')
  })

  it('in Russian the network and the token stay as wallets name them', () => {
    answer = status({})
    renderPayment('ru')
    expect(screen.getByText('Отправьте ровно 25,00 USDT в сети BNB Smart Chain (BEP-20).')).toBeTruthy()
    expect(
      screen.getByText(
        /около 12 секунд после того, как перевод попал в блок: 15 блоков в сети BNB Smart Chain/,
      ),
    ).toBeTruthy()
  })
})
