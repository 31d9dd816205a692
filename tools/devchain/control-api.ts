import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ChainControl } from './chain-control'
import { dropSchema, faultSchema, mineSchema, parseBody, priceSchema } from './control-schemas'
import { emptyStats, statsView } from './faces'
import { HttpError, readJson, send } from './http-io'
import type { TransferRequest } from './types'

// The control API (/_sim/*) for tests and demos: transfers, mining, faults, the price, state and stats.

export async function handleControl(
  control: ChainControl,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
) {
  const { chain, main } = control
  const method = req.method ?? 'GET'
  const route = `${method} ${path}`
  switch (route) {
    case 'POST /_sim/transfers':
      return send(res, 200, control.transfer((await readJson(req)) as TransferRequest))
    case 'POST /_sim/drop': {
      const body = parseBody(dropSchema, await readJson(req))
      return send(res, 200, chain.dropTransaction(body.txid))
    }
    case 'POST /_sim/mine': {
      const body = parseBody(mineSchema, await readJson(req))
      return send(res, 200, control.mine(body.blocks))
    }
    case 'POST /_sim/faults': {
      const body = parseBody(faultSchema, await readJson(req))
      control.setFault(body.mode, body.count, body.path, body.suspend_seconds)
      return send(res, 200, main.fault)
    }
    case 'POST /_sim/price': {
      const body = parseBody(priceSchema, await readJson(req))
      control.setPrice(body.usd)
      return send(res, 200, { usd: control.price })
    }
    case 'POST /_sim/reset':
      control.reset()
      return send(res, 200, { success: true })
    case 'GET /_sim/state':
      return send(res, 200, {
        ...chain.counts(),
        auto_mine: control.autoMine,
        usdt_contract: control.usdtContract,
        price_usd: control.price,
        fault: main.fault,
      })
    case 'GET /_sim/stats':
      return send(res, 200, statsView(main))
    case 'POST /_sim/stats/reset':
      main.stats = emptyStats()
      return send(res, 200, { success: true })
    default:
      throw new HttpError(404, `no control route ${route}`)
  }
}
