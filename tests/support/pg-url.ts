/** PostgreSQL for the database tests: DATABASE_URL when set (CI sets it), else none and PGlite only. */
export function pgTestUrl(): string | undefined {
  const url = process.env.DATABASE_URL?.trim()
  return url ? url : undefined
}
