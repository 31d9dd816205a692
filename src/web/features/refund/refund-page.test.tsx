// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BuyerRefund } from '../../../shared/refunds'
import buyEn from '../../i18n/messages/buy/en.json'
import buyRu from '../../i18n/messages/buy/ru.json'
import buyZh from '../../i18n/messages/buy/zh.json'
import { renderWithProviders } from '../../test/render'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { RefundPage } from './refund-page'

// The buyer's refund page, against the RPC stand-in (a real local HTTP server) answering
// secure_open_refund as the shop does: the address is checked against the refund's own network
// as it is typed, in the words the server refuses it with, the network has one name and the
// link's deadline is shown.
const TOKEN = 'a'.repeat(43)
const TRON_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC'
const EVM_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let rpc: RpcServer

beforeAll(async () => {
  rpc = await startRpcServer(`/refund/${TOKEN}`)
})
afterAll(() => rpc.close())

const refund = (over: Partial<BuyerRefund> = {}): BuyerRefund => ({
  amount: '25.5',
  token: 'USDT',
  network: 'BNB Smart Chain',
  status: 'awaiting_address',
  order_ref: '7d7c2c4e',
  suggested_address: null,
  address: null,
  tx_url: null,
  link_expires_at: '2031-05-04T10:30:00.000Z',
  ...over,
})

/** The server's refusals in a language (src/web reads them as data: it never imports src/server). */
const serverMessages = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(join(process.cwd(), 'src/server/i18n/messages', `${lang}.json`), 'utf8'))
const serverEn = serverMessages('en')

function renderRefund() {
  return renderWithProviders(
    <MemoryRouter initialEntries={[`/refund/${TOKEN}`]}>
      <Routes>
        <Route path="/refund/:token" element={<RefundPage />} />
      </Routes>
    </MemoryRouter>,
  )
}

const addressField = () => screen.getByLabelText(/address$/) as HTMLInputElement
const type = (text: string) => fireEvent.change(addressField(), { target: { value: text } })

describe('refund page', () => {
  it('a BNB Smart Chain refund refuses a TRON address as it is typed, in the server’s words, and never reaches Continue', async () => {
    rpc.reply('secure_open_refund', { success: true, refund: refund() })
    renderRefund()
    await screen.findByRole('heading', { name: 'Your refund' })
    // The start of an address of the network's family is not an error yet.
    type('0x7099')
    expect(screen.queryByRole('alert')).toBeNull()
    // A TRON address is refused as soon as its first letter is typed.
    type('T')
    expect((await screen.findByRole('alert')).textContent).toBe(serverEn['refunds.badEvmAddress'])
    type(TRON_ADDRESS)
    expect(screen.getByRole('alert').textContent).toBe(serverEn['refunds.badEvmAddress'])
    expect(addressField().getAttribute('aria-invalid')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(screen.queryByRole('heading', { name: 'Check your address' })).toBeNull()
    // The right one clears the error and goes on to the confirmation.
    type(EVM_ADDRESS)
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('heading', { name: 'Check your address' })).toBeTruthy()
    expect(screen.getByText(/on BNB Smart Chain \(BEP-20\) to:/)).toBeTruthy()
  })

  it('a TRON refund refuses an 0x address as it is typed', async () => {
    rpc.reply('secure_open_refund', { success: true, refund: refund({ network: 'TRON' }) })
    renderRefund()
    await screen.findByRole('heading', { name: 'Your refund' })
    type('0x')
    expect((await screen.findByRole('alert')).textContent).toBe(serverEn['refunds.badAddress'])
    type(TRON_ADDRESS)
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  })

  it('names the network once, as the operator sees it, and shows until when the link works', async () => {
    rpc.reply('secure_open_refund', { success: true, refund: refund({ network: 'TRON' }) })
    renderRefund()
    await screen.findByRole('heading', { name: 'Your refund' })
    expect(screen.getByTestId('refund-network').textContent).toBe('TRON (TRC-20)')
    expect(screen.getByText(/on the TRON \(TRC-20\) network/)).toBeTruthy()
    expect(screen.getByText('This link works until')).toBeTruthy()
    expect(screen.getByTestId('refund-link-until').textContent).toMatch(/2031/)
  })
})

describe('the refund page and the server refuse an address in the same words', () => {
  it.each([
    ['en', buyEn],
    ['zh', buyZh],
    ['ru', buyRu],
  ])('%s', (lang, page) => {
    const server = serverMessages(lang)
    expect(page['refundPage.badAddress']).toBe(server['refunds.badAddress'])
    expect(page['refundPage.badEvmAddress']).toBe(server['refunds.badEvmAddress'])
  })
})
