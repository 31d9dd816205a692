import * as z from 'zod'

// What a client may send as an id or a date: bounded here, once, to what PostgreSQL stores, so an
// out-of-range value is a 400 naming the field instead of the database's error (a 500).

/** The largest `integer` (serial) PostgreSQL holds. */
export const MAX_ROW_ID = 2_147_483_647

/** The id of a row with a serial key (products, payments, webhooks, deliveries...). */
export const rowIdSchema = z
  .number('must be an id (a whole number)')
  .int('must be an id (a whole number)')
  .min(1, `must be an id from 1 to ${MAX_ROW_ID}`)
  .max(MAX_ROW_ID, `must be an id from 1 to ${MAX_ROW_ID}`)

// PostgreSQL has no year 0 and JavaScript dates end in 275760; no shop has records outside these.
export const MIN_DATE = '2000-01-01'
export const MAX_DATE = '9999-12-31'
const minMs = Date.parse(`${MIN_DATE}T00:00:00Z`)
const endMs = Date.parse('+010000-01-01T00:00:00Z')
const dateMessage = `must be a date between ${MIN_DATE} and ${MAX_DATE}, such as 2026-11-01 or 2026-11-01T12:00:00Z`

/**
 * A day (`2026-11-01`, read as UTC midnight) or an ISO 8601 date-time with its offset, between
 * MIN_DATE and MAX_DATE (UTC). Every date a client sends goes through this schema.
 */
export const dateTimeSchema = z
  .string(dateMessage)
  .max(40, dateMessage)
  .refine((value) => {
    if (!z.iso.date().safeParse(value).success && !z.iso.datetime({ offset: true }).safeParse(value).success)
      return false
    const ms = Date.parse(value)
    return ms >= minMs && ms < endMs
  }, dateMessage)
