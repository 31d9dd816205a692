import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Reads `.env` from the working directory into process.env when the file exists, with Node's own
 * parser (process.loadEnvFile). A variable already set in the real environment keeps its value:
 * the file only fills gaps. Answers the file read, or undefined when there is none.
 */
export function loadDotEnv(file = resolve('.env')): string | undefined {
  if (!existsSync(file)) return undefined
  process.loadEnvFile(file)
  return file
}
