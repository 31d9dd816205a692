// @vitest-environment happy-dom
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { createQueryClient } from '../../app/app'
import { Field, TextInput } from './components/fields'
import { SecurityTab } from './security-tab'

// A real local HTTP server stands in for the shop's RPC endpoint and records what it was sent.
const received: { name: string; body: Record<string, unknown> }[] = []
let reply: Record<string, unknown> = { success: true }
let server: Server

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      received.push({ name: String(req.url).replace('/rpc/', ''), body: JSON.parse(body || '{}') })
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(reply))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `http://127.0.0.1:${port}/admin/security`,
  )
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

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
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SecurityTab />
      </QueryClientProvider>,
    )
    fill('Current Password', 'old-password')
    fill('New Username', 'owner')
    fill('New Password', 'a-long-new-password')
    fill('Confirm New Password', 'a-long-new-password')
    received.length = 0
    reply = { success: true }
    fireEvent.click(screen.getByRole('button', { name: 'Update Credentials' }))
    await waitFor(() => expect((screen.getByLabelText('New Username') as HTMLInputElement).value).toBe(''))
    const calls = received.filter((r) => r.name === 'secure_update_admin_credentials')
    expect(calls).toEqual([
      {
        name: 'secure_update_admin_credentials',
        body: {
          p_current_password: 'old-password',
          p_new_username: 'owner',
          p_new_password: 'a-long-new-password',
          p_confirm_password: 'a-long-new-password',
        },
      },
    ])
  })

  it('sends nothing when the passwords differ', () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SecurityTab />
      </QueryClientProvider>,
    )
    fill('Current Password', 'old-password')
    fill('New Username', 'owner')
    fill('New Password', 'a-long-new-password')
    fill('Confirm New Password', 'another-password')
    received.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Update Credentials' }))
    // The check is synchronous: no mutation started, so the button never turned busy.
    expect(screen.getByRole('button', { name: 'Update Credentials' }).hasAttribute('disabled')).toBe(false)
    expect(received).toEqual([])
    expect((screen.getByLabelText('New Username') as HTMLInputElement).value).toBe('owner')
  })
})
