import { type Abi, type Address, getAddress, type Hash } from 'viem'
import type { Anvil } from './anvil'
import { readCompiled } from './compile'

// The test contracts deployed on an Anvil node, and the moves a buyer's wallet makes with them.
// Anvil's dev accounts are unlocked: eth_sendTransaction signs for them.

const compiled = readCompiled()
const stablecoin = compiled.contracts.TestStablecoin
const router = compiled.contracts.TestRouter
export const stablecoinAbi = stablecoin.abi as Abi
export const routerAbi = router.abi as Abi

export interface TokenSpec {
  name: string
  symbol: string
  decimals: number
}

export const USDT_6: TokenSpec = { name: 'Tether USD', symbol: 'USDT', decimals: 6 }
export const USDT_18: TokenSpec = { name: 'Tether USD', symbol: 'USDT', decimals: 18 }
export const USDC_6: TokenSpec = { name: 'USD Coin', symbol: 'USDC', decimals: 6 }
export const USDC_18: TokenSpec = { name: 'USD Coin', symbol: 'USDC', decimals: 18 }
/** Same name and symbol as USDT, another contract: a counterfeit. */
export const FAKE_USDT: TokenSpec = USDT_6

/** Four of Anvil's funded, unlocked dev accounts. */
export async function accounts(anvil: Anvil): Promise<[Address, Address, Address, Address]> {
  const [a, b, c, d] = await anvil.client.getAddresses()
  if (!a || !b || !c || !d) throw new Error('anvil has fewer than four dev accounts')
  return [a, b, c, d]
}

async function mined(anvil: Anvil, hash: Hash) {
  return anvil.client.waitForTransactionReceipt({ hash, timeout: 60_000 })
}

async function deploy(anvil: Anvil, abi: Abi, bytecode: `0x${string}`, args: unknown[]): Promise<Address> {
  const [deployer] = await accounts(anvil)
  const hash = await anvil.client.deployContract({
    abi,
    bytecode,
    args,
    account: deployer,
    chain: anvil.client.chain,
  })
  const receipt = await mined(anvil, hash)
  if (!receipt.contractAddress) throw new Error('deployment made no contract')
  return getAddress(receipt.contractAddress)
}

export function deployStablecoin(anvil: Anvil, spec: TokenSpec): Promise<Address> {
  return deploy(anvil, stablecoinAbi, stablecoin.bytecode, [spec.name, spec.symbol, spec.decimals])
}

export function deployRouter(anvil: Anvil): Promise<Address> {
  return deploy(anvil, routerAbi, router.bytecode, [])
}

async function send(
  anvil: Anvil,
  from: Address,
  to: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
  opts: { gas?: bigint; wait?: boolean } = {},
): Promise<Hash> {
  const hash = await anvil.client.writeContract({
    address: to,
    abi,
    functionName,
    args,
    account: from,
    chain: anvil.client.chain,
    // A fixed gas skips estimation, which would refuse a transaction that reverts.
    ...(opts.gas ? { gas: opts.gas } : {}),
  })
  if (opts.wait !== false) await mined(anvil, hash)
  return hash
}

export function mint(anvil: Anvil, token: Address, from: Address, to: Address, amount: bigint) {
  return send(anvil, from, token, stablecoinAbi, 'mint', [to, amount])
}

/** transfer(to, amount) from `from`; with wait: false it returns once the node has it (no mining). */
export function transfer(
  anvil: Anvil,
  token: Address,
  from: Address,
  to: Address,
  amount: bigint,
  opts: { wait?: boolean } = {},
) {
  return send(anvil, from, token, stablecoinAbi, 'transfer', [to, amount], opts)
}

export function approve(anvil: Anvil, token: Address, owner: Address, spender: Address, amount: bigint) {
  return send(anvil, owner, token, stablecoinAbi, 'approve', [spender, amount])
}

/** The router moves `amount` from `payer` (who approved it) to `to` with transferFrom. */
export function routerPay(
  anvil: Anvil,
  routerAddress: Address,
  caller: Address,
  token: Address,
  payer: Address,
  to: Address,
  amount: bigint,
) {
  return send(anvil, caller, routerAddress, routerAbi, 'pay', [token, payer, to, amount])
}

/** A transfer of more than `from` holds: mined, reverted, no Transfer log. */
export function revertedTransfer(anvil: Anvil, token: Address, from: Address, to: Address, amount: bigint) {
  return send(anvil, from, token, stablecoinAbi, 'transfer', [to, amount], { gas: 200_000n })
}
