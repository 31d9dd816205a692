import { type ChainId, firstFamily } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import type { SetupCheck } from '../../shared/setup-check'
import { family } from '../chains/families'

// The self-check's findings in English, for the command line (the admin's Setup card words them in
// the operator's language: web/features/admin/setup-card.tsx).

export interface CheckText {
  title: string
  finding: string
  /** What to do; null when nothing is. */
  fix: string | null
}

const f = (check: SetupCheck, name: string) => String(check.facts[name] ?? '')
/** The chain's name as the shop shows it (TRON, BNB Smart Chain, …). */
const chainName = (check: SetupCheck) =>
  check.chain ? (chainNames[check.chain as ChainId] ?? check.chain) : ''

/**
 * The key setting the keyless-provider advice names: the first family's, whose public providers
 * ration keyless clients (a spent day names its own chain's settings, from the check's facts).
 */
const settings = family(firstFamily).providerSettings

const TEXTS: Record<string, (c: SetupCheck) => CheckText> = {
  'demo_wallets:present': (c) => ({
    title: 'Wallet addresses',
    finding: `${f(c, 'count')} demo address(es) are in the pool: nobody holds their keys, a payment to one is lost.`,
    fix: 'Add your own addresses (admin Wallets tab, or wallets:add) and remove the demo ones.',
  }),
  'demo_wallets:none': (_c) => ({
    title: 'Wallet addresses',
    finding: 'No demo address is in the pool.',
    fix: null,
  }),
  'provider_key:day_spent': (c) => ({
    title: 'Chain provider key',
    finding: `${chainName(c)}: ${f(c, 'used')} of ${f(c, 'perDay')} requests of today are spent: payments are not seen until the day ends.`,
    fix: `Add another key or provider (${f(c, 'keySetting')} with several keys, ${f(c, 'providersSetting')}), or raise the plan.`,
  }),
  'provider_key:day_nearly_spent': (c) => ({
    title: 'Chain provider key',
    finding: `${chainName(c)}: ${f(c, 'percent')}% of today's requests are spent (${f(c, 'used')} of ${f(c, 'perDay')}).`,
    fix: 'Add another key or provider before the day runs out.',
  }),
  'provider_key:no_key': (c) => ({
    title: 'Chain provider key',
    finding: `${f(c, 'providers')} is used without an API key: it answers keyless clients slowly and rarely.`,
    fix: `Set ${settings.key} (a free TronGrid key is enough for a small shop).`,
  }),
  'provider_key:keyed': (_c) => ({
    title: 'Chain provider key',
    finding: "No public provider is used without a key; today's request budget is not nearly spent.",
    fix: null,
  }),
  'chain:unreachable': (c) => ({
    title: `Chain ${chainName(c)}`,
    finding: `The provider does not answer: ${f(c, 'error')}. Payments on this chain are not seen.`,
    fix: 'Check the provider URL and key, and that this server can reach it (firewall, DNS).',
  }),
  'chain:stale': (c) => ({
    title: `Chain ${chainName(c)}`,
    finding: `The newest final block (${f(c, 'block')}) is ${f(c, 'ageSeconds')} s old by this server's clock: the provider is stuck, or this clock is ahead.`,
    fix: 'Use a provider that follows the chain (add a second one), and check the server clock (NTP).',
  }),
  'chain:current': (c) => ({
    title: `Chain ${chainName(c)}`,
    finding: `Reachable; final block ${f(c, 'block')}, ${f(c, 'ageSeconds')} s old.`,
    fix: null,
  }),
  'clock:behind': (c) => ({
    title: 'Server clock',
    finding: `This server's clock is ${f(c, 'seconds')} s behind the chains' block time: payment windows and payment times are wrong.`,
    fix: 'Turn on time synchronisation (NTP: systemd-timesyncd or chrony) on the host.',
  }),
  'clock:no_chain': (_c) => ({
    title: 'Server clock',
    finding: 'No chain answered to compare the clock with.',
    fix: 'Fix the chains above first.',
  }),
  'clock:in_step': (_c) => ({
    title: 'Server clock',
    finding: "In step with the chains' block time.",
    fix: null,
  }),
  'mail:failing': (c) => ({
    title: 'E-mail',
    finding: `${f(c, 'count')} mail(s) of the last day failed: ${f(c, 'error')}`,
    fix: 'Check SMTP_URL (host, port, user, password) and MAIL_FROM; the admin Orders tab resends.',
  }),
  'mail:no_smtp': (c) => ({
    title: 'E-mail',
    finding: `No SMTP_URL: buyers get no mail; each mail is written to ${f(c, 'outbox')}.`,
    fix: 'Set SMTP_URL (smtp://user:pass@host:587) and MAIL_FROM.',
  }),
  'mail:no_operator_email': (_c) => ({
    title: 'E-mail',
    finding: 'SMTP is set, but no operator e-mail: a test mail cannot be sent and alerts go nowhere.',
    fix: 'Set the operator e-mail in the admin Settings.',
  }),
  'mail:configured': (c) => ({
    title: 'E-mail',
    finding: `SMTP is set; the operator's address is ${f(c, 'to')}.`,
    fix: null,
  }),
  'public_url:unset': (_c) => ({
    title: 'Public URL',
    finding: 'PUBLIC_URL is not set: links in e-mails point nowhere useful.',
    fix: 'Set PUBLIC_URL to the address buyers use, e.g. https://shop.example.com.',
  }),
  'public_url:unreachable': (c) => ({
    title: 'Public URL',
    finding: `${f(c, 'url')} does not answer from here: ${f(c, 'error')}.`,
    fix: 'Check DNS, the reverse proxy and the firewall for that address.',
  }),
  'public_url:not_https': (c) => ({
    title: 'Public URL',
    finding: `${f(c, 'url')} is plain http: buyers' browsers warn and order links travel unencrypted.`,
    fix: "Put TLS in front (compose.yaml's caddy profile, or your proxy) and set an https PUBLIC_URL.",
  }),
  'public_url:reachable': (c) => ({
    title: 'Public URL',
    finding: `${f(c, 'url')} answers over https.`,
    fix: null,
  }),
  'backups:none': (c) => ({
    title: 'Backups',
    finding: `No backup in ${f(c, 'dir')}.`,
    fix: 'Take one now and schedule it (docs/containers.md: backups); BACKUP_DIR names the folder.',
  }),
  'backups:old': (c) => ({
    title: 'Backups',
    finding: `The newest backup is ${f(c, 'hours')} h old (more than ${f(c, 'maxHours')} h): ${f(c, 'file')}.`,
    fix: 'Check the scheduled backup job; take one now.',
  }),
  'backups:recent': (c) => ({
    title: 'Backups',
    finding: `The newest backup is ${f(c, 'hours')} h old: ${f(c, 'file')}.`,
    fix: null,
  }),
  'admin_password:weak': (c) => ({
    title: 'Admin password',
    finding: `${f(c, 'admins')}: the password is one attackers try first.`,
    fix: 'Change it now on the admin Security tab.',
  }),
  'admin_password:from_env': (c) => ({
    title: 'Admin password',
    finding: `${f(c, 'admins')}: the password is still ADMIN_PASSWORD from the environment file.`,
    fix: 'Change it on the Security tab and remove ADMIN_PASSWORD from .env.',
  }),
  'admin_password:own': (_c) => ({
    title: 'Admin password',
    finding: 'Not a common password, not the one in the environment.',
    fix: null,
  }),
  'two_factor:off': (c) => ({
    title: 'Two-factor login',
    finding: `${f(c, 'admins')}: two-factor login is off.`,
    fix: 'Turn it on on the admin Security tab.',
  }),
  'two_factor:on': (_c) => ({ title: 'Two-factor login', finding: 'On for every admin.', fix: null }),
  'mail:sent': (c) => ({
    title: 'E-mail',
    finding: `A test mail was handed to the SMTP server for ${f(c, 'to')}.`,
    fix: null,
  }),
  'mail:send_failed': (c) => ({
    title: 'E-mail',
    finding: `The test mail to ${f(c, 'to')} failed: ${f(c, 'error')}. Buyers' mails fail the same way.`,
    fix: 'Check SMTP_URL (host, port, user, password) and MAIL_FROM.',
  }),
}

export function describeCheck(c: SetupCheck): CheckText {
  return TEXTS[`${c.id}:${c.reason}`]?.(c) ?? { title: c.id, finding: c.reason, fix: null }
}

/** The report as the command line prints it. */
export function formatSetupReport(checks: SetupCheck[]): string {
  const mark = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const
  return checks
    .map((c) => {
      const t = describeCheck(c)
      return `${mark[c.state]}  ${t.title}: ${t.finding}${t.fix ? `\n      Fix: ${t.fix}` : ''}`
    })
    .join('\n')
}
