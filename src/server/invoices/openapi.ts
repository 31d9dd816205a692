import type { ZodType } from 'zod'
import * as z from 'zod'
import {
  createInvoiceRequestSchema,
  invoiceDataSchema,
  invoicePaymentMethodSchema,
  listInvoicesQuerySchema,
  markInvoiceStatusRequestSchema,
  problemDetailsSchema,
  validationProblemSchema,
} from './greenfield-schemas'

// /api/v1/openapi.json: the OpenAPI 3.0 document of the invoice API, generated from the very zod
// schemas that check the requests (greenfield-schemas.ts), so it cannot say something the server
// does not do.

const json = (schema: ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const content = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } })
const errors = {
  '401': { description: 'No key, or a wrong or revoked one', ...content('ProblemDetails') },
  '403': { description: 'The key lacks the permission', ...content('ProblemDetails') },
  '404': { description: 'No such store or invoice', ...content('ProblemDetails') },
  '429': { description: 'Too many calls from this client or key', ...content('ProblemDetails') },
}
const storeParam = { name: 'storeId', in: 'path', required: true, schema: { type: 'string' } }
const invoiceParam = { name: 'invoiceId', in: 'path', required: true, schema: { type: 'string' } }
const security = (permission: string) => [{ API_Key: [permission] }]

function queryParameters(): Record<string, unknown>[] {
  const shape = listInvoicesQuerySchema.shape
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema: json(schema as ZodType, 'input'),
  }))
}

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Stablecart invoice API (BTCPay Greenfield shapes)',
      version: '1',
      description:
        'Invoices paid in stablecoins, answered in the field names of BTCPay Server Greenfield. Authenticate with `Authorization: token <key>` (keys are made in the admin).',
    },
    servers: [{ url: serverUrl.replace(/\/+$/, '') }],
    paths: {
      '/api/v1/stores/{storeId}/invoices': {
        get: {
          operationId: 'Invoices_GetInvoices',
          parameters: [storeParam, ...queryParameters()],
          security: security('btcpay.store.canviewinvoices'),
          responses: {
            '200': { description: 'Invoices, newest first', ...content('InvoiceDataList') },
            '400': { description: 'A query field is out of bounds', ...content('ValidationProblemDetails') },
            ...errors,
          },
        },
        post: {
          operationId: 'Invoices_CreateInvoice',
          parameters: [storeParam],
          security: security('btcpay.store.cancreateinvoice'),
          requestBody: { required: true, ...content('CreateInvoiceRequest') },
          responses: {
            '200': {
              description: 'The new invoice (or the open one of the same metadata.orderId)',
              ...content('InvoiceData'),
            },
            '400': { description: 'Fields refused, each named', ...content('ValidationProblemDetails') },
            '503': { description: 'No payment address is free now', ...content('ProblemDetails') },
            ...errors,
          },
        },
      },
      '/api/v1/stores/{storeId}/invoices/{invoiceId}': {
        get: {
          operationId: 'Invoices_GetInvoice',
          parameters: [storeParam, invoiceParam],
          security: security('btcpay.store.canviewinvoices'),
          responses: { '200': { description: 'The invoice', ...content('InvoiceData') }, ...errors },
        },
      },
      '/api/v1/stores/{storeId}/invoices/{invoiceId}/payment-methods': {
        get: {
          operationId: 'Invoices_GetInvoicePaymentMethods',
          parameters: [storeParam, invoiceParam],
          security: security('btcpay.store.canviewinvoices'),
          responses: {
            '200': {
              description: 'The network and token it is paid with, what came and what is due',
              content: {
                'application/json': {
                  schema: { type: 'array', items: ref('InvoicePaymentMethodDataModel') },
                },
              },
            },
            ...errors,
          },
        },
      },
      '/api/v1/stores/{storeId}/invoices/{invoiceId}/status': {
        post: {
          operationId: 'Invoices_MarkInvoiceStatus',
          parameters: [storeParam, invoiceParam],
          security: security('btcpay.store.canmodifyinvoices'),
          requestBody: { required: true, ...content('MarkInvoiceStatusRequest') },
          responses: {
            '200': { description: 'The invoice as marked', ...content('InvoiceData') },
            '400': { description: 'Not markable so, or a bad field', ...content('ProblemDetails') },
            ...errors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        API_Key: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'token <key>' },
      },
      schemas: {
        CreateInvoiceRequest: json(createInvoiceRequestSchema, 'input'),
        MarkInvoiceStatusRequest: json(markInvoiceStatusRequestSchema, 'input'),
        InvoiceData: json(invoiceDataSchema, 'output'),
        InvoiceDataList: { type: 'array', items: ref('InvoiceData') },
        InvoicePaymentMethodDataModel: json(invoicePaymentMethodSchema, 'output'),
        ProblemDetails: json(problemDetailsSchema, 'output'),
        ValidationProblemDetails: json(validationProblemSchema, 'output'),
      },
    },
  }
}
