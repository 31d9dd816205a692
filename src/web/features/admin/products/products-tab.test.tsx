// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { emptyForm, type FormState, ProductForm } from './products-tab'

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/products')
})
afterAll(() => rpc.close())

let saved = 0
function renderForm(initial: FormState = emptyForm) {
  saved = 0
  renderWithProviders(
    <ProductForm
      initial={initial}
      stock={0}
      onClose={() => {}}
      onSaved={() => {
        saved++
      }}
    />,
    { admin: true },
  )
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } })
const errorOf = (label: string) => {
  const control = field(label)
  expect(control.getAttribute('aria-invalid')).toBe('true')
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ')
  // The last description is the error (a hint, when there is one, comes first).
  return document.getElementById(ids.at(-1) ?? '')?.textContent
}

describe('admin product form', () => {
  it('ties each shared-rule error to its input, focuses the first and sends nothing', () => {
    renderForm()
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }))
    expect(errorOf('Name')).toBe('Name is required')
    expect(errorOf('Description')).toBe('Description is required')
    expect(errorOf('Price (USD)')).toBe('Price is required')
    expect(errorOf('Image URL')).toBe('Image URL is required')
    expect(errorOf('Features (one per line)')).toBe('At least one feature is required')
    expect(document.activeElement).toBe(field('Name'))
    expect(rpc.calls).toEqual([])
    // An address that is neither a path here nor http(s) is refused with its own reason.
    fill('Image URL', 'javascript:alert(1)')
    expect(errorOf('Image URL')).toBe('Image URL must be a path on this site or an http(s) URL')
  })

  it('asks a free product for its download URL, and forgets it once the product is not free', () => {
    renderForm()
    fill('Name', 'Tool')
    fill('Description', 'A tool')
    fill('Image URL', '/images/x.svg')
    fill('Features (one per line)', 'One')
    fireEvent.click(screen.getByLabelText('Free Product'))
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }))
    expect(errorOf('Download URL')).toBe('Download URL is required for free products')
    expect(document.activeElement).toBe(field('Download URL'))
    fill('Price (USD)', '5')
    fireEvent.click(screen.getByLabelText('Free Product'))
    expect(field('Download URL').getAttribute('aria-invalid')).toBeNull()
  })

  it('sends the checked product and the new keys through secure_manage_product', async () => {
    renderForm()
    fill('Name', '  Tool  ')
    fill('Description', 'A tool')
    fill('Image URL', '/images/x.svg')
    fill('Price (USD)', '19.99')
    fill('Features (one per line)', 'One\n\n  Two ')
    fill('Video ID', '')
    fill('Add licence keys (one per line)', 'K-1\nK-2')
    fireEvent.click(screen.getByLabelText('Featured'))
    rpc.calls.length = 0
    rpc.reply('secure_manage_product', { success: true, product_id: 9, keys_added: 2 })
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }))
    await waitFor(() => expect(saved).toBe(1))
    expect(rpc.callsTo('secure_manage_product')).toEqual([
      {
        p_product: {
          name: 'Tool',
          description: 'A tool',
          price: 19.99,
          image: '/images/x.svg',
          features: ['One', 'Two'],
          video_id: null,
          is_free: false,
          download_url: null,
          featured: true,
          has_details: true,
          translations: {},
        },
        p_keys: 'K-1\nK-2',
      },
    ])
  })

  it('edits keep the product id', async () => {
    renderForm({
      ...emptyForm,
      id: 4,
      name: 'Old',
      description: 'd',
      price: '3',
      image: 'https://cdn.example/x.png',
      features: 'f',
    })
    fill('Price (USD)', '4.5')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Update Product' }))
    await waitFor(() => expect(saved).toBe(1))
    const [call] = rpc.callsTo('secure_manage_product')
    expect(call?.p_product).toMatchObject({ id: 4, name: 'Old', price: 4.5 })
    expect(call?.p_keys).toBeUndefined()
  })

  it('sends the Chinese and Russian texts written, leaving the empty ones to English', async () => {
    renderForm({
      ...emptyForm,
      id: 4,
      name: 'Proxy Manager',
      description: 'Manages proxies',
      price: '3',
      image: '/images/x.svg',
      features: 'Fast\nSafe',
      translations: {
        zh: { name: '', description: '', features: '' },
        ru: { name: 'Менеджер прокси', description: 'Управляет прокси', features: 'Быстро' },
      },
    })
    // The English text shows where a translation is empty: it is what the buyer then reads.
    expect(field('Name (简体中文)').placeholder).toBe('Proxy Manager')
    fill('Name (简体中文)', ' 代理管理器 ')
    fill('Features (one per line) (简体中文)', '快速\n\n 安全 ')
    // Emptying a Russian text gives that text back to English.
    fill('Description (Русский)', '  ')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Update Product' }))
    await waitFor(() => expect(saved).toBe(1))
    const [call] = rpc.callsTo('secure_manage_product')
    expect((call?.p_product as { translations: unknown } | undefined)?.translations).toEqual({
      zh: { name: '代理管理器', features: ['快速', '安全'] },
      ru: { name: 'Менеджер прокси', features: ['Быстро'] },
    })
  })

  it('ties a translation that is too long to its own input', () => {
    renderForm({ ...emptyForm, name: 'Tool', description: 'd', price: '3', image: '/x.svg', features: 'f' })
    fill('Name (Русский)', 'я'.repeat(201))
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }))
    expect(field('Name (Русский)').getAttribute('aria-invalid')).toBe('true')
    expect(field('Name').getAttribute('aria-invalid')).toBeNull()
    expect(document.activeElement).toBe(field('Name (Русский)'))
    expect(rpc.calls).toEqual([])
  })
})
