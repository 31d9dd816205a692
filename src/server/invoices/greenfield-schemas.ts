import * as z from 'zod'
import { isValidEmail, MAX_EMAIL_LENGTH } from '../../shared/checkout-rules'

// The Greenfield invoice API's requests and answers as zod schemas: the routes check every request
// with them, the tests check every answer with them, and /api/v1/openapi.json is generated from
// them (openapi.ts), so the document and the checks cannot drift. Field names, types and
// nullability follow BTCPay Server's published OpenAPI document (swagger.template.invoices.json);
// the bounds are ours. Unknown fields are ignored, as BTCPay's JSON reader does.

/** The largest invoice: amounts are integer cents on the server and in the database. */
export const MAX_INVOICE_CENTS = 100_000_000_00
export const MAX_METADATA_BYTES = 16 * 1024
export const MAX_EXPIRATION_MINUTES = 24 * 60
export const invoiceCurrencies = ['USD', 'USDT', 'USDC'] as const

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/

/** "12.50" or 12.5 → 1250 cents; null when not an amount with at most two decimals. */
export function amountToCents(value: string | number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim()
  if (!AMOUNT.test(text)) return null
  const [whole, fraction = ''] = text.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

const amountMessage = `must be an amount from 0.01 to ${MAX_INVOICE_CENTS / 100} with at most 2 decimals, such as "12.50"`
const amountSchema = z.union([z.string().max(40), z.number()], { error: amountMessage }).refine((v) => {
  const cents = amountToCents(v)
  return cents !== null && cents >= 1 && cents <= MAX_INVOICE_CENTS
}, amountMessage)

const optionalText = (max: number) =>
  z.string().max(max, `must be at most ${max} characters`).nullable().optional()

export const invoiceMetadataSchema = z
  .looseObject({
    orderId: optionalText(100).describe(
      "The seller's order: the list filters on it, and a second invoice for an open one answers the first",
    ),
    orderUrl: optionalText(2000),
    itemDesc: optionalText(500).describe('What is bought: shown on the payment page'),
    itemCode: optionalText(100),
    buyerName: optionalText(200),
    buyerEmail: z
      .string()
      .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
      .refine((v) => isValidEmail(v.trim()), 'must be an e-mail address')
      .nullable()
      .optional()
      .describe('The order e-mail (keys, receipt) goes there; without it no e-mail is sent'),
  })
  .refine(
    (m) => JSON.stringify(m).length <= MAX_METADATA_BYTES,
    `must be at most ${MAX_METADATA_BYTES} bytes of JSON`,
  )

const urlSchema = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^https?:\/\/[^\s]+$/i, 'must be an http:// or https:// URL')

export const checkoutOptionsSchema = z.object({
  redirectURL: urlSchema
    .nullable()
    .optional()
    .describe('Where the payment page sends the buyer back; {InvoiceId} and {OrderId} are replaced'),
  redirectAutomatically: z.boolean().nullable().optional(),
  expirationMinutes: z
    .number()
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1')
    .max(MAX_EXPIRATION_MINUTES, `must be at most ${MAX_EXPIRATION_MINUTES}`)
    .nullable()
    .optional(),
  defaultLanguage: z.string().max(20, 'must be at most 20 characters').nullable().optional(),
  paymentMethods: z
    .array(z.string().max(40, 'must be at most 40 characters'))
    .max(20, 'must list at most 20 payment methods')
    .nullable()
    .optional()
    .describe('Payment method ids such as USDT-TRON or USDC-BASE; the first the shop takes is used'),
  // Accepted and ignored (the shop's own rules decide): BTCPay's other checkout options.
  speedPolicy: z.string().max(40).nullable().optional(),
  paymentTolerance: z.number().min(0).max(100).nullable().optional(),
  monitoringMinutes: z.number().nullable().optional(),
  defaultPaymentMethod: z.string().max(40).nullable().optional(),
  lazyPaymentMethods: z.boolean().nullable().optional(),
  requiresRefundEmail: z.boolean().nullable().optional(),
  checkoutType: z.string().max(10).nullable().optional(),
})

/** Catalogue products an invoice sells (the shop's own field; Greenfield has none). */
export const invoiceProductsSchema = z
  .array(
    z.object({
      id: z.number().int('must be a product id').min(1, 'must be a product id').max(2_147_483_647),
      quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100).optional(),
    }),
  )
  .min(1, 'must list at least one product')
  .max(20, 'must list at most 20 products')

export const createInvoiceRequestSchema = z.object({
  amount: amountSchema.describe('The amount, a decimal string (a number is accepted too)'),
  products: invoiceProductsSchema
    .nullable()
    .optional()
    .describe(
      "The shop's catalogue products this invoice sells ({id, quantity}); amount must be their total. Their licence keys are delivered when it is paid and named in InvoiceSettled",
    ),
  currency: z.string().max(10).nullable().optional().describe('USD (default), or USDT / USDC taken at par'),
  metadata: invoiceMetadataSchema.nullable().optional(),
  checkout: checkoutOptionsSchema.nullable().optional(),
  additionalSearchTerms: z.array(z.string().max(100)).max(20).nullable().optional(),
})
export type CreateInvoiceRequest = z.infer<typeof createInvoiceRequestSchema>

export const markInvoiceStatusRequestSchema = z.object({ status: z.enum(['Invalid', 'Settled']) })

export const invoiceStatuses = ['New', 'Processing', 'Expired', 'Invalid', 'Settled'] as const
export type InvoiceStatus = (typeof invoiceStatuses)[number]
export const additionalStatuses = [
  'None',
  'PaidLate',
  'PaidPartial',
  'Marked',
  'Invalid',
  'PaidOver',
] as const
export type AdditionalStatus = (typeof additionalStatuses)[number]

const unixTime = z.number().int().describe('Unix time in seconds')

export const listInvoicesQuerySchema = z.object({
  orderId: z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]).optional(),
  status: z.union([z.enum(invoiceStatuses), z.array(z.enum(invoiceStatuses)).max(5)]).optional(),
  startDate: z.coerce.number().int().min(0).max(253_402_300_799).optional(),
  endDate: z.coerce.number().int().min(0).max(253_402_300_799).optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).optional(),
  take: z.coerce.number().int().min(1).max(1000).optional(),
  textSearch: z.string().max(100).optional(),
})

export const invoiceDataSchema = z.object({
  id: z.string(),
  storeId: z.string(),
  amount: z.string().describe('Decimal'),
  currency: z.string(),
  type: z.enum(['Standard', 'TopUp']),
  checkoutLink: z.string(),
  createdTime: unixTime,
  expirationTime: unixTime,
  monitoringExpiration: unixTime,
  status: z.enum(invoiceStatuses),
  additionalStatus: z.enum(additionalStatuses),
  availableStatusesForManualMarking: z.array(z.enum(invoiceStatuses)),
  archived: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  checkout: z.object({
    speedPolicy: z.string().nullable(),
    paymentMethods: z.array(z.string()).nullable(),
    defaultPaymentMethod: z.string().nullable(),
    lazyPaymentMethods: z.boolean().nullable(),
    expirationMinutes: z.number().nullable(),
    monitoringMinutes: z.number().nullable(),
    paymentTolerance: z.number().nullable(),
    redirectURL: z.string().nullable(),
    redirectAutomatically: z.boolean().nullable(),
    requiresRefundEmail: z.boolean().nullable(),
    checkoutType: z.string().nullable(),
    defaultLanguage: z.string().nullable(),
  }),
  receipt: z.object({
    enabled: z.boolean().nullable(),
    showQR: z.boolean().nullable(),
    showPayments: z.boolean().nullable(),
  }),
})
export type InvoiceData = z.infer<typeof invoiceDataSchema>

export const invoicePaymentSchema = z.object({
  id: z.string(),
  receivedDate: unixTime,
  value: z.string(),
  fee: z.string(),
  status: z.enum(['Invalid', 'Processing', 'Settled']),
  destination: z.string(),
})

export const invoicePaymentMethodSchema = z.object({
  paymentMethod: z.string(),
  cryptoCode: z.string(),
  destination: z.string(),
  paymentLink: z.string().nullable(),
  rate: z.string(),
  paymentMethodPaid: z.string(),
  totalPaid: z.string(),
  due: z.string(),
  amount: z.string(),
  networkFee: z.string(),
  payments: z.array(invoicePaymentSchema),
  activated: z.boolean(),
  additionalData: z.record(z.string(), z.unknown()),
})

/** Greenfield's error: a code and a sentence. */
export const problemDetailsSchema = z.object({ code: z.string(), message: z.string() })
/** Greenfield's validation error: one entry per field, the field named by its path. */
export const validationProblemSchema = z.array(z.object({ path: z.string(), message: z.string() }))
