import type { Standin } from './standin'

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
