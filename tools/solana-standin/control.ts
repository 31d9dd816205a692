import { generateKeyPairSigner } from '@solana/kit'
import type { Standin } from './standin'
import { transferInstructions } from './transfers'

// The stand-in's control calls (not Solana's): tests, the demo and the pay script drive the cluster with them.

export async function control(
  standin: Standin,
  what: string,
  input: Record<string, unknown>,
  setFault: (f: { down?: boolean; delayMs?: number }) => void,
  requests: () => number,
): Promise<unknown> {
  switch (what) {
    case 'advance':
      standin.advance(Number(input.slots ?? 1))
      break
    case 'warp':
      standin.warp(Number(input.ms ?? 0))
      break
    case 'mint':
      return {
        signature: await standin.mintTo(
          String(input.mint),
          String(input.owner),
          BigInt(String(input.amount)),
        ),
      }
    case 'airdrop':
      standin.airdrop(
        String(input.owner),
        input.lamports === undefined ? undefined : BigInt(String(input.lamports)),
      )
      break
    case 'pay':
      return { signature: await pay(standin, input) }
    case 'drop':
      standin.drop(String(input.signature))
      break
    case 'fault':
      setFault({ down: input.down as boolean | undefined, delayMs: input.delayMs as number | undefined })
      break
    case 'info':
      break
    default:
      throw new Error(`unknown control ${what}`)
  }
  return {
    mints: standin.mints,
    slots: {
      processed: standin.slot('processed'),
      confirmed: standin.slot('confirmed'),
      finalized: standin.slot('finalized'),
    },
    requests: requests(),
  }
}

const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/

/**
 * A buyer's payment, as `npm run pay` asks for it: a fresh wallet (SOL for the fee, the tokens
 * minted to it) sends `amount` (decimal text) of USDT or USDC to `to` with transferChecked and the
 * Solana Pay reference, through the real token program; then the slots run on until it is final.
 */
async function pay(standin: Standin, input: Record<string, unknown>): Promise<string> {
  const token = String(input.token ?? 'USDT').toUpperCase()
  const mint = token === 'USDC' ? standin.mints.usdc : token === 'USDT' ? standin.mints.usdt : null
  const amount = String(input.amount ?? '')
  if (!mint || !AMOUNT.test(amount)) throw new Error('pay needs {to, amount: "12.5", token: "USDT" | "USDC"}')
  const [whole = '0', frac = ''] = amount.split('.')
  const units = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'))
  const buyer = await generateKeyPairSigner()
  standin.airdrop(buyer.address)
  await standin.mintTo(mint, buyer.address, units)
  const to = String(input.to)
  const sent = await standin.run(
    buyer,
    await transferInstructions({ payer: buyer, to, mint, amount: units, reference: to }),
  )
  if (sent.err) throw new Error(`the transfer failed: ${JSON.stringify(sent.err)}`)
  standin.advance(Number(input.finalize ?? 40))
  return sent.signature
}
