import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { addGreenfieldWebhookInputSchema } from '../../shared/webhooks'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { defineRpc } from '../rpc'
import { TargetRefused } from '../webhooks/safe-target'
import { addEndpoint, listEndpoints } from '../webhooks/webhooks.repo'
import { newWebhookSecret } from '../webhooks/webhooks.routes'
import { greenfieldEndpointFields } from './greenfield-webhooks.routes'

// The invoice API's webhooks in the admin's Webhooks tab: the Greenfield endpoints (listed,
// registered here as through the API) and the epusdt sellers' notify_url endpoints (listed only:
// they are made by the orders that name them). Their delivery log, redelivery and deleting go
// through the Webhooks tab's own calls (secure_fetch_webhook_deliveries, secure_resend_webhook,
// secure_delete_webhook), which take any endpoint's id.

export function invoiceWebhookRpcs(db: Db, opts: { allowPrivate: boolean }) {
  return [
    defineRpc({
      name: 'secure_fetch_invoice_webhooks',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => ({
        success: true,
        greenfield: await listEndpoints(db, 'greenfield'),
        epusdt: await listEndpoints(db, 'epusdt'),
      }),
    }),
    defineRpc({
      name: 'secure_add_greenfield_webhook',
      input: addGreenfieldWebhookInputSchema,
      admin: true,
      audit: {
        // What was registered, never the secret.
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'webhook_add',
          actor,
          target: String(result.id ?? ''),
          details: { kind: 'greenfield', url: input.p_url, events: input.p_events },
        })),
      },
      handler: async (input) => {
        let fields: ReturnType<typeof greenfieldEndpointFields>
        try {
          fields = greenfieldEndpointFields(input.p_url, input.p_events, true, opts.allowPrivate)
        } catch (error) {
          if (error instanceof TargetRefused)
            return { success: false, error: `URL refused: ${error.message}` }
          throw error
        }
        const secret = newWebhookSecret()
        const id = await addEndpoint(db, fields, secret)
        // The only time the secret leaves the server.
        return { success: true, id, secret }
      },
    }),
  ]
}
