// Starts the devchain (the TronGrid stand-in) and then the built shop pointed at it, as child
// processes that live and die together. Used by `npm run demo` and by the browser tests.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

/**
 * @param {{ devchainPort: string, devchainEnv?: Record<string, string>, shopEnv: Record<string, string> }} opts
 *   devchainEnv is added to the devchain's environment (DEVCHAIN_BLOCK_MS, DEVCHAIN_AUTO_MINE…); shopEnv
 *   to the shop's, after TRON_API_URL and PRICE_API_URL, which default to the devchain.
 * @returns {Promise<string>} the devchain's URL, once it answers.
 */
export async function startShopWithDevchain({ devchainPort, devchainEnv = {}, shopEnv }) {
  const devchainUrl = `http://127.0.0.1:${devchainPort}`
  const children = []
  const start = (args, env) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } })
    children.push(child)
    child.on('exit', (code) => {
      for (const other of children) if (other !== child) other.kill('SIGTERM')
      process.exit(code ?? 0)
    })
  }
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of children) child.kill(signal)
    })
  }

  start([join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'devchain', 'main.ts')], {
    DEVCHAIN_PORT: devchainPort,
    ...devchainEnv,
  })
  // The shop starts once the devchain answers, so its chain follower finds it at once.
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${devchainUrl}/_sim/state`)).ok) break
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  start([join('dist', 'server', 'main.js')], {
    TRON_API_URL: devchainUrl,
    PRICE_SOURCE: 'binance',
    PRICE_API_URL: devchainUrl,
    ...shopEnv,
  })
  return devchainUrl
}
