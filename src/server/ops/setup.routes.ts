import { randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import type { SetupReport } from '../../shared/setup-check'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import { createSmtpTransport } from '../delivery/mail-worker'
import type { Env } from '../env'
import { defineRpc } from '../rpc'
import { type DoctorDeps, runSetupChecks, sendSetupTestMail } from './doctor'

export interface SetupDeps {
  db: Db
  env: Env
  chains: ChainRegistry
}

function doctorDeps({ db, env, chains }: SetupDeps): DoctorDeps {
  return { db, env, chains: chains.enabled() }
}

/** The test mail, and its outcome folded into the report's mail check. */
export async function reportWithTestMail(deps: SetupDeps, sendMail: boolean): Promise<SetupReport> {
  const report = await runSetupChecks(doctorDeps(deps))
  if (!sendMail || !deps.env.SMTP_URL) return report
  const transport = createSmtpTransport(deps.env.SMTP_URL)
  try {
    const sent = await sendSetupTestMail(deps.db, transport, deps.env.MAIL_FROM)
    const at = report.checks.findIndex((c) => c.id === 'mail')
    const current = report.checks[at]
    // A mail already failing stays the finding; otherwise the test mail's outcome is.
    if (current && current.reason !== 'failing' && sent.to) {
      report.checks[at] = sent.success
        ? { ...current, state: 'ok', reason: 'sent', facts: { to: sent.to } }
        : {
            ...current,
            state: 'fail',
            reason: 'send_failed',
            facts: { to: sent.to, error: sent.error ?? '' },
          }
    }
  } finally {
    transport.close()
  }
  return { ...report, failing: report.checks.some((c) => c.state === 'fail') }
}

/** The admin's Setup card: the report, and a test mail on the operator's demand. */
export function setupRpcs(deps: SetupDeps) {
  return [
    defineRpc({
      name: 'secure_fetch_setup_report',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => runSetupChecks(doctorDeps(deps)),
    }),
    defineRpc({
      name: 'secure_send_setup_test_mail',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => {
        const transport = deps.env.SMTP_URL ? createSmtpTransport(deps.env.SMTP_URL) : null
        try {
          return await sendSetupTestMail(deps.db, transport, deps.env.MAIL_FROM)
        } finally {
          transport?.close()
        }
      },
    }),
  ]
}

/** DATA_DIR/doctor.token: whoever can read the data folder may ask the running shop for its report. */
export function doctorTokenFile(dataDir: string): string {
  return join(dataDir, 'doctor.token')
}

/**
 * POST /api/doctor for `npm run doctor` while the shop runs (the embedded database is open in one
 * process only): answered with the report when the request carries the token the shop wrote into
 * its data folder at start, 404 otherwise (as if there were no such route).
 */
export function registerDoctorEndpoint(app: FastifyInstance, deps: SetupDeps): void {
  const token = randomBytes(32).toString('base64url')
  mkdirSync(deps.env.DATA_DIR, { recursive: true })
  writeFileSync(doctorTokenFile(deps.env.DATA_DIR), token, { mode: 0o600 })
  const expected = Buffer.from(token)
  app.post('/api/doctor', async (request, reply) => {
    const given = Buffer.from(String(request.headers['x-doctor-token'] ?? ''))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(404).send({ error: 'Not found' })
    }
    const body = (request.body ?? {}) as { sendTestMail?: unknown }
    reply.header('cache-control', 'no-store')
    return reportWithTestMail(deps, body.sendTestMail === true)
  })
}
