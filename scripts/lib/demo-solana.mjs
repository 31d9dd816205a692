// The demo's Solana: the stand-in cluster (tools/solana-standin, LiteSVM running the real SPL Token
// program, USDT and USDC at their mainnet mints) on SOLANA_STANDIN_PORT, and the demo's Solana
// receiving addresses. `npm run pay -- <Solana address> <amount> [USDT|USDC]` pays on it.
import { spawn } from 'node:child_process'
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto'
import { join } from 'node:path'
import { base58 } from '@scure/base'

/**
 * Five wallet keys derived from fixed seeds, the same on every machine (nobody else holds them: they
 * are for the demo only, like its TRON and EVM addresses).
 */
export function demoSolanaAddresses() {
  return Array.from({ length: 5 }, (_, i) => {
    const seed = createHash('sha256').update(`stablecart demo solana ${i}`).digest()
    // PKCS#8 of an Ed25519 seed: a fixed 16-byte header, then the 32-byte seed.
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed])
    const key = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }))
    const x = key.export({ format: 'jwk' }).x
    return base58.encode(Buffer.from(x, 'base64url'))
  })
}

/**
 * Starts the stand-in and waits until it answers. Its chain lives in memory: each start begins at a
 * slot counted from the wall clock (one every 400 ms), so a restarted demo's slots never go back
 * below the ones the shop has already recorded.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, url: string, shopEnv: Record<string, string> }>}
 */
export async function startDemoSolana({ port, onExit }) {
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    process.execPath,
    [join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'solana-standin', 'main.ts')],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        SOLANA_STANDIN_PORT: String(port),
        SOLANA_STANDIN_FIRST_SLOT: String(Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 400)),
      },
    },
  )
  child.on('exit', onExit)
  for (let i = 0; ; i++) {
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
      })
      if (answer.ok) break
    } catch {}
    if (child.exitCode !== null || i > 300) throw new Error(`the Solana stand-in did not start on ${url}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    child,
    url,
    shopEnv: { SOLANA_ENABLED: 'true', SOLANA_PROVIDER_1_URL: url, SOLANA_POLL_MS: '500' },
  }
}
