import type { FastifyInstance } from 'fastify'
import { AppError } from './errors'

// Text PostgreSQL refuses (a NUL character, an unpaired UTF-16 surrogate) is refused once, for
// every route, before any handler: the database would answer such text with an error (a 500).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Finds the first string (value or key) PostgreSQL cannot store: a NUL character or an unpaired
 * UTF-16 surrogate. Answers its path (e.g. "p_items.0.product.name"), or null when all are clean.
 */
function findUnstorableText(value: unknown, path: string[] = [], depth = 0): string | null {
  const bad = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text)
  const here = () => (path.length ? path.join('.') : 'payload')
  if (typeof value === 'string') return bad(value) ? here() : null
  if (value === null || typeof value !== 'object' || depth > 64) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)], depth + 1)
      if (found) return found
    }
    return null
  }
  for (const [key, item] of Object.entries(value)) {
    if (bad(key)) return path.length ? `${here()} (a field name)` : 'a field name'
    const found = findUnstorableText(item, [...path, key], depth + 1)
    if (found) return found
  }
  return null
}

/**
 * Every request's path parameters, query string and body pass this check (a preValidation hook,
 * so the body is parsed and no handler has run): a 400 naming the field, e.g. "search contains a
 * NUL character or an unpaired surrogate".
 */
export function registerStorableTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const unstorable = findUnstorableText(part)
      if (unstorable) {
        // '*' is the wildcard parameter of the static files and pages: the rest of the path.
        const field = unstorable === '*' ? 'the path' : unstorable
        throw new AppError(
          'bad_request',
          `Invalid request: ${field} contains a NUL character or an unpaired surrogate`,
        )
      }
    }
  })
}
