// Compiles the ICU message files at build time, so the browser gets ready-to-run messages and no
// ICU parser (Lingui's compiler runs here, in Vite, never in the bundle).
import { readFileSync } from 'node:fs'
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage'
import type { Plugin } from 'vite'

const MESSAGE_FILE = /[\\/]i18n[\\/]messages[\\/](shop|buy|admin)[\\/](en|zh|ru)\.json$/

export function compileMessages(source: string, file: string): Record<string, unknown> {
  const messages = JSON.parse(source) as Record<string, string>
  return Object.fromEntries(
    Object.entries(messages).map(([id, message]) => {
      try {
        return [id, compileMessageOrThrow(message)]
      } catch (error) {
        throw new Error(`${file}: message "${id}" is not valid ICU: ${(error as Error).message}`)
      }
    }),
  )
}

export function messagesPlugin(): Plugin {
  return {
    name: 'stablecart-messages',
    enforce: 'pre',
    // Vite's JSON plugin turns what this returns (still JSON) into a module.
    load(id) {
      const file = id.split('?')[0] ?? id
      if (!MESSAGE_FILE.test(file)) return null
      return JSON.stringify(compileMessages(readFileSync(file, 'utf8'), file))
    },
  }
}
