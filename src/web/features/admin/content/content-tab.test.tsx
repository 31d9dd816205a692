// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import { builtInSiteContent } from '../../../../shared/site-content'
import { defaultSiteContent } from '../../../../shared/site-content-defaults'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { ContentForm } from './content-tab'

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/content')
})
afterAll(() => rpc.close())

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } })
const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ')

function renderForm(initial = defaultSiteContent) {
  renderWithProviders(<ContentForm initial={initial} />, { admin: true })
}

describe('admin site-content form', () => {
  it('ties a bad colour and a bad image URL to their inputs and sends nothing', () => {
    renderForm()
    fill('Accent', 'blue')
    fill('Hero background image URL', 'javascript:alert(1)')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }))
    const image = field('Hero background image URL')
    expect(image.getAttribute('aria-invalid')).toBe('true')
    expect(described(image)).toBe('must be a path on this site or an http(s) URL')
    const accent = field('Accent')
    expect(accent.getAttribute('aria-invalid')).toBe('true')
    expect(described(accent)).toBe('must be a colour like #26a17b')
    // The hero comes before the theme on the page.
    expect(document.activeElement).toBe(image)
    expect(rpc.calls).toEqual([])
    // Fixing a field clears its error at once; the other stays.
    fill('Accent', '#38bdf8')
    expect(field('Accent').getAttribute('aria-invalid')).toBeNull()
    expect(image.getAttribute('aria-invalid')).toBe('true')
  })

  it('checks the sections too, each error at its own section', () => {
    renderForm()
    fill('Section 2 title', 'x'.repeat(121))
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }))
    expect(field('Section 2 title').getAttribute('aria-invalid')).toBe('true')
    expect(field('Section 1 title').getAttribute('aria-invalid')).toBeNull()
    expect(document.activeElement).toBe(field('Section 2 title'))
  })

  it('sends the whole content through secure_update_site_content', async () => {
    renderForm()
    fill('Hero title', 'Fresh hero')
    fireEvent.click(screen.getByRole('button', { name: 'Remove section 4' }))
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }))
    await waitFor(() => expect(rpc.callsTo('secure_update_site_content')).toHaveLength(1))
    const [call] = rpc.callsTo('secure_update_site_content')
    expect(call).toEqual({
      p_content: {
        ...defaultSiteContent,
        hero: { ...defaultSiteContent.hero, title: 'Fresh hero' },
        support: { ...defaultSiteContent.support, sections: defaultSiteContent.support.sections.slice(0, 3) },
      },
    })
  })

  it('edits the texts in Chinese and Russian; an emptied one is saved empty, so English shows', async () => {
    renderForm(builtInSiteContent)
    const zhHero = field('Hero title (简体中文)')
    expect(zhHero.value).toBe('移动代理软件，即时交付')
    expect(zhHero.placeholder).toBe(defaultSiteContent.hero.title)
    fill('Hero title (简体中文)', '手机代理工具')
    fill('Hero title (Русский)', '')
    fill('Section 1 title (Русский)', 'Почта')
    // Removing a section removes its translations too, so the others stay with their sections.
    fireEvent.click(screen.getByRole('button', { name: 'Remove section 2' }))
    expect(field('Section 2 title (简体中文)').value).toBe('快速响应')
    rpc.calls.length = 0
    fireEvent.click(screen.getByRole('button', { name: 'Save Content' }))
    await waitFor(() => expect(rpc.callsTo('secure_update_site_content')).toHaveLength(1))
    const [call] = rpc.callsTo('secure_update_site_content')
    const sent = (call?.p_content as typeof builtInSiteContent | undefined)?.translations
    expect(sent?.zh?.hero?.title).toBe('手机代理工具')
    expect(sent?.ru?.hero).toEqual({ ...builtInSiteContent.translations?.ru?.hero, title: '' })
    expect(sent?.ru?.support?.sections?.map((s) => s.title)).toEqual([
      'Почта',
      'Быстрый ответ',
      'Безопасно и конфиденциально',
    ])
  })
})
