// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { ReconcilePanel } from './reconcile-panel'

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/orders')
})
afterAll(() => rpc.close())

const TRON_ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'
const EVM_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

const row = (o: Record<string, unknown>) => ({
  network: 'tron',
  address: TRON_ADDRESS,
  token: 'USDT',
  decimals: 6,
  chain: null,
  chain_count: null,
  ledger: '12.500000',
  ledger_count: 1,
  credited: '12.500000',
  unmatched: '0.000000',
  ties: true,
  ...o,
})
const answer = (network: string, enabled: string[], rows: object[], extra: object = {}) => ({
  success: true,
  network,
  enabled_chains: enabled,
  from: '2026-10-26T00:00:00.000Z',
  to: '2026-11-26T00:00:00.000Z',
  ties: true,
  order_mismatches: [],
  chain_errors: [],
  rows,
  ...extra,
})

beforeEach(() => {
  rpc.calls.length = 0
})

describe('admin reconciliation panel', () => {
  it('a TRON-only shop sees no network choice and asks as before', async () => {
    rpc.reply('secure_reconcile', answer('tron', ['tron'], [row({})]))
    const { settled } = renderWithProviders(<ReconcilePanel />, { admin: true })
    expect(await screen.findByText('12.50 USDT in 1 transfer(s)')).toBeTruthy()
    expect(screen.queryByLabelText('Network')).toBeNull()
    expect(rpc.callsTo('secure_reconcile')[0]).not.toHaveProperty('p_chain')
    await settled()
  })

  it('with EVM chains: a network choice, 18-decimal amounts to the last digit, and "narrow the period"', async () => {
    rpc.reply('secure_reconcile', answer('tron', ['tron', 'bsc'], [row({})]))
    const { settled } = renderWithProviders(<ReconcilePanel />, { admin: true, locale: 'ru' })
    const network = (await screen.findByLabelText('Сеть')) as HTMLSelectElement
    expect([...network.options].map((o) => o.textContent)).toEqual(['TRON', 'BNB Smart Chain'])

    const bsc = row({
      network: 'bsc',
      address: EVM_ADDRESS,
      decimals: 18,
      ledger: '12.500000000000000001',
      credited: '12.500000000000000001',
      unmatched: '0.000000000000000000',
    })
    rpc.reply('secure_reconcile', answer('bsc', ['tron', 'bsc'], [bsc]))
    fireEvent.change(network, { target: { value: 'bsc' } })
    expect(await screen.findByText('12,500000000000000001 USDT, переводов: 1')).toBeTruthy()
    expect(rpc.callsTo('secure_reconcile').at(-1)).toMatchObject({ p_chain: 'bsc' })

    // The chain is asked about the address: the period is too long for one check.
    rpc.reply(
      'secure_reconcile',
      answer('bsc', ['tron', 'bsc'], [bsc], {
        ties: false,
        chain_errors: [{ address: EVM_ADDRESS, message: 'narrow the period', narrow: true }],
      }),
    )
    fireEvent.click(screen.getByRole('button', { name: `Сверить ${EVM_ADDRESS} с блокчейном` }))
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Этот период слишком длинный, чтобы сверить его с BNB Smart Chain за один раз.',
    )
    expect(rpc.callsTo('secure_reconcile').at(-1)).toMatchObject({
      p_chain: 'bsc',
      p_chain_address: EVM_ADDRESS,
    })

    // A shorter period: the chain answers; a token only the chain holds shows up too.
    rpc.reply('secure_reconcile', answer('bsc', ['tron', 'bsc'], [bsc]))
    fireEvent.change(screen.getByLabelText('С'), { target: { value: '2026-11-25' } })
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    await waitFor(() =>
      expect(rpc.callsTo('secure_reconcile').at(-1)).toMatchObject({ p_from: '2026-11-25', p_chain: 'bsc' }),
    )
    await screen.findByText('12,500000000000000001 USDT, переводов: 1')
    rpc.reply(
      'secure_reconcile',
      answer(
        'bsc',
        ['tron', 'bsc'],
        [
          row({
            ...bsc,
            token: 'USDC',
            chain: '7.000000000000000000',
            chain_count: 1,
            ledger: '0.000000000000000000',
            ledger_count: 0,
            credited: '0.000000000000000000',
            ties: false,
          }),
          { ...bsc, chain: '12.500000000000000001', chain_count: 1 },
        ],
        { ties: false },
      ),
    )
    fireEvent.click(await screen.findByRole('button', { name: `Сверить ${EVM_ADDRESS} с блокчейном` }))
    expect(await screen.findByText('в блокчейне 7,00 USDC — расходится')).toBeTruthy()
    expect(screen.getByText('в блокчейне 12,500000000000000001 USDT — сходится')).toBeTruthy()
    await settled()
  })

  it('lists the orders whose recorded amount differs from the ledger', async () => {
    const id = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890'
    rpc.reply(
      'secure_reconcile',
      answer('tron', ['tron'], [row({ ties: false })], {
        ties: false,
        order_mismatches: [{ order_id: id, token: 'USDT', recorded: '12.500000', credited: '10.000000' }],
      }),
    )
    const { settled } = renderWithProviders(<ReconcilePanel />, { admin: true })
    const list = await screen.findByRole('region', {
      name: '1 order records another amount than the ledger credits',
    })
    expect(list.textContent).toContain(id)
    expect(list.textContent).toMatch(/recorded 12\.50\s+USDT, the ledger credits 10\.00\s+USDT/)
    await settled()
  })
})
