import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { WorkerLogger } from '../lib/logger'
import { quietLogger } from '../lib/logger'

/**
 * Prometheus metrics for one app instance (its own registry, so tests can build many apps).
 * Counters are always kept (they cost an increment); the HTTP hooks, process metrics and the
 * GET /metrics answer exist only when METRICS_TOKEN is set.
 */
export interface Metrics {
  readonly enabled: boolean
  readonly registry: Registry
  /**
   * A gauge read at scrape time. `collect` may be async (a database count); when it throws, the
   * gauge reads NaN in that scrape (unknown) instead of failing the whole scrape. Names must be unique.
   */
  gauge(name: string, help: string, collect: () => number | Promise<number>): void
  /** A gauge with one series per label value (one per chain provider, …), read at scrape time. */
  labeledGauge(
    name: string,
    help: string,
    label: string,
    collect: () => { label: string; value: number }[] | Promise<{ label: string; value: number }[]>,
  ): void
  /** A gauge with several labels (a chain and its provider, say), collected at scrape time. */
  labelsGauge(
    name: string,
    help: string,
    labelNames: readonly string[],
    collect: () =>
      | { labels: Record<string, string>; value: number }[]
      | Promise<{ labels: Record<string, string>; value: number }[]>,
  ): void
  /** Wraps fetch so that every call to the chain explorer is counted, and failures separately. */
  explorerFetch(inner: typeof fetch): typeof fetch
}

export interface MetricsOptions {
  /** METRICS_TOKEN; unset disables the HTTP side. */
  token?: string
  logger?: WorkerLogger
}

export const METRIC_PREFIX = 'stablecart_'

export function createMetrics(opts: MetricsOptions): Metrics {
  const registry = new Registry()
  const logger = opts.logger ?? quietLogger
  const enabled = opts.token !== undefined
  if (enabled) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX })

  const explorerRequests = new Counter({
    name: `${METRIC_PREFIX}explorer_requests_total`,
    help: 'Requests sent to the chain explorer (TronGrid or the devchain), by HTTP status or network_error',
    labelNames: ['status'] as const,
    registers: [registry],
  })
  const explorerErrors = new Counter({
    name: `${METRIC_PREFIX}explorer_errors_total`,
    help: 'Explorer requests that failed: reason http (non-2xx answer) or network (no answer)',
    labelNames: ['reason'] as const,
    registers: [registry],
  })

  return {
    enabled,
    registry,
    gauge(name, help, collect) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          try {
            this.set(await collect())
          } catch (error) {
            this.set(Number.NaN)
            logger.warn({ err: error, metric: name }, 'metric collection failed')
          }
        },
      })
    },
    labelsGauge(name, help, labelNames, collect) {
      new Gauge({
        name,
        help,
        labelNames: [...labelNames],
        registers: [registry],
        async collect() {
          this.reset()
          try {
            for (const s of await collect()) this.set(s.labels, s.value)
          } catch (error) {
            logger.warn({ err: error, metric: name }, 'metric collection failed')
          }
        },
      })
    },
    labeledGauge(name, help, label, collect) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          this.reset()
          try {
            for (const s of await collect()) this.set({ [label]: s.label }, s.value)
          } catch (error) {
            logger.warn({ err: error, metric: name }, 'metric collection failed')
          }
        },
      })
    },
    explorerFetch(inner) {
      return async (input, init) => {
        let res: Response
        try {
          res = await inner(input, init)
        } catch (error) {
          explorerRequests.inc({ status: 'network_error' })
          explorerErrors.inc({ reason: 'network' })
          throw error
        }
        explorerRequests.inc({ status: String(res.status) })
        if (!res.ok) explorerErrors.inc({ reason: 'http' })
        return res
      }
    },
  }
}

/**
 * GET /metrics (Prometheus text format, bearer token) and the per-request counters. Off, the
 * path answers 404 like any unknown API path.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  opts: { token?: string; rpcLabel: (name: string) => string },
): void {
  const { token } = opts
  if (!metrics.enabled || token === undefined) {
    app.get('/metrics', async (_request, reply) =>
      reply
        .status(404)
        .send({ success: false, error: 'Not found: GET /metrics (set METRICS_TOKEN to enable)' }),
    )
    return
  }

  const requests = new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route (RPC calls by name) and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [metrics.registry],
  })
  const duration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by route',
    labelNames: ['route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  })

  app.addHook('onResponse', async (request, reply) => {
    const pattern = request.routeOptions.url
    let route: string
    if (pattern === undefined) route = 'not_found'
    else if (pattern === '/rpc/:name') route = opts.rpcLabel((request.params as { name?: string }).name ?? '')
    else if (pattern === '/*') route = 'static'
    else route = pattern
    requests.inc({ method: request.method, route, status: String(reply.statusCode) })
    duration.observe({ route }, reply.elapsedTime / 1000)
  })

  const expected = Buffer.from(`Bearer ${token}`)
  app.get('/metrics', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const given = Buffer.from(request.headers.authorization ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ success: false, error: 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>' })
    }
    const body = await metrics.registry.metrics()
    return reply.type(metrics.registry.contentType).send(body)
  })
}
