// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { ApiKeysTab } from './api-keys-tab'

// A real local HTTP server stands in for the shop's RPC endpoint and records what it was sent.
let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/api-keys')
  rpc.reply('secure_fetch_api_keys', {
    success: true,
    store_id: '0123456789abcdef0123456789abcdef',
    keys: [
      {
        id: 4,
        label: 'WooCommerce',
        prefix: 'sc_AbCdE',
        scopes: ['btcpay.store.cancreateinvoice'],
        created_at: '2026-12-01T10:00:00Z',
        last_used_at: null,
        revoked_at: null,
      },
    ],
  })
  rpc.reply('secure_create_api_key', { success: true, id: 5, key: 'sc_the-new-key-shown-once' })
})
afterAll(() => rpc.close())

describe('API keys tab', () => {
  it('shows the store id and keys; makes a key with the password and shows it once', async () => {
    const { settled } = renderWithProviders(<ApiKeysTab />, { admin: true })
    expect(await screen.findByText('WooCommerce')).toBeTruthy()
    expect(screen.getByDisplayValue('0123456789abcdef0123456789abcdef')).toBeTruthy()
    expect(screen.getByText(/never used/)).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'My cart' } })
    fireEvent.change(screen.getByLabelText('Your current password'), { target: { value: 'secret-password' } })
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByDisplayValue('sc_the-new-key-shown-once')).toBeTruthy()
    expect(rpc.callsTo('secure_create_api_key')).toEqual([
      {
        p_label: 'My cart',
        p_scopes: ['btcpay.store.cancreateinvoice', 'btcpay.store.canviewinvoices'],
        p_current_password: 'secret-password',
      },
    ])
    await waitFor(() =>
      expect((screen.getByLabelText('Your current password') as HTMLInputElement).value).toBe(''),
    )
    await settled()
  })

  it('revokes a key only with the password', async () => {
    const { settled } = renderWithProviders(<ApiKeysTab />, { admin: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }))
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Revoke WooCommerce' }))
    expect(rpc.callsTo('secure_revoke_api_key')).toEqual([])
    const passwords = screen.getAllByLabelText('Your current password')
    fireEvent.change(passwords[passwords.length - 1] as HTMLElement, { target: { value: 'secret-password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Revoke WooCommerce' }))
    await waitFor(() =>
      expect(rpc.callsTo('secure_revoke_api_key')).toEqual([
        { p_id: 4, p_current_password: 'secret-password' },
      ]),
    )
    await settled()
  })
})
