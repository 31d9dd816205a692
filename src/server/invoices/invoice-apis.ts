import type { FastifyInstance } from 'fastify'
import type { Env } from '../env'
import { registerEpusdtApi } from './epusdt.routes'
import { createFiatRateSource } from './epusdt-rate'
import { type GreenfieldOptions, registerGreenfieldApi } from './greenfield.routes'

// The APIs a seller's own site or cart speaks to the shop's invoices: Greenfield's under /api/v1
// (decision 055), and epusdt's create-transaction, off unless EPUSDT_TOKEN is set (decision 056).

export async function registerInvoiceApis(
  app: FastifyInstance,
  opts: GreenfieldOptions & {
    env: GreenfieldOptions['env'] &
      Pick<Env, 'EPUSDT_TOKEN' | 'EPUSDT_FIAT' | 'EPUSDT_RATE' | 'PRICE_API_URL'>
  },
): Promise<void> {
  await registerGreenfieldApi(app, opts)
  const { env } = opts
  await registerEpusdtApi(app, {
    ...opts,
    rate: createFiatRateSource({
      setting: env.EPUSDT_RATE,
      fiat: env.EPUSDT_FIAT,
      baseUrl: env.PRICE_API_URL,
    }),
  })
}
