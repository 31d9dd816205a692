import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { defaultSiteContent } from '../../shared/site-content-defaults'
import { formatTokenUnits } from '../../shared/token-amount'
import { orders, payments } from '../db/schema'
import { renderOrderEmail } from '../delivery/order-email'
import { orderPaymentOf } from './order-payment'

// How a paid order's payment is named: the chain and token of the transaction that paid it (from
// the ledger), with that chain's explorer link, in the e-mail as on every screen.

describe.each(engines)('the paying transaction of an order on %s', (engine) => {
  it('an order picked on BNB Smart Chain and paid in USDC on Base names Base, USDC and BaseScan', async () => {
    const database = await createTestDatabase(engine)
    try {
      const id = randomUUID()
      const tx = `0x${'ab'.repeat(32)}`
      const address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
      await database.db.insert(orders).values({
        id,
        email: 'buyer@example.com',
        items: [],
        totalCents: 2500,
        walletAddress: address,
        status: 'paid',
        windowEndsAt: new Date(),
        graceUntil: new Date(),
        chain: 'bsc',
        token: 'USDT',
        txHash: tx,
      })
      await database.db.insert(payments).values({
        chain: 'base',
        orderId: id,
        status: 'credited',
        txId: tx,
        token: 'USDC',
        amountUnits: 25_000_000n,
        fromAddress: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
        toAddress: address,
        blockTimestamp: Date.now(),
      })
      expect(await orderPaymentOf(database.db, { id, chain: 'bsc', token: 'USDT', txHash: tx })).toEqual({
        chain: 'bsc',
        token: 'USDT',
        txHash: tx,
        txChain: 'base',
        txToken: 'USDC',
        txUrl: `https://basescan.org/tx/${tx}`,
      })
      const unpaid = await orderPaymentOf(database.db, { id, chain: 'bsc', token: 'USDT', txHash: null })
      expect(unpaid).toMatchObject({ txChain: null, txUrl: null })
    } finally {
      await database.close()
    }
  })
})

describe('the order e-mail', () => {
  const base = {
    content: defaultSiteContent,
    orderId: randomUUID(),
    items: [{ name: 'SDK', quantity: 1, keys: ['KEY-1'], downloadUrl: null }],
    totalPaidCents: 2500,
    txHash: `0x${'ab'.repeat(32)}`,
    dashboardUrl: 'https://shop.example.com/dashboard/token',
    payment: { token: 'USDC', network: 'Base', txUrl: `https://basescan.org/tx/0x${'ab'.repeat(32)}` },
  }

  it('names the token and network that paid and links the transaction, in the buyer’s language', () => {
    const en = renderOrderEmail({ ...base, locale: 'en' })
    expect(en.text).toContain('Paid with USDC on Base')
    expect(en.text).toContain(`Transaction: ${base.payment.txUrl}`)
    expect(en.html).toContain(`href="${base.payment.txUrl}"`)
    const ru = renderOrderEmail({ ...base, locale: 'ru' })
    expect(ru.text).toContain('Оплачено в USDC в сети Base')
  })

  it('amounts in a token’s own decimals, trimmed to cents', () => {
    expect(formatTokenUnits(25_010_000_000_000_000_000n, 18)).toBe('25.01')
    expect(formatTokenUnits(348_320_000n, 6)).toBe('348.32')
    expect(formatTokenUnits(123_456n, 6)).toBe('0.123456')
  })
})
