import { describe, expect, it } from 'vitest'
import { endpointOf, parseEvmEnv } from './evm-env'

const chain = (source: Record<string, string>, key: string) => {
  const { chains, errors } = parseEvmEnv(source)
  return { chain: chains.find((c) => c.spec.key === key), errors }
}

describe('EVM chain settings', () => {
  it('leaves every chain off by default, with its table and default depth', () => {
    const { chains, errors } = parseEvmEnv({})
    expect(errors).toEqual([])
    expect(chains.map((c) => [c.spec.key, c.enabled, c.confirmations])).toEqual([
      ['ethereum', false, 12],
      ['bsc', false, 15],
      ['polygon', false, 64],
      ['arbitrum', false, 40],
      ['base', false, 10],
    ])
    const bsc = chains.find((c) => c.spec.key === 'bsc')
    expect(bsc?.tokens.map((t) => [t.symbol, t.decimals])).toEqual([
      ['USDT', 18],
      ['USDC', 18],
    ])
  })

  it('reads providers in order, a key per endpoint, limits and depth', () => {
    const { chain: bsc, errors } = chain(
      {
        EVM_BSC_ENABLED: 'true',
        EVM_BSC_CONFIRMATIONS: '20',
        EVM_BSC_PROVIDER_1_URL: 'https://rpc.example/v1/{key}',
        EVM_BSC_PROVIDER_1_KEYS: 'aaa, bbb',
        EVM_BSC_PROVIDER_1_PER_DAY: '100000',
        EVM_BSC_PROVIDER_1_MAX_BLOCKS: '10',
        EVM_BSC_PROVIDER_2_URL: 'https://backup.example/rpc',
        EVM_BSC_PROVIDER_2_NAME: 'backup',
      },
      'bsc',
    )
    expect(errors).toEqual([])
    expect(bsc?.enabled).toBe(true)
    expect(bsc?.confirmations).toBe(20)
    expect(bsc?.providers).toEqual([
      {
        name: 'rpc.example',
        url: 'https://rpc.example/v1/{key}',
        keys: ['aaa', 'bbb'],
        rps: 10,
        perDay: 100_000,
        maxBlocks: 10,
      },
      { name: 'backup', url: 'https://backup.example/rpc', keys: [], rps: 10, perDay: null, maxBlocks: 500 },
    ])
  })

  it('calls an unnamed provider by its host, numbered when the host repeats', () => {
    const { chain: bsc, errors } = chain(
      {
        EVM_BSC_ENABLED: 'true',
        EVM_BSC_PROVIDER_1_URL: 'https://rpc.example/a',
        EVM_BSC_PROVIDER_2_URL: 'https://rpc.example/b',
        EVM_BSC_PROVIDER_3_URL: 'https://other.example/',
      },
      'bsc',
    )
    expect(errors).toEqual([])
    expect(bsc?.providers.map((p) => p.name)).toEqual(['rpc.example', 'rpc.example #2', 'other.example'])
  })

  it('puts each key where the URL says', () => {
    const provider = { name: 'p', url: 'https://rpc.example/v1/{key}', keys: ['a b'], rps: 1, perDay: null }
    expect(endpointOf(provider, 'a b')).toBe('https://rpc.example/v1/a%20b')
    expect(endpointOf({ ...provider, url: 'https://rpc.example/x' }, null)).toBe('https://rpc.example/x')
  })

  it('takes a token table override, checksummed', () => {
    const { chain: base, errors } = chain(
      {
        EVM_BASE_TOKENS: JSON.stringify([
          { symbol: 'USDC', contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 6 },
        ]),
      },
      'base',
    )
    expect(errors).toEqual([])
    expect(base?.tokens).toEqual([
      { symbol: 'USDC', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 },
    ])
  })

  it('names each bad variable', () => {
    const { errors } = parseEvmEnv({
      EVM_BSC_ENABLED: 'yes',
      EVM_BASE_ENABLED: 'true',
      EVM_POLYGON_PROVIDER_2_URL: 'https://a.example',
      EVM_ETHEREUM_PROVIDER_1_URL: 'https://a.example/rpc',
      EVM_ETHEREUM_PROVIDER_1_KEYS: 'k',
      EVM_ARBITRUM_TOKENS: '[{"symbol":"USDT","contract":"0x12","decimals":6}]',
      EVM_ETHEREUM_TOKENS: JSON.stringify([
        { symbol: 'USDT', contract: '0x5fbdb2315678afecb367f032d93f642f64180aa3', decimals: 18 },
      ]),
      EVM_SOLANA_ENABLED: 'true',
      EVM_BSC_COLOUR: 'red',
    })
    expect(errors).toEqual(
      expect.arrayContaining([
        '  EVM_BSC_ENABLED: must be true or false (got "yes")',
        '  EVM_BASE_PROVIDER_1_URL: Base is enabled but has no JSON-RPC provider',
        '  EVM_POLYGON_PROVIDER_1_URL: missing (providers are numbered 1, 2, … without gaps)',
        '  EVM_ETHEREUM_PROVIDER_1_URL: put {key} where the key goes, since EVM_ETHEREUM_PROVIDER_1_KEYS is set',
        expect.stringMatching(/^ {2}EVM_ARBITRUM_TOKENS: contract is not an address/),
        expect.stringMatching(/^ {2}EVM_SOLANA_ENABLED: unknown chain/),
        expect.stringMatching(/^ {2}EVM_BSC_COLOUR: unknown setting/),
        '  EVM_ETHEREUM_TOKENS: USDT on Ethereum has 6 decimals, not 18',
      ]),
    )
    expect(errors).toHaveLength(8)
  })
})
