import {
  fetchLicencesInputSchema,
  LICENCE_PAGE_SIZE,
  licenceKeyIdInputSchema,
  setLicenceDisabledInputSchema,
  setLicenceTermsInputSchema,
} from '../../shared/licences'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { onSuccess } from '../audit/audit-log'
import { resetActivations, searchLicences, setLicenceTerms, setOperatorDisabled } from '../keys/licence-admin'
import { type LicenceSigner, rotateSigningKey } from '../keys/licence-signing'
import { defineRpc } from '../rpc'
import type { AdminDeps } from './admin.routes'

// The operator's Licences view: sold keys by key, e-mail or order, their activations, and the
// audited actions on them. The keys module reads and writes the tables.

const notFound = (id: number) => ({ success: false, error: `Licence key ${id} not found` })

export function adminLicenceRpcs({ database }: Pick<AdminDeps, 'database'>, signer: LicenceSigner) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_licences',
      input: fetchLicencesInputSchema,
      admin: true,
      handler: async (input) => ({
        success: true,
        licences: await searchLicences(db, input.p_search, LICENCE_PAGE_SIZE),
      }),
    }),
    defineRpc({
      name: 'secure_set_licence_disabled',
      input: setLicenceDisabledInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: input.p_disabled ? 'licence_disable' : 'licence_enable',
          actor,
          target: input.p_key_id,
        })),
      },
      handler: async (input) =>
        (await setOperatorDisabled(db, input.p_key_id, input.p_disabled))
          ? { success: true }
          : notFound(input.p_key_id),
    }),
    defineRpc({
      name: 'secure_reset_licence_activations',
      input: licenceKeyIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor, result }) => ({
          action: 'licence_reset',
          actor,
          target: input.p_key_id,
          details: { freed: result.freed },
        })),
      },
      handler: async (input) => {
        const freed = await resetActivations(db, input.p_key_id)
        return freed === null ? notFound(input.p_key_id) : { success: true, freed }
      },
    }),
    defineRpc({
      name: 'secure_set_licence_terms',
      input: setLicenceTermsInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'licence_terms',
          actor,
          target: input.p_key_id,
          details: { activation_limit: input.p_activation_limit, expires_at: input.p_expires_at },
        })),
      },
      handler: async (input) => {
        const ok = await setLicenceTerms(db, input.p_key_id, {
          activationLimit: input.p_activation_limit,
          expiresAt: input.p_expires_at === null ? null : new Date(input.p_expires_at),
        })
        return ok ? { success: true } : notFound(input.p_key_id)
      },
    }),
    defineRpc({
      name: 'secure_rotate_licence_signing_key',
      input: adminOnlyPayloadSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ actor, result }) => ({
          action: 'licence_signing_rotate',
          actor,
          details: { kid: result.kid },
        })),
      },
      handler: async () => {
        const kid = await rotateSigningKey(db)
        signer.invalidate()
        return { success: true, kid }
      },
    }),
  ]
}
