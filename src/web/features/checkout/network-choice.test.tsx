// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { makeProduct } from '../../../../tests/support/product'
import { cart } from '../../lib/cart-store'
import { checkout } from '../../lib/checkout-store'
import { renderWithProviders } from '../../test/render'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { CheckoutPage } from './checkout-page'

// The buyer picks the network and token at checkout when the shop takes more than one.
const ORDER_ID = '7d7c2c4e-9b7a-4c52-9d1c-2f4b6a8e0a11'
const EVM_ADDRESS = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4'
const product = makeProduct(3, { price: 12.5 })
const networks = {
  success: true,
  networks: [
    {
      chain: 'tron',
      family: 'tron',
      tokens: [
        { symbol: 'USDT', decimals: 6 },
        { symbol: 'TRX', decimals: 6 },
      ],
      confirmations: null,
    },
    {
      chain: 'bsc',
      family: 'evm',
      tokens: [
        { symbol: 'USDT', decimals: 18 },
        { symbol: 'USDC', decimals: 18 },
      ],
      confirmations: 15,
    },
    { chain: 'base', family: 'evm', tokens: [{ symbol: 'USDC', decimals: 6 }], confirmations: 10 },
  ],
}

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/checkout')
  rpc.reply('fetch_products', { success: true, products: [product] })
  rpc.reply('secure_get_wallet_address', {
    success: true,
    wallet_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  })
  rpc.reply('secure_create_order', {
    success: true,
    order_id: ORDER_ID,
    order_secret: 'secret-1',
    wallet_address: EVM_ADDRESS,
    window_ends_at: new Date(Date.now() + 30 * 60_000).toISOString(),
    total: 25,
    chain: 'bsc',
    token: 'USDT',
    token_decimals: 18,
    amount_units: '25000000000000000000',
    payment_uri: `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${EVM_ADDRESS}&uint256=25000000000000000000`,
    watched: [
      { chain: 'bsc', tokens: ['USDT', 'USDC'] },
      { chain: 'base', tokens: ['USDC'] },
    ],
  })
})
afterAll(() => rpc.close())
beforeEach(() => {
  checkout.reset()
  cart.clear()
  cart.add(product, 2)
  rpc.calls.length = 0
})

function renderPage() {
  renderWithProviders(
    <MemoryRouter initialEntries={['/checkout']}>
      <Routes>
        <Route path="/checkout" element={<CheckoutPage />} />
        <Route path="/payment" element={<p>payment page</p>} />
      </Routes>
    </MemoryRouter>,
  )
}

describe('network choice', () => {
  it('offers each network and stablecoin, TRON first and picked; TRX is not a choice', async () => {
    rpc.reply('secure_get_payment_networks', networks)
    renderPage()
    const group = await screen.findByRole('group', { name: 'Network and token' })
    const radios = screen.getAllByRole('radio') as HTMLInputElement[]
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      'USDT · TRONTRC-20',
      'USDT · BNB Smart ChainBEP-20',
      'USDC · BNB Smart ChainBEP-20',
      'USDC · BaseERC-20',
    ])
    expect(group).toBeTruthy()
    expect(radios.map((r) => r.checked)).toEqual([true, false, false, false])
  })

  it('the order goes with the network and token picked, without asking for a TRON address', async () => {
    rpc.reply('secure_get_payment_networks', networks)
    renderPage()
    fireEvent.click(await screen.findByRole('radio', { name: /USDT · BNB Smart Chain/ }))
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'buyer@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }))
    await screen.findByText('payment page')
    expect(rpc.callsTo('secure_get_wallet_address')).toEqual([])
    const [order] = rpc.callsTo('secure_create_order')
    expect(order).toMatchObject({ p_chain: 'bsc', p_token: 'USDT', p_total: 25 })
    expect(order).not.toHaveProperty('p_wallet_address')
    await waitFor(() =>
      expect(checkout.get().network).toMatchObject({
        chain: 'bsc',
        token: 'USDT',
        tokenDecimals: 18,
        amountUnits: '25000000000000000000',
      }),
    )
  })

  it('a shop with TRON alone shows no choice and places the order as before', async () => {
    rpc.reply('secure_get_payment_networks', { success: true, networks: networks.networks.slice(0, 1) })
    renderPage()
    await waitFor(() => expect(rpc.callsTo('secure_get_payment_networks')).toHaveLength(1))
    expect(screen.queryByRole('radio')).toBeNull()
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'buyer@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }))
    await screen.findByText('payment page')
    expect(rpc.callsTo('secure_create_order')[0]).not.toHaveProperty('p_chain')
  })
})
