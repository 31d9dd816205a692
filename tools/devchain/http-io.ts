import type { IncomingMessage, ServerResponse } from 'node:http'
import { faceOf, routeOf } from './faces'
import { toNodeJson } from './sim-chain'

// Reading requests and writing answers, as TronGrid's servers do (JSON with java-tron's number
// formatting, open CORS); each answer's bytes are counted on its face's route.

const MAX_BODY_BYTES = 1_000_000

/** An HTTP refusal: answered with its status and {"success": false, "error": …}. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** A java-tron refusal: HTTP 200 with {"Error": …}. */
export class NodeError extends Error {}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json') {
  const text = typeof body === 'string' ? body : toNodeJson(body)
  const route = routeOf.get(res)
  const stats = faceOf.get(res)?.stats
  if (route !== undefined && stats) {
    stats.bytesByPath[route] = (stats.bytesByPath[route] ?? 0) + Buffer.byteLength(text)
  }
  res.writeHead(status, {
    'content-type': `${contentType}; charset=utf-8`,
    'access-control-allow-origin': '*',
  })
  res.end(text)
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'request body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req)
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'request body is not valid JSON')
  }
}
