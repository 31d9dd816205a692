import { RpcError } from './errors'
import { uiAmount } from './parse-instructions'
import type { Commitment, Standin, StandinAccount } from './standin'

// Accounts as Solana's RPC serves them (getMultipleAccounts), and its `minContextSlot` rule.

/** Solana's answer to a request whose `minContextSlot` the node has not reached at that commitment. */
export function checkMinContextSlot(standin: Standin, config: unknown, c: Commitment): void {
  const min = (config as { minContextSlot?: unknown } | undefined)?.minContextSlot
  if (min === undefined) return
  if (typeof min !== 'number' || !Number.isInteger(min) || min < 0)
    throw new RpcError(-32602, 'Invalid params: minContextSlot')
  const at = standin.slot(c)
  if (at < min) throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: at })
}

/**
 * An account as getAccountInfo / getMultipleAccounts give it: an SPL token account in jsonParsed
 * encoding is parsed (mint, owner, token amount, state), anything else is base64.
 */
export function accountJson(acc: StandinAccount | null, encoding: string) {
  if (!acc) return null
  const base = {
    executable: acc.executable,
    lamports: Number(acc.lamports),
    owner: acc.owner,
    rentEpoch: 18446744073709552000,
    space: acc.data.length,
  }
  if (encoding === 'jsonParsed' && acc.token) {
    const t = acc.token
    const ui = uiAmount(t.amount, t.decimals)
    return {
      ...base,
      data: {
        parsed: {
          info: {
            isNative: false,
            mint: t.mint,
            owner: t.owner,
            state: t.state,
            tokenAmount: { ...ui, uiAmount: t.amount === 0n ? 0 : ui.uiAmount },
          },
          type: 'account',
        },
        program: 'spl-token',
        space: acc.data.length,
      },
    }
  }
  return { ...base, data: [Buffer.from(acc.data).toString('base64'), 'base64'] }
}
