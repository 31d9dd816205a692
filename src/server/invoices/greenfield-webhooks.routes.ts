import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as z from 'zod'
import type { ApiKeyScope } from '../../shared/api-keys'
import type { Db } from '../db/client'
import { checkTargetUrl, TargetRefused } from '../webhooks/safe-target'
import {
  addEndpoint,
  deleteEndpoint,
  type EndpointFields,
  type EndpointRow,
  endpointOfKind,
  endpointsOfKind,
  listDeliveries,
  requeueEndpointDelivery,
  updateEndpoint,
} from '../webhooks/webhooks.repo'
import { newWebhookSecret } from '../webhooks/webhooks.routes'
import { type GreenfieldEvent, greenfieldEvents } from './invoice-events'

// Greenfield's webhooks of the store (/api/v1/stores/{storeId}/webhooks): endpoints of the kind
// 'greenfield' in the webhooks module's table, sent by its worker with the shop's back-off and the
// BTCPay-Sig header; their delivery log and redelivery. automaticRedelivery is answered as true:
// failed deliveries are always retried (the shop's back-off, for a day).

const PERMISSION: ApiKeyScope = 'btcpay.store.webhooks.canmodifywebhooks'

export const webhookDataRequestSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// URL'),
  enabled: z.boolean().nullable().optional(),
  automaticRedelivery: z.boolean().nullable().optional(),
  authorizedEvents: z
    .object({
      everything: z.boolean().nullable().optional(),
      specificEvents: z.array(z.enum(greenfieldEvents)).max(greenfieldEvents.length).nullable().optional(),
    })
    .nullable()
    .optional(),
  secret: z.string().min(8, 'must be at least 8 characters').max(200).nullable().optional(),
})

/**
 * A Greenfield endpoint's stored fields, for the API's calls and the admin's (one way): the URL checked
 * as every webhook target is (throws TargetRefused), the events without repeats.
 */
export function greenfieldEndpointFields(
  url: string,
  events: readonly GreenfieldEvent[],
  enabled: boolean,
  allowPrivate: boolean,
): EndpointFields {
  checkTargetUrl(url, allowPrivate)
  return { url, events: [...new Set(events)], includeKeys: false, enabled, kind: 'greenfield' }
}

export interface WebhookRouteDeps {
  db: Db
  allowPrivate: boolean
  /** Checks the key's permission and the store id (throws the Greenfield error). */
  allow: (request: FastifyRequest, scope: ApiKeyScope, params: { storeId?: string }) => Promise<void>
  notFound: () => Error
  badRequest: (message: string) => Error
}

function webhookData(row: EndpointRow) {
  const everything = greenfieldEvents.every((e) => row.events.includes(e))
  return {
    id: String(row.id),
    enabled: row.enabled,
    automaticRedelivery: true,
    url: row.url,
    authorizedEvents: { everything, specificEvents: everything ? [] : row.events },
  }
}

type Params = { storeId: string; webhookId: string }

export function registerGreenfieldWebhooks(scope: FastifyInstance, deps: WebhookRouteDeps): void {
  const { db } = deps
  const fieldsOf = (body: unknown) => {
    const input = webhookDataRequestSchema.parse(body ?? {})
    const specific = input.authorizedEvents?.specificEvents ?? []
    const everything = input.authorizedEvents?.everything ?? specific.length === 0
    try {
      return {
        fields: greenfieldEndpointFields(
          input.url,
          everything ? greenfieldEvents : specific,
          input.enabled ?? true,
          deps.allowPrivate,
        ),
        secret: input.secret ?? null,
      }
    } catch (error) {
      if (error instanceof TargetRefused) throw deps.badRequest(`url refused: ${error.message}`)
      throw error
    }
  }
  const endpoint = async (id: string) => {
    const n = /^\d{1,9}$/.test(id) ? Number(id) : 0
    const row = n > 0 ? await endpointOfKind(db, n, 'greenfield') : null
    if (!row) throw deps.notFound()
    return row
  }

  scope.get<{ Params: { storeId: string } }>('/stores/:storeId/webhooks', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    return (await endpointsOfKind(db, 'greenfield')).map(webhookData)
  })
  scope.post<{ Params: { storeId: string } }>('/stores/:storeId/webhooks', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    const { fields, secret } = fieldsOf(request.body)
    const key = secret ?? newWebhookSecret()
    const id = await addEndpoint(db, fields, key)
    // The only time the secret leaves the server.
    return { ...webhookData(await endpoint(String(id))), secret: key }
  })
  scope.get<{ Params: Params }>('/stores/:storeId/webhooks/:webhookId', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    return webhookData(await endpoint(request.params.webhookId))
  })
  scope.put<{ Params: Params }>('/stores/:storeId/webhooks/:webhookId', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    const row = await endpoint(request.params.webhookId)
    await updateEndpoint(db, row.id, fieldsOf(request.body).fields)
    return webhookData(await endpoint(request.params.webhookId))
  })
  scope.delete<{ Params: Params }>('/stores/:storeId/webhooks/:webhookId', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    await deleteEndpoint(db, (await endpoint(request.params.webhookId)).id)
    return {}
  })
  scope.get<{ Params: Params }>('/stores/:storeId/webhooks/:webhookId/deliveries', async (request) => {
    await deps.allow(request, PERMISSION, request.params)
    const row = await endpoint(request.params.webhookId)
    return (await listDeliveries(db, row.id, 50)).map((d) => ({
      id: d.event_id,
      timestamp: Math.floor(Date.parse(d.created_at) / 1000),
      httpCode: d.last_status_code,
      errorMessage: d.status === 'delivered' ? null : d.last_response,
      status: d.status === 'delivered' ? 'HttpSuccess' : d.last_status_code === null ? 'Failed' : 'HttpError',
    }))
  })
  scope.post<{ Params: Params & { deliveryId: string } }>(
    '/stores/:storeId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    async (request) => {
      await deps.allow(request, PERMISSION, request.params)
      const row = await endpoint(request.params.webhookId)
      const id = request.params.deliveryId
      const ok = z.uuid().safeParse(id).success && (await requeueEndpointDelivery(db, row.id, id))
      if (!ok) throw deps.notFound()
      return JSON.stringify(id)
    },
  )
}
