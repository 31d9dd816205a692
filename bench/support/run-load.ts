import { spawn } from 'node:child_process'
import { join } from 'node:path'

export interface LoadReport {
  latencies: number[]
  failures: number
  firstFailure?: unknown
  elapsed: number
  cpuSeconds: number
}

/**
 * Runs the buyers' process (order-load.mjs next to this file): `clients` keep-alive connections
 * place `total` orders over HTTP, each from its own buyer numbered from `firstBuyer`.
 */
export function runLoad(
  base: string,
  products: { id: number; price: number }[],
  opts: { clients: number; total: number; firstBuyer?: number },
): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, 'order-load.mjs'),
        base,
        String(opts.clients),
        String(opts.total),
        JSON.stringify(products),
        String(opts.firstBuyer ?? 0),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the load process exited with ${code}`))
      else resolve(JSON.parse(out))
    })
  })
}

/** The value at quantile q of an ascending list. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

/** The paid products the storefront lists, as the buyers' process wants them. */
export async function paidProducts(base: string): Promise<{ id: number; price: number }[]> {
  const listed = await fetch(`${base}/rpc/fetch_products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  const body = (await listed.json()) as { products: { id: number; price: number; is_free: boolean }[] }
  return body.products.filter((p) => !p.is_free && p.price > 0).map(({ id, price }) => ({ id, price }))
}
