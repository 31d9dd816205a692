import { randomBytes } from 'node:crypto'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import {
  saveWebhookInputSchema,
  webhookDeliveryIdInputSchema,
  webhookIdInputSchema,
} from '../../shared/webhooks'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { defineRpc } from '../rpc'
import { checkTargetUrl, TargetRefused } from './safe-target'
import {
  addEndpoint,
  deleteEndpoint,
  endpointOfKind,
  listDeliveries,
  listEndpoints,
  requeueDelivery,
  updateEndpoint,
} from './webhooks.repo'

const DELIVERY_LOG_SIZE = 50

/** whsec_ + 32 random bytes: the HMAC key, answered once when the endpoint is created. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`

/** The admin's Webhooks tab: endpoints, their delivery log, resend. `onQueued` wakes the worker. */
export function webhookRpcs(db: Db, opts: { allowPrivate: boolean; onQueued: () => void }) {
  return [
    defineRpc({
      name: 'secure_fetch_webhooks',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => {
        return { success: true, endpoints: await listEndpoints(db) }
      },
    }),
    defineRpc({
      name: 'secure_save_webhook',
      input: saveWebhookInputSchema,
      admin: true,
      audit: {
        // What changed, never the secret.
        entries: onSuccess(({ input, result, actor }) => ({
          action: input.p_id ? 'webhook_update' : 'webhook_add',
          actor,
          target: String(input.p_id ?? result.id ?? ''),
          details: {
            url: String(input.p_url ?? ''),
            events: input.p_events ?? [],
            include_keys: input.p_include_keys ?? null,
            enabled: input.p_enabled ?? null,
          },
        })),
      },
      handler: async (input) => {
        try {
          checkTargetUrl(input.p_url, opts.allowPrivate)
        } catch (error) {
          if (error instanceof TargetRefused)
            return { success: false, error: `URL refused: ${error.message}` }
          throw error
        }
        const values = {
          url: input.p_url,
          events: [...new Set(input.p_events)],
          includeKeys: input.p_include_keys,
          enabled: input.p_enabled,
        }
        if (input.p_id === undefined) {
          const secret = newWebhookSecret()
          const id = await addEndpoint(db, values, secret)
          // The only time the secret leaves the server.
          return { success: true, id, secret }
        }
        // The shop's own endpoints only: a Greenfield one keeps its invoice events.
        return (await endpointOfKind(db, input.p_id, 'stablecart')) &&
          (await updateEndpoint(db, input.p_id, values))
          ? { success: true, id: input.p_id }
          : { success: false, error: 'Webhook not found' }
      },
    }),
    defineRpc({
      name: 'secure_delete_webhook',
      input: webhookIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'webhook_delete',
          actor,
          target: String(input.p_id),
        })),
      },
      handler: async (input) => {
        return (await deleteEndpoint(db, input.p_id))
          ? { success: true }
          : { success: false, error: 'Webhook not found' }
      },
    }),
    defineRpc({
      name: 'secure_fetch_webhook_deliveries',
      input: webhookIdInputSchema,
      admin: true,
      handler: async (input) => {
        return { success: true, deliveries: await listDeliveries(db, input.p_id, DELIVERY_LOG_SIZE) }
      },
    }),
    defineRpc({
      name: 'secure_resend_webhook',
      input: webhookDeliveryIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'webhook_resend',
          actor,
          target: String(input.p_delivery_id),
        })),
      },
      handler: async (input) => {
        if (!(await requeueDelivery(db, input.p_delivery_id)))
          return { success: false, error: 'Delivery not found' }
        opts.onQueued()
        return { success: true }
      },
    }),
  ]
}
