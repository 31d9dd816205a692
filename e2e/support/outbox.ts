import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ParsedMail, simpleParser } from 'mailparser'

/**
 * The first e-mail to `address` (and with a subject matching `subject`, when given) in a shop's
 * outbox folder: shops without SMTP_URL write each mail there as an .eml file. Waits for it.
 */
export async function mailTo(
  outbox: string,
  address: string,
  subject?: RegExp,
  timeoutMs = 15_000,
  /** Files already there, passed over: the mail wanted is a newer one. */
  seen: ReadonlySet<string> = new Set(),
): Promise<ParsedMail> {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (existsSync(outbox)) {
      for (const name of readdirSync(outbox).filter((n) => n.endsWith('.eml') && !seen.has(n))) {
        const mail = await simpleParser(readFileSync(join(outbox, name)))
        const to = mail.to && !Array.isArray(mail.to) ? mail.to.text : ''
        if (to === address && (!subject || subject.test(mail.subject ?? ''))) return mail
      }
    }
    if (Date.now() > until) throw new Error(`no e-mail to ${address} in the outbox`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** The mails in a shop's outbox folder now (to wait for a newer one with mailTo's `seen`). */
export function mailsIn(outbox: string): Set<string> {
  return new Set(existsSync(outbox) ? readdirSync(outbox) : [])
}
