import { decodeEventLog, getAddress, parseAbiItem } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from './anvil'
import { compileContracts, readCompiled } from './compile'
import {
  accounts,
  approve,
  deployRouter,
  deployStablecoin,
  mint,
  revertedTransfer,
  routerPay,
  stablecoinAbi,
  transfer,
  USDT_6,
  USDT_18,
} from './tokens'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

describe('test contracts', () => {
  it('compiled.json is what solc makes of the sources today', () => {
    expect(compileContracts()).toEqual(readCompiled())
  }, 120_000)

  describe('on Anvil', () => {
    let anvil: Anvil
    beforeAll(async () => {
      anvil = await spawnAnvil({ chainId: 56 })
    })
    afterAll(async () => {
      await anvil?.stop()
    })

    it('runs with the chain id asked for', async () => {
      expect(await anvil.client.getChainId()).toBe(56)
    })

    it('deploys tokens with their decimals; transfers, router payments and reverts behave as on a chain', async () => {
      const [a, b, c] = await accounts(anvil)
      const usdt6 = await deployStablecoin(anvil, USDT_6)
      const usdt18 = await deployStablecoin(anvil, USDT_18)
      const router = await deployRouter(anvil)
      const read = (address: `0x${string}`, functionName: string, args: unknown[] = []) =>
        anvil.client.readContract({ address, abi: stablecoinAbi, functionName, args })
      expect(await read(usdt6, 'decimals')).toBe(6)
      expect(await read(usdt18, 'decimals')).toBe(18)
      expect(await read(usdt18, 'symbol')).toBe('USDT')

      await mint(anvil, usdt18, a, a, 10n ** 20n)
      const sent = await transfer(anvil, usdt18, a, b, 12_340_000_000_000_000_000n)
      const receipt = await anvil.client.getTransactionReceipt({ hash: sent })
      const log = decodeEventLog({ abi: [transferEvent], ...(receipt.logs[0] as (typeof receipt.logs)[0]) })
      expect(log.args).toEqual({ from: getAddress(a), to: getAddress(b), value: 12_340_000_000_000_000_000n })

      await approve(anvil, usdt18, b, router, 10n ** 18n)
      const routed = await routerPay(anvil, router, c, usdt18, b, c, 10n ** 18n)
      const routedReceipt = await anvil.client.getTransactionReceipt({ hash: routed })
      expect(routedReceipt.to).toBe(router.toLowerCase())
      expect(routedReceipt.logs.map((l) => l.address)).toContain(usdt18.toLowerCase())
      expect(await read(usdt18, 'balanceOf', [c])).toBe(10n ** 18n)

      const failed = await revertedTransfer(anvil, usdt6, c, b, 1n)
      const failedReceipt = await anvil.client.getTransactionReceipt({ hash: failed })
      expect(failedReceipt.status).toBe('reverted')
      expect(failedReceipt.logs).toEqual([])
    })
  })
})
