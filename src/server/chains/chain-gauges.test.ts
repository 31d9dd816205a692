import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { followerRowId } from '../db/schema'

// /metrics names every enabled chain's providers and sighting watcher by chain (decision 052), and a
// chain whose follower stopped does not show its providers as healthy.

const TOKEN = 'metrics-token-0123456789'

/** The value of one series (name and labels as Prometheus writes them), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe.each(engines)('per-chain gauges on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    // BNB Smart Chain enabled with an unnamed provider nobody answers on (no request is made here).
    t = await createTestApp(engine, {
      METRICS_TOKEN: TOKEN,
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: 'http://127.0.0.1:4599/rpc',
    })
  })
  afterAll(() => t.close())

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(res.statusCode).toBe(200)
    return res.body
  }

  it('labels provider health, requests and lag, and the sightings mode, by chain; a stopped chain reads unhealthy', async () => {
    const tronProvider = t.env.TRON_PROVIDERS[0]?.name as string
    let text = await scrape()
    const bsc = 'chain="bsc",provider="127.0.0.1:4599"'
    const tron = `chain="tron",provider="${tronProvider}"`
    expect(sample(text, `stablecart_chain_provider_healthy{${bsc}}`)).toBe(1)
    expect(sample(text, `stablecart_chain_provider_healthy{${tron}}`)).toBe(1)
    expect(sample(text, `stablecart_chain_provider_requests_today{${bsc}}`)).toBe(0)
    expect(text).toContain(`stablecart_chain_provider_lag_blocks{${bsc}}`)
    expect(sample(text, 'stablecart_chain_sightings_mode{chain="bsc"}')).toBe(0)
    expect(sample(text, 'stablecart_chain_sightings_mode{chain="tron"}')).toBe(0)

    // BNB Smart Chain's follower stops at a reorganisation: its one provider no longer reads healthy.
    await t.database.db.execute(sql`
      insert into follower_state (id, chain, checkpoint_block, checkpoint_block_id, checkpoint_time, halted_reason, halted_at)
      values (${followerRowId('bsc')}, 'bsc', 100, '0xaa', 1000, 'block 101 does not follow the checkpoint', now())`)
    text = await scrape()
    expect(sample(text, `stablecart_chain_provider_healthy{${bsc}}`)).toBe(0)
    expect(sample(text, `stablecart_chain_provider_healthy{${tron}}`)).toBe(1)
  })
})
