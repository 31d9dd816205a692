// `npm run pay -- <0x… address> <amount> [USDT|USDC]`: pays on the demo's EVM node (Anvil, started
// by `npm run demo`). Each payment comes from a fresh wallet: it gets gas money from the node,
// mints itself the amount of the demo's token and sends it. ANVIL_URL overrides
// http://127.0.0.1:8545; the token contracts are read from the demo's data folder.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isAddress, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { evmClient, readStablecoin, tokensFile } from './demo-evm.mjs'

export async function payEvm(address, amount, symbol) {
  if (!isAddress(address, { strict: false }) || !['USDT', 'USDC'].includes(symbol)) {
    console.error('usage: npm run pay -- <0x… address> <amount> [USDT|USDC]')
    process.exit(2)
  }
  const file = tokensFile(process.env.DEMO_DATA_DIR ?? join('data', 'demo'))
  if (!existsSync(file)) {
    console.error(`no ${file}: start npm run demo first`)
    process.exit(1)
  }
  const token = JSON.parse(readFileSync(file, 'utf8')).find((t) => t.symbol === symbol)
  const url = process.env.ANVIL_URL ?? `http://127.0.0.1:${process.env.ANVIL_PORT ?? '8545'}`
  const client = evmClient(url)
  const sender = privateKeyToAccount(generatePrivateKey())
  const units = parseUnits(amount, token.decimals)
  const { abi } = readStablecoin()
  try {
    await client.request({ method: 'anvil_setBalance', params: [sender.address, '0xde0b6b3a7640000'] })
    const write = (functionName, args) =>
      client.writeContract({ address: token.contract, abi, functionName, args, account: sender })
    await client.waitForTransactionReceipt({ hash: await write('mint', [sender.address, units]) })
    const hash = await write('transfer', [address, units])
    const receipt = await client.waitForTransactionReceipt({ hash })
    console.log(
      `sent ${amount} ${symbol} (${units} base units) on the Anvil node (chain id ${client.chain.id}) to ${address}\n` +
        `transaction ${hash} in block ${receipt.blockNumber}, ${receipt.status}; the shop counts it paid a few blocks later`,
    )
  } catch (error) {
    console.error(
      `cannot pay on the EVM node at ${url} (is npm run demo running?): ${error.shortMessage ?? error.message}`,
    )
    process.exit(1)
  }
}
