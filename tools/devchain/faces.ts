import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { DevchainStats, FaultMode } from './types'

// A face is one HTTP listener on the chain (the devchain's own, and any added as a second
// provider): its injected fault, its request counts, its held responses and its fork.

const MAX_TRACKED_PATHS = 200

export interface FaceFault {
  mode: FaultMode
  remaining: number | null
  path: string | null
  suspendSeconds: number
}

export interface Face {
  fault: FaceFault
  stats: ReturnType<typeof emptyStats>
  // Responses held open by the "timeout" fault; stop() and close() destroy them so they never wait on a client.
  held: Set<ServerResponse>
  server: Server | null
  forkFrom: number | null
}

/** The face each response is answered from, and the route its bytes are counted on. */
export const faceOf = new WeakMap<ServerResponse, Face>()
export const routeOf = new WeakMap<ServerResponse, string>()

export function emptyStats() {
  return {
    requests: 0,
    faulted: 0,
    byPath: {} as Record<string, number>,
    bytesByPath: {} as Record<string, number>,
    apiKeys: {} as Record<string, number>,
    times: [] as number[],
  }
}

export const newFace = (): Face => ({
  fault: { mode: 'none', remaining: null, path: null, suspendSeconds: 1 },
  stats: emptyStats(),
  held: new Set(),
  server: null,
  forkFrom: null,
})

export function setFaceFault(face: Face, mode: FaultMode, count?: number, path?: string, suspendSeconds = 1) {
  face.fault =
    mode === 'none'
      ? { mode, remaining: null, path: null, suspendSeconds: 1 }
      : { mode, remaining: count ?? null, path: path ?? null, suspendSeconds }
}

function peakPerSecond(times: number[]): number {
  let peak = 0
  let start = 0
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= 1000) start++
    peak = Math.max(peak, end - start + 1)
  }
  return peak
}

export function statsView(face: Face): DevchainStats {
  const stats = face.stats
  return {
    requests: stats.requests,
    byPath: { ...stats.byPath },
    bytesByPath: { ...stats.bytesByPath },
    apiKeys: { ...stats.apiKeys },
    faulted: stats.faulted,
    peakPerSecond: peakPerSecond(stats.times),
  }
}

function routeKey(path: string): string {
  return path.replace(/^\/v1\/accounts\/[^/]+/, '/v1/accounts/:address')
}

/** Counts an explorer request on its face: in all, by route, by API key, and its time. */
export function countRequest(face: Face, req: IncomingMessage, res: ServerResponse, path: string) {
  const stats = face.stats
  stats.requests += 1
  const key = routeKey(path)
  if (key in stats.byPath || Object.keys(stats.byPath).length < MAX_TRACKED_PATHS) {
    stats.byPath[key] = (stats.byPath[key] ?? 0) + 1
    routeOf.set(res, key)
  }
  const apiKey = req.headers['tron-pro-api-key']
  const keyName = typeof apiKey === 'string' ? apiKey : '(none)'
  stats.apiKeys[keyName] = (stats.apiKeys[keyName] ?? 0) + 1
  stats.times.push(Date.now())
  if (stats.times.length > 100_000) stats.times.splice(0, 50_000)
}
