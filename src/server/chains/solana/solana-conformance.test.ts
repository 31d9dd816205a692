import { generateKeyPairSigner } from '@solana/kit'
import { runChainConformance } from '../../../../tests/conformance/chain-conformance'
import { rpcTamper } from '../../../../tests/conformance/provider-proxy'
import { engines } from '../../../../tests/support/test-db'
import { serveRpc } from '../../../../tools/solana-standin/rpc'
import { createStandin } from '../../../../tools/solana-standin/standin'
import { transferInstructions } from '../../../../tools/solana-standin/transfers'
import { createSolanaAdapter } from './solana-adapter'
import { parseSolanaEnv } from './solana-env'

// The Solana family passes the chain conformance suite on the stand-in cluster: LiteSVM running the
// real SPL Token program behind a JSON-RPC front in Solana's own shapes, slots made only when the
// harness says, `confirmed` one slot and `finalized` four slots behind the newest; a confirmed
// transaction is dropped by putting back the accounts it wrote (the stand-in's control/drop).

const FINALIZE_DEPTH = 4

runChainConformance(
  'Solana on the LiteSVM stand-in',
  async () => {
    const standin = await createStandin({ finalizeDepth: FINALIZE_DEPTH })
    const front = await serveRpc(standin)
    const buyer = await generateKeyPairSigner()
    // Holds SOL for fees and one unit of USDT: a larger transfer from it fails in the token program.
    const broke = await generateKeyPairSigner()
    for (const k of [buyer, broke]) standin.airdrop(k.address)
    await standin.mintTo(standin.mints.usdt, buyer.address, 10n ** 15n)
    await standin.mintTo(standin.mints.counterfeitUsdt, buyer.address, 10n ** 15n)
    await standin.mintTo(standin.mints.usdt, broke.address, 1n)
    const send = async (from: typeof buyer, to: string, mint: string, amount: bigint) =>
      (await standin.run(from, await transferInstructions({ payer: from, to, mint, amount }))).signature
    const env = (urls: string[]) => ({
      SOLANA_ENABLED: 'true',
      SOLANA_POLL_MS: '100',
      SOLANA_FINAL_EVERY_MS: '100',
      ...Object.fromEntries(urls.map((url, i) => [`SOLANA_PROVIDER_${i + 1}_URL`, url])),
    })
    return {
      chain: 'solana',
      family: 'solana',
      env,
      token: { symbol: 'USDT', decimals: 6 },
      buyer: buyer.address,
      nodeUrl: front.url,
      adapter(urls) {
        const { config, errors } = parseSolanaEnv(env(urls))
        if (errors.length > 0) throw new Error(errors.join('\n'))
        return createSolanaAdapter(config, { coolingBaseMs: 1, maxCoolingMs: 1, timeoutMs: 5000 })
      },
      newAddress: async () => (await generateKeyPairSigner()).address,
      pay: (to, units) => send(buyer, to, standin.mints.usdt, units),
      counterfeit: (to, units) => send(buyer, to, standin.mints.counterfeitUsdt, units),
      fail: (to, units) => send(broke, to, standin.mints.usdt, units),
      // The sighting watcher reads at `confirmed`, one slot behind the newest.
      toHead: async () => standin.advance(1),
      finalize: async () => standin.advance(FINALIZE_DEPTH + 1),
      finalHeight: async () => standin.slot('finalized'),
      warp: async (ms) => standin.warp(ms),
      // A fork that did not keep the transaction's slot, through the stand-in's control API (as the
      // devchain's /_sim/drop and Anvil's anvil_reorg): its accounts go back as they were before it.
      async drop(signature) {
        const res = await fetch(`${front.url}control/drop`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signature }),
        })
        if (!res.ok) throw new Error(`drop: ${await res.text()}`)
      },
      lie: {
        what: 'another transaction than the signature asked for',
        tamper: rpcTamper((call, answer) => {
          if (call.method !== 'getTransaction' || !answer?.result) return null
          const tx = answer.result
          const [first, ...rest] = tx.transaction.signatures as string[]
          const other = `${(first as string).slice(1)}${(first as string).slice(0, 1)}`
          return {
            ...answer,
            result: { ...tx, transaction: { ...tx.transaction, signatures: [other, ...rest] } },
          }
        }),
      },
      async close() {
        standin.stop()
        await front.close()
      },
    }
  },
  { engines },
)
