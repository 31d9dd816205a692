import type { ServerResponse } from 'node:http'
import { type Face, setFaceFault } from './faces'
import { send } from './http-io'

// The failures a face can be told to show, answered as TronGrid and its gateways answer them.

/** Answers `res` with the face's fault, when one is set for this path; false when none is. */
export function injectFault(res: ServerResponse, path: string, face: Face): boolean {
  const { fault, stats, held } = face
  if (fault.mode === 'none') return false
  if (fault.path !== null && !path.includes(fault.path)) return false
  const { mode, suspendSeconds } = fault
  if (fault.remaining !== null) {
    fault.remaining -= 1
    if (fault.remaining <= 0) setFaceFault(face, 'none')
  }
  stats.faulted += 1
  switch (mode) {
    case 'http429':
      send(res, 429, {
        Error: `request rate exceeded the allowed_rps(10), and the query server is suspended for ${suspendSeconds} s`,
      })
      break
    case 'http403':
      send(res, 403, {
        Success: false,
        Error: `The key exceeds the frequency limit(15), and the query server is suspended for ${suspendSeconds}s`,
        StatusCode: 403,
      })
      break
    case 'http503':
      // A gateway page, no hint: the client has to fall back to its own backoff.
      send(res, 503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>', 'text/html')
      break
    case 'http500':
      send(res, 500, { Error: 'Internal Server Error' })
      break
    case 'malformed':
      send(res, 200, '{"data":[{"transaction_id":"e37eb34143ca6014534', 'application/json')
      break
    case 'empty':
      // A load-balanced back end that lags behind: it knows none of the recent blocks or transactions.
      if (path.endsWith('/gettransactioninfobyblocknum')) send(res, 200, [])
      else if (path.startsWith('/v1/'))
        send(res, 200, { data: [], success: true, meta: { at: Date.now(), page_size: 0 } })
      else send(res, 200, {})
      break
    case 'timeout':
      held.add(res)
      res.on('close', () => held.delete(res))
      break
  }
  return true
}
