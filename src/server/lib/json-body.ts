import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors'

/** JSON bodies, where an empty body on a call with no payload means {} and bad JSON is a 400 in words. */
export function acceptJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch {
      done(new AppError('bad_request', 'Invalid request: the body is not valid JSON'), undefined)
    }
  })
}
