// The two checks that keep the shop translated (npm run lint:i18n, and a test):
//  1. every language has every message English has (and no other), each valid ICU using the same
//     placeholders;
//  2. no user-facing text is written inline in src/web or the order e-mail: it must be a message.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage'
import { parseAst } from 'vite'

export const LOCALES = ['en', 'zh', 'ru'] as const

/** Folders of message files (<locale>.json each), English first. */
export const MESSAGE_DIRS = [
  'src/web/i18n/messages/shop',
  'src/web/i18n/messages/buy',
  'src/web/i18n/messages/admin',
  'src/server/delivery/messages',
  'src/server/i18n/messages',
]

/** Where user-facing text lives: all of src/web (React), and the e-mail templates. */
export const WEB_ROOT = 'src/web'
export const EMAIL_FILES = ['src/server/delivery/order-email.ts', 'src/server/delivery/order-links-email.ts']

/**
 * Parts of src/web not converted yet, skipped by the inline-text check until they are. Each entry
 * is a debt: convert the folder or file, delete it here, and the check covers it.
 */
export const NOT_YET_CONVERTED: string[] = []

export interface Finding {
  file: string
  line: number
  text: string
  rule: string
}

// ---------------------------------------------------------------- 1. missing keys

function placeholders(message: string): string[] {
  const names = new Set<string>()
  const walk = (tokens: unknown): void => {
    if (!Array.isArray(tokens)) return
    for (const token of tokens) {
      if (!Array.isArray(token)) continue
      const [name, , format] = token as [string, string?, unknown?]
      names.add(name)
      if (format && typeof format === 'object') for (const value of Object.values(format)) walk(value)
    }
  }
  walk(compileMessageOrThrow(message))
  return [...names].sort()
}

export function checkMessageDir(dir: string): Finding[] {
  const findings: Finding[] = []
  const read = (locale: string) =>
    JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8')) as Record<string, string>
  const english = read('en')
  for (const locale of LOCALES) {
    const file = join(dir, `${locale}.json`)
    const messages = read(locale)
    for (const [id, message] of Object.entries(messages)) {
      if (!(id in english)) findings.push({ file, line: 0, text: id, rule: 'key English does not have' })
      try {
        const mine = placeholders(message)
        const theirs = placeholders(english[id] ?? message)
        if (mine.join() !== theirs.join()) {
          findings.push({
            file,
            line: 0,
            text: `${id}: {${mine}} ≠ English {${theirs}}`,
            rule: 'placeholders differ',
          })
        }
      } catch (error) {
        findings.push({
          file,
          line: 0,
          text: `${id}: ${(error as Error).message}`,
          rule: 'invalid ICU message',
        })
      }
    }
    for (const id of Object.keys(english)) {
      if (!(id in messages)) findings.push({ file, line: 0, text: id, rule: 'missing key' })
    }
  }
  return findings
}

// ---------------------------------------------------------------- 2. inline text

/** Attributes and props whose string is read by people (screen readers included). */
const USER_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'title',
  'placeholder',
  'label',
  'description',
  'hint',
  'message',
  'confirmLabel',
  'cancelLabel',
  'copyLabel',
  'copiedMessage',
  'failedMessage',
  'emptyText',
  'heading',
  'subtitle',
])
/** Object keys that carry text to show (menus, tables, option lists). */
const USER_KEYS = new Set([
  'label',
  'title',
  'text',
  'description',
  'message',
  'placeholder',
  'heading',
  'hint',
])
/** Calls whose first argument is shown to the buyer or operator. */
const USER_CALLS = /^(toast\.(error|success|message|info|warning)|window\.confirm|confirm|alert)$/

/** Names of products, networks and units, the same in every language. */
const NEUTRAL_WORDS =
  /\b(USDT-TRC20|USDT|TRC20|TRC-20|TRX|TRON|USD|URL|ID|SUN|HMAC|SHA-256|TOTP|CSV|JSON|SMTP|API)\b/g

/** Letters left once product names, colours, URLs and e-mail addresses are taken out. */
const hasWords = (text: string) =>
  /\p{L}/u.test(
    text
      .replace(NEUTRAL_WORDS, '')
      .replace(/#[0-9a-f]{3,8}\b/gi, '')
      .replace(/\bhttps?:\/\/\S+/g, '')
      .replace(/\S+@\S+\.\w+/g, ''),
  )

type Node = { type: string; start: number; end: number; [key: string]: unknown }

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'
}

function children(node: Node): Node[] {
  const out: Node[] = []
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue
    if (Array.isArray(value)) for (const v of value) isNode(v) && out.push(v)
    else if (isNode(value)) out.push(value)
  }
  return out
}

/** String literal or template text of an expression (through ?:, &&, ||, ??, as, satisfies). */
function textsOf(node: Node | undefined): { text: string; node: Node }[] {
  if (!node) return []
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? [{ text: node.value, node }] : []
    case 'TemplateLiteral':
      return [
        {
          text: (node.quasis as Node[]).map((q) => (q.value as { cooked: string }).cooked).join(' '),
          node,
        },
      ]
    case 'ConditionalExpression':
      return [...textsOf(node.consequent as Node), ...textsOf(node.alternate as Node)]
    case 'LogicalExpression':
      return [...textsOf(node.left as Node), ...textsOf(node.right as Node)]
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'ParenthesizedExpression':
      return textsOf(node.expression as Node)
    default:
      return []
  }
}

function calleeName(node: Node): string {
  if (node.type === 'Identifier') return node.name as string
  if (node.type === 'MemberExpression') {
    const property = node.property as Node
    return `${calleeName(node.object as Node)}.${property.type === 'Identifier' ? property.name : '?'}`
  }
  return '?'
}

export function findInlineText(source: string, file: string, messageIds: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = []
  const lines = source.split('\n')
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length
  const ignored = (line: number) =>
    (lines[line - 1] ?? '').includes('i18n-ignore') || (lines[line - 2] ?? '').includes('i18n-ignore')
  const report = (node: Node, text: string, rule: string) => {
    const line = lineOf(node.start)
    if (!hasWords(text) || messageIds.has(text) || ignored(line)) return
    findings.push({ file, line, text: text.replace(/\s+/g, ' ').trim().slice(0, 80), rule })
  }
  const ast = parseAst(source, { lang: file.endsWith('x') ? 'tsx' : 'ts' }) as unknown as Node
  const visit = (node: Node) => {
    switch (node.type) {
      case 'JSXText':
        report(node, node.value as string, 'text in JSX')
        break
      case 'JSXAttribute': {
        const name = node.name as Node
        const attribute = name.type === 'JSXIdentifier' ? (name.name as string) : ''
        if (!USER_ATTRIBUTES.has(attribute)) break
        const value = node.value as Node | null
        const expression = value?.type === 'JSXExpressionContainer' ? (value.expression as Node) : value
        for (const t of textsOf(expression ?? undefined)) report(t.node, t.text, `${attribute}="…"`)
        break
      }
      case 'JSXExpressionContainer': {
        const parent = node.parentType
        if (parent === 'attribute') break
        for (const t of textsOf(node.expression as Node)) report(t.node, t.text, 'text in JSX')
        break
      }
      case 'Property': {
        const key = node.key as Node
        const name =
          key.type === 'Identifier' ? (key.name as string) : key.type === 'Literal' ? String(key.value) : ''
        if (USER_KEYS.has(name))
          for (const t of textsOf(node.value as Node)) report(t.node, t.text, `${name}: …`)
        break
      }
      case 'CallExpression': {
        if (USER_CALLS.test(calleeName(node.callee as Node))) {
          for (const t of textsOf((node.arguments as Node[])[0]))
            report(t.node, t.text, `${calleeName(node.callee as Node)}(…)`)
        }
        break
      }
    }
    for (const child of children(node)) {
      // An attribute's expression is judged by its attribute above, not as a JSX child.
      if (node.type === 'JSXAttribute' && child.type === 'JSXExpressionContainer')
        child.parentType = 'attribute'
      visit(child)
    }
  }
  visit(ast)
  return findings
}

/** E-mail templates: every text outside HTML tags and outside message calls is inline text. */
export function findInlineEmailText(source: string, file: string): Finding[] {
  const findings: Finding[] = []
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length
  const visibleText = (markup: string) => markup.replace(/<[^>]*>/g, ' ').replace(/&[#\w]+;/g, ' ')
  const ast = parseAst(source, { lang: 'ts' }) as unknown as Node
  const visit = (node: Node, skip: boolean) => {
    if (node.type === 'ImportDeclaration' || node.type === 'TSInterfaceDeclaration') return
    if (node.type === 'CallExpression') {
      // A message's id and the arguments of a formatting call are not text.
      const name = calleeName(node.callee as Node)
      if (/(^|\.)(t|_|replace|join|split|test|slice|padStart|format)$/.test(name)) {
        visit(node.callee as Node, skip)
        for (const [i, arg] of (node.arguments as Node[]).entries())
          visit(
            arg,
            skip ||
              (i === 0 && /(^|\.)(t|_)$/.test(name)) ||
              name.endsWith('replace') ||
              name.endsWith('join') ||
              name.endsWith('split'),
          )
        return
      }
    }
    if (node.type === 'Property') {
      visit(node.value as Node, skip)
      return
    }
    const markup =
      node.type === 'Literal' && typeof node.value === 'string' && !node.regex
        ? node.value
        : node.type === 'TemplateLiteral'
          ? (node.quasis as Node[]).map((q) => (q.value as { cooked: string }).cooked).join(' ')
          : undefined
    const text = markup === undefined ? '' : visibleText(markup)
    if (!skip && hasWords(text)) {
      findings.push({
        file,
        line: lineOf(node.start),
        text: text.replace(/\s+/g, ' ').trim().slice(0, 80),
        rule: 'text in the e-mail',
      })
    }
    for (const child of children(node)) visit(child, skip)
  }
  visit(ast, false)
  return findings
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return path === `${WEB_ROOT}/test` ? [] : sourceFiles(root, path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : []
  })
}

/** Both checks over the repository at root; an empty list means it passes. */
export function checkRepository(root: string): Finding[] {
  const findings = MESSAGE_DIRS.flatMap((dir) => checkMessageDir(join(root, dir)))
  const messageIds = new Set(
    MESSAGE_DIRS.flatMap((dir) => Object.keys(JSON.parse(readFileSync(join(root, dir, 'en.json'), 'utf8')))),
  )
  const skipped = (file: string) =>
    NOT_YET_CONVERTED.some((prefix) => file === prefix || file.startsWith(`${prefix}/`))
  for (const file of sourceFiles(root, WEB_ROOT)) {
    // The checker's own Vite plugin runs at build time only.
    if (skipped(file) || file.endsWith('messages-plugin.ts')) continue
    findings.push(...findInlineText(readFileSync(join(root, file), 'utf8'), file, messageIds))
  }
  for (const file of EMAIL_FILES)
    findings.push(...findInlineEmailText(readFileSync(join(root, file), 'utf8'), file))
  return findings.map((f) => ({ ...f, file: relative(root, join(root, f.file)).split(sep).join('/') }))
}
