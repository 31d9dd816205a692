import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Compiles the test contracts with solc from npm against OpenZeppelin's sources in node_modules.
// The result is committed beside them (compiled.json) so tests deploy without compiling;
// contracts.test.ts recompiles and checks the two agree. Run `npx tsx tests/support/evm/compile.ts`
// after changing a contract.

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))

export const CONTRACTS = ['TestStablecoin', 'TestRouter'] as const
export type ContractName = (typeof CONTRACTS)[number]

export interface CompiledContract {
  abi: unknown[]
  bytecode: `0x${string}`
}

export interface Compiled {
  solc: string
  contracts: Record<ContractName, CompiledContract>
}

export const COMPILED_PATH = join(here, 'compiled.json')

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

export function compileContracts(): Compiled {
  const solc = require('solc') as {
    version(): string
    compile(input: string, opts: { import(path: string): { contents: string } | { error: string } }): string
  }
  const sources = Object.fromEntries(
    CONTRACTS.map((name) => [
      `${name}.sol`,
      { content: readFileSync(join(here, 'contracts', `${name}.sol`), 'utf8') },
    ]),
  )
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun: what Anvil runs by default and every chain in the table supports.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const findImport = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contracts = {} as Record<ContractName, CompiledContract>
  for (const name of CONTRACTS) {
    const c = output.contracts[`${name}.sol`]?.[name]
    if (!c) throw new Error(`solc produced no ${name}`)
    contracts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  }
  return { solc: solc.version(), contracts }
}

export function readCompiled(): Compiled {
  return JSON.parse(readFileSync(COMPILED_PATH, 'utf8')) as Compiled
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(COMPILED_PATH, `${JSON.stringify(compileContracts(), null, 2)}\n`)
  console.log(`wrote ${COMPILED_PATH}`)
}
