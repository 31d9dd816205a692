// @vitest-environment happy-dom
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { Field, TextInput } from '../components/fields'
import { SecurityTab } from './security-tab'

// A real local HTTP server stands in for the shop's RPC endpoint and records what it was sent.
let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/security')
})
afterAll(() => rpc.close())

/** Renders the tab; `settled` waits for the tab's own reads and writes before the test ends. */
const renderTab = () => renderWithProviders(<SecurityTab />, { admin: true })

describe('admin form fields', () => {
  it('tie the hint and the error to their control', () => {
    render(
      <Field label="Price" hint="In dollars" error="must be at least 0">
        <TextInput defaultValue="-1" />
      </Field>,
    )
    const input = screen.getByRole('textbox', { name: 'Price' })
    expect(input.getAttribute('aria-invalid')).toBe('true')
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ')
    expect(described.map((id) => document.getElementById(id)?.textContent)).toEqual([
      'In dollars',
      'must be at least 0',
    ])
  })

  it('leave a valid control unmarked', () => {
    render(
      <Field label="Name">
        <TextInput defaultValue="ok" />
      </Field>,
    )
    const input = screen.getByRole('textbox', { name: 'Name' })
    expect(input.getAttribute('aria-invalid')).toBeNull()
    expect(input.getAttribute('aria-describedby')).toBeNull()
  })
})

describe('security tab', () => {
  const fill = (label: string, value: string) =>
    fireEvent.change(screen.getByLabelText(label), { target: { value } })

  it('sends the credentials once through its mutation and clears the form', async () => {
    const { settled } = renderTab()
    fill('Current Password', 'old-password')
    fill('New Username', 'owner')
    fill('New Password', 'a-long-new-password')
    fill('Confirm New Password', 'a-long-new-password')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Update Credentials' }))
    await waitFor(() => expect((screen.getByLabelText('New Username') as HTMLInputElement).value).toBe(''))
    expect(rpc.callsTo('secure_update_admin_credentials')).toEqual([
      {
        p_current_password: 'old-password',
        p_new_username: 'owner',
        p_new_password: 'a-long-new-password',
        p_confirm_password: 'a-long-new-password',
      },
    ])
    await settled()
  })

  it('sends nothing when the passwords differ', async () => {
    const { settled } = renderTab()
    fill('Current Password', 'old-password')
    fill('New Username', 'owner')
    fill('New Password', 'a-long-new-password')
    fill('Confirm New Password', 'another-password')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Update Credentials' }))
    // The check is synchronous: no mutation started, so the button never turned busy.
    expect(screen.getByRole('button', { name: 'Update Credentials' }).hasAttribute('disabled')).toBe(false)
    expect(rpc.callsTo('secure_update_admin_credentials')).toEqual([])
    expect((screen.getByLabelText('New Username') as HTMLInputElement).value).toBe('owner')
    await settled()
  })
})
