// Requests a day each EVM chain's follower and sighting watcher send, measured on Anvil and scaled
// to each chain's pace (docs/decisions/042-evm-family.md). One pass of the follower once caught up
// and one sighting look are run many times against a real node with a block between passes and one
// payment to our addresses in every tenth block (the follower then reads that block's header too);
// the requests are counted where the provider counts them (HTTP requests through the pool). Their
// cost per pass does not depend on the number of orders or addresses up to 500 (one eth_getLogs
// topic list); each further 500 pool addresses add one request a pass.
//   npx tsx bench/evm-requests.ts          (BENCH_PASSES, default 200)

import { randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import { EVM_CHAINS } from '../src/server/chains/evm/chains'
import { createEvmAdapter } from '../src/server/chains/evm/evm-adapter'
import { parseEvmEnv } from '../src/server/chains/evm/evm-env'
import { spawnAnvil } from '../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../tests/support/evm/tokens'

const PASSES = Number(process.env.BENCH_PASSES ?? 200)
const FREE_TIER_PER_DAY = 100_000

const anvil = await spawnAnvil({ chainId: 56 })
try {
  const [deployer, buyer] = await accounts(anvil)
  const usdt = await deployStablecoin(anvil, USDT_18)
  await mint(anvil, usdt, deployer, buyer, 10n ** 30n)
  const watch = new Set(Array.from({ length: 500 }, () => getAddress(`0x${randomBytes(20).toString('hex')}`)))
  const payee = [...watch][0] as `0x${string}`
  const { chains } = parseEvmEnv({
    EVM_BSC_ENABLED: 'true',
    EVM_BSC_PROVIDER_1_URL: anvil.url,
    EVM_BSC_CONFIRMATIONS: '3',
    EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
  })
  const adapter = createEvmAdapter(chains.find((c) => c.spec.key === 'bsc') as (typeof chains)[number])
  const used = () => adapter.providers.requestBudget().usedToday
  const start = await adapter.finalHead()
  if (start.status === 'error') throw new Error(start.message)
  let checkpoint = { number: start.number, hash: start.hash as string }
  const reader = adapter.createHeadReader()
  await reader.look(watch)
  let follow = 0
  let look = 0
  for (let i = 0; i < PASSES; i++) {
    if (i % 10 === 0) await transfer(anvil, usdt, buyer, payee, 10n ** 18n)
    else await anvil.client.mine({ blocks: 1 })
    let before = used()
    const read = await adapter.readFinal({ checkpoint, watch, maxBlocks: 500, deadline: Date.now() + 10_000 })
    if (read.error) throw new Error(read.error.message)
    const last = read.blocks.at(-1)
    if (last) checkpoint = { number: last.number, hash: last.hash }
    follow += used() - before
    before = used()
    const looked = await reader.look(watch)
    if (looked.error) throw new Error(looked.error.message)
    look += used() - before
  }
  const perPass = follow / PASSES
  const perLook = look / PASSES
  console.log(
    `measured on Anvil over ${PASSES} passes: ${perPass.toFixed(2)} requests a follower pass, ${perLook.toFixed(2)} a sighting look\n`,
  )
  console.log(
    '| chain | looks every | follower/day | sightings/day (orders open all day) | total | share of 100,000/day |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const c of EVM_CHAINS) {
    const every = Math.max(c.blockTimeMs, c.defaultPollMs)
    const passes = 86_400_000 / every
    const f = Math.round(passes * perPass)
    const s = Math.round(passes * perLook)
    console.log(
      `| ${c.name} | ${every / 1000} s | ${f.toLocaleString('en')} | ${s.toLocaleString('en')} | ${(f + s).toLocaleString('en')} | ${Math.round(((f + s) / FREE_TIER_PER_DAY) * 100)} % |`,
    )
  }
} finally {
  await anvil.stop()
}
