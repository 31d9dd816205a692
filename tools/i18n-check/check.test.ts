import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkMessageDir, checkRepository, findInlineEmailText, findInlineText } from './check'

const root = process.cwd()

describe('the i18n checks', () => {
  it('pass on the repository as it is', () => {
    expect(checkRepository(root)).toEqual([])
  })

  it('fail on a text planted in src/web, and pass again once it is removed', () => {
    const planted = join(root, 'src/web/components/ui/planted-i18n-check.tsx')
    writeFileSync(
      planted,
      'export function Planted() {\n  return <p title="Hover text">Buy now</p>\n}\nexport const tab = { label: \'Orders\' }\n',
    )
    try {
      const found = checkRepository(root).filter((f) => f.file.endsWith('planted-i18n-check.tsx'))
      expect(found.map((f) => [f.line, f.text])).toEqual([
        [2, 'Hover text'],
        [2, 'Buy now'],
        [4, 'Orders'],
      ])
    } finally {
      rmSync(planted)
    }
    expect(checkRepository(root)).toEqual([])
  })

  it('fail on a message a language lacks, an extra one, other placeholders and broken ICU', () => {
    const dir = mkdtempSync(join(tmpdir(), 'i18n-check-'))
    try {
      cpSync(join(root, 'src/web/i18n/messages/buy'), dir, { recursive: true })
      expect(checkMessageDir(dir)).toEqual([])
      const ru = JSON.parse(readFileSync(join(dir, 'ru.json'), 'utf8')) as Record<string, string>
      delete ru['cart.title']
      ru['cart.remove'] = 'Удалить: {product}'
      ru['cart.items'] = '{count, plural, one {# товар'
      ru['only.russian'] = 'Лишний'
      writeFileSync(join(dir, 'ru.json'), JSON.stringify(ru))
      const rules = checkMessageDir(dir).map((f) => `${f.rule}: ${f.text.split(':')[0]}`)
      expect(rules).toEqual(
        expect.arrayContaining([
          'missing key: cart.title',
          'placeholders differ: cart.remove',
          'invalid ICU message: cart.items',
          'key English does not have: only.russian',
        ]),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('leave messages, class names, ids and marked brand names alone', () => {
    const source = `
      const t = (id: string) => id
      export const A = () => <div className="flex gap-2" id="main" aria-label={t('cart.title')}>{t('cart.title')} · 42 %</div>
      // i18n-ignore: a brand
      export const social = { label: 'Telegram' }
      export const B = () => <span>USDT-TRC20/TRX</span>
    `
    expect(findInlineText(source, 'x.tsx', new Set(['cart.title']))).toEqual([])
  })

  it('find text written into the e-mail outside its messages', () => {
    const source =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal
      'const t = (id: string) => id\nexport const html = `<p style="color:#3b82f6">${t(\'email.heading\')}</p><p>Thanks!</p>`'
    expect(findInlineEmailText(source, 'mail.ts').map((f) => f.text)).toEqual(['Thanks!'])
  })
})
