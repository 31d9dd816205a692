import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  ADMIN_LOCALE_COOKIE,
  isLocale,
  LOCALE_COOKIE,
  LOCALE_PARAM,
  type Locale,
  pickLocale,
} from '../../shared/locale'

/**
 * The language a page is written in: ?lang=, else the remembered choice, else Accept-Language.
 * A link with ?lang= is a choice like the switcher's: remembered for the next visit.
 */
export function pageLocale(request: FastifyRequest, reply: FastifyReply, admin: boolean): Locale {
  const query = (request.query as Record<string, unknown> | undefined)?.[LOCALE_PARAM]
  const locale = pickLocale({
    query: typeof query === 'string' ? query : null,
    cookieHeader: request.headers.cookie,
    acceptLanguage: request.headers['accept-language'],
    admin,
  })
  if (typeof query === 'string' && isLocale(query)) {
    reply.header(
      'set-cookie',
      `${admin ? ADMIN_LOCALE_COOKIE : LOCALE_COOKIE}=${query}; Path=/; Max-Age=31536000; SameSite=Lax`,
    )
  }
  return locale
}

/** The ?lang= a link chose, when it names one of our languages. */
export function chosenLocale(request: FastifyRequest): Locale | undefined {
  const query = (request.query as Record<string, unknown> | undefined)?.[LOCALE_PARAM]
  return isLocale(query) ? query : undefined
}
