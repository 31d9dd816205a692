import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * The page's stylesheet written into the page (decision 030): a phone paints the server-rendered
 * page as soon as the HTML has arrived, without waiting for a second request first.
 */
export function inlineStylesheets(html: string, root: string): string {
  return html.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[\w.-]+\.css)">/g,
    (tag, path: string) => {
      const file = join(root, path)
      if (!existsSync(file)) return tag
      // Nothing in the stylesheet can close the element.
      return `<style>${readFileSync(file, 'utf8').replace(/<\//g, '<\\/')}</style>`
    },
  )
}

/** Every folder under root, as URL paths ("/assets"). */
export function listDirectories(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`)
}
