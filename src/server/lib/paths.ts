import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let root: string | undefined

/** The folder holding our package.json, whether the code runs from src/ (tsx) or from the dist/ bundle. */
export function packageRoot(): string {
  if (root) return root
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 8; i++) {
    const file = join(dir, 'package.json')
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === 'stablecart') {
      root = dir
      return dir
    }
    dir = dirname(dir)
  }
  throw new Error('Cannot find the stablecart package root')
}
