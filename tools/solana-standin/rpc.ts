import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getBase58Encoder, getBase64Encoder } from '@solana/kit'
import { accountJson, checkMinContextSlot } from './accounts'
import { control } from './control'
import { parseInstruction, uiAmount } from './parse-instructions'
import {
  type Commitment,
  type RecordedTransaction,
  RpcError,
  type Standin,
  type TokenBalance,
} from './standin'

// Solana's JSON-RPC 2.0 over HTTP in front of the stand-in cluster, answering in the shapes the
// Solana documentation gives for each method (https://solana.com/docs/rpc/http): getSlot,
// getBlockTime, getLatestBlockhash, getSignaturesForAddress, getTransaction (json and jsonParsed),
// getMultipleAccounts (jsonParsed SPL token accounts, base64 otherwise), getSignatureStatuses,
// sendTransaction, getBalance, getHealth, getVersion, getGenesisHash, requestAirdrop; batches as
// arrays. `minContextSlot` is honoured where Solana takes it (a node below it answers -32016). Each front may be set down (HTTP 503) or slow, so a test can
// make a provider fail; several fronts may serve one cluster (several providers of one chain).
//
// Control (not Solana's, for tests, the demo and the pay script), POST /control/<what> with JSON:
//   advance {slots}        make empty slots (the commitments move with them)
//   warp {ms}              move the cluster's clock forward
//   mint {mint, owner, amount}   mint test tokens into owner's associated token account
//   airdrop {owner, lamports}
//   fault {down: bool, delayMs}  this front answers 503 / answers late
//   drop {signature}       take a confirmed, not finalized transaction back out of the cluster
//   info                   mints, slots, the number of requests this front answered

export const GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d'

export interface RpcFront {
  url: string
  port: number
  /** Requests (batch items count one each) answered since start. */
  requests(): number
  setFault(f: { down?: boolean; delayMs?: number }): void
  close(): Promise<void>
}

interface JsonRpcRequest {
  jsonrpc?: string
  id?: unknown
  method?: unknown
  params?: unknown
}

const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized'])

function commitmentOf(config: unknown, fallback: Commitment = 'finalized'): Commitment {
  const c = (config as { commitment?: unknown } | undefined)?.commitment
  if (c === undefined) return fallback
  if (typeof c !== 'string' || !COMMITMENTS.has(c))
    throw new RpcError(-32602, `Invalid params: unknown commitment ${String(c)}`)
  return c as Commitment
}

function statusOf(standin: Standin, slot: number): 'processed' | 'confirmed' | 'finalized' {
  if (slot <= standin.slot('finalized')) return 'finalized'
  if (slot <= standin.slot('confirmed')) return 'confirmed'
  return 'processed'
}

function balanceJson(b: TokenBalance) {
  const ui = uiAmount(b.amount, b.decimals)
  return {
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner,
    programId: b.programId,
    uiTokenAmount: { ...ui, uiAmount: b.amount === 0n ? null : ui.uiAmount },
  }
}

export function transactionJson(tx: RecordedTransaction, encoding: string) {
  const parsed = encoding === 'jsonParsed'
  const keyIndex = new Map(tx.accountKeys.map((k, i) => [k.pubkey, i]))
  const compiled = (
    ix: { programId: string; accounts: string[]; data: Uint8Array },
    stackHeight: number | null,
  ) => ({
    accounts: ix.accounts.map((a) => keyIndex.get(a) ?? 0),
    data: encodeBase58(ix.data),
    programIdIndex: keyIndex.get(ix.programId) ?? 0,
    stackHeight,
  })
  return {
    blockTime: tx.blockTime,
    meta: {
      computeUnitsConsumed: tx.computeUnitsConsumed,
      err: tx.err,
      fee: tx.fee,
      innerInstructions: tx.innerInstructions.map((inner) => ({
        index: inner.index,
        instructions: inner.instructions.map((ix) =>
          parsed ? parseInstruction(ix, ix.stackHeight) : compiled(ix, ix.stackHeight),
        ),
      })),
      loadedAddresses: parsed ? undefined : { readonly: [], writable: [] },
      logMessages: tx.logMessages,
      postBalances: tx.postBalances,
      postTokenBalances: tx.postTokenBalances.map(balanceJson),
      preBalances: tx.preBalances,
      preTokenBalances: tx.preTokenBalances.map(balanceJson),
      rewards: [],
      status: tx.err === null ? { Ok: null } : { Err: tx.err },
    },
    slot: tx.slot,
    transaction: {
      message: {
        accountKeys: parsed
          ? tx.accountKeys.map((k) => ({
              pubkey: k.pubkey,
              signer: k.signer,
              source: 'transaction',
              writable: k.writable,
            }))
          : tx.accountKeys.map((k) => k.pubkey),
        addressTableLookups: [],
        ...(parsed ? {} : { header: headerOf(tx) }),
        instructions: tx.instructions.map((ix) => (parsed ? parseInstruction(ix, null) : compiled(ix, null))),
        recentBlockhash: tx.recentBlockhash,
      },
      signatures: [tx.signature],
    },
    version: 0,
  }
}

function headerOf(tx: RecordedTransaction) {
  const signers = tx.accountKeys.filter((k) => k.signer)
  return {
    numRequiredSignatures: signers.length,
    numReadonlySignedAccounts: signers.filter((k) => !k.writable).length,
    numReadonlyUnsignedAccounts: tx.accountKeys.filter((k) => !k.signer && !k.writable).length,
  }
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
function encodeBase58(bytes: Uint8Array): string {
  let n = 0n
  for (const b of bytes) n = n * 256n + BigInt(b)
  let out = ''
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out
    n /= 58n
  }
  for (const b of bytes) {
    if (b !== 0) break
    out = `1${out}`
  }
  return out
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/

function paramString(params: unknown[], i: number, what: string): string {
  const v = params[i]
  if (typeof v !== 'string' || !BASE58.test(v))
    throw new RpcError(-32602, `Invalid param: ${what} is not base58`)
  return v
}

/** One JSON-RPC call against the cluster. */
export function call(standin: Standin, method: string, params: unknown[]): unknown {
  switch (method) {
    case 'getHealth':
      return 'ok'
    case 'getVersion':
      return { 'feature-set': 3294202862, 'solana-core': '2.2.0' }
    case 'getGenesisHash':
      return GENESIS_HASH
    case 'getSlot':
      return standin.slot(commitmentOf(params[0]))
    case 'getBlockHeight':
      return standin.slot(commitmentOf(params[0]))
    case 'getBlockTime': {
      const slot = params[0]
      if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0)
        throw new RpcError(-32602, 'Invalid param: slot')
      // A validator answers a rooted slot from its ledger and a newer one from the bank that made it
      // (a confirmed slot's time is the chain's clock for refunds): any slot produced has a time.
      const t = standin.slotTime(slot)
      if (t === null) throw new RpcError(-32004, `Block not available for slot ${slot}`)
      return Math.floor(t / 1000)
    }
    case 'getLatestBlockhash': {
      const c = commitmentOf(params[0])
      const { blockhash, lastValidBlockHeight } = standin.blockhash()
      return {
        context: { apiVersion: '2.2.0', slot: standin.slot(c) },
        value: { blockhash, lastValidBlockHeight },
      }
    }
    case 'getBalance': {
      const who = paramString(params, 0, 'address')
      const c = commitmentOf(params[1])
      return {
        context: { apiVersion: '2.2.0', slot: standin.slot(c) },
        value: Number(standin.svm.getBalance(who as never) ?? 0n),
      }
    }
    case 'getMultipleAccounts': {
      const keys = params[0]
      if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string' || !BASE58.test(k)))
        throw new RpcError(-32602, 'Invalid param: pubkeys')
      if (keys.length > 100) throw new RpcError(-32602, 'Too many inputs provided; max 100')
      const config = (params[1] ?? {}) as { encoding?: unknown; commitment?: unknown }
      const c = commitmentOf(config, 'finalized')
      checkMinContextSlot(standin, config, c)
      const encoding = config.encoding ?? 'base64'
      if (encoding !== 'base64' && encoding !== 'jsonParsed')
        throw new RpcError(-32602, `Invalid params: encoding ${String(encoding)} is not served here`)
      return {
        context: { apiVersion: '2.2.0', slot: standin.slot(c) },
        value: (keys as string[]).map((k) => accountJson(standin.account(k, c), encoding)),
      }
    }
    case 'getSignaturesForAddress': {
      const who = paramString(params, 0, 'address')
      const config = (params[1] ?? {}) as {
        limit?: unknown
        before?: unknown
        until?: unknown
        commitment?: unknown
      }
      const c = commitmentOf(config, 'finalized')
      if (c === 'processed')
        throw new RpcError(-32602, 'Method does not support commitment below `confirmed`')
      checkMinContextSlot(standin, config, c)
      const limit = config.limit === undefined ? 1000 : config.limit
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new RpcError(-32602, 'Invalid limit; max 1000')
      }
      const top = standin.slot(c)
      let list = standin.signaturesFor(who).filter((t) => t.slot <= top)
      if (typeof config.before === 'string') {
        const at = list.findIndex((t) => t.signature === config.before)
        list = at < 0 ? [] : list.slice(at + 1)
      }
      if (typeof config.until === 'string') {
        const at = list.findIndex((t) => t.signature === config.until)
        if (at >= 0) list = list.slice(0, at)
      }
      return list.slice(0, limit).map((t) => ({
        blockTime: t.blockTime,
        confirmationStatus: statusOf(standin, t.slot),
        err: t.err,
        memo: null,
        signature: t.signature,
        slot: t.slot,
      }))
    }
    case 'getTransaction': {
      const sig = paramString(params, 0, 'signature')
      const config = (typeof params[1] === 'string' ? { encoding: params[1] } : (params[1] ?? {})) as {
        encoding?: string
        commitment?: unknown
        maxSupportedTransactionVersion?: unknown
      }
      const c = commitmentOf(config, 'finalized')
      if (c === 'processed')
        throw new RpcError(-32602, 'Method does not support commitment below `confirmed`')
      const tx = standin.transaction(sig)
      if (!tx || tx.slot > standin.slot(c)) return null
      if (config.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          -32015,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        )
      }
      return transactionJson(tx, config.encoding ?? 'json')
    }
    case 'getSignatureStatuses': {
      const sigs = params[0]
      if (!Array.isArray(sigs) || sigs.length > 256) throw new RpcError(-32602, 'Invalid param: signatures')
      return {
        context: { apiVersion: '2.2.0', slot: standin.slot('processed') },
        value: sigs.map((s) => {
          const tx = typeof s === 'string' ? standin.transaction(s) : undefined
          if (!tx) return null
          const status = statusOf(standin, tx.slot)
          return {
            confirmationStatus: status,
            confirmations: status === 'finalized' ? null : standin.slot('processed') - tx.slot,
            err: tx.err,
            slot: tx.slot,
            status: tx.err === null ? { Ok: null } : { Err: tx.err },
          }
        }),
      }
    }
    case 'sendTransaction': {
      const wire = params[0]
      const config = (params[1] ?? {}) as { encoding?: string }
      if (typeof wire !== 'string') throw new RpcError(-32602, 'Invalid param: transaction')
      const bytes =
        config.encoding === 'base64' ? getBase64Encoder().encode(wire) : getBase58Encoder().encode(wire)
      return standin.send(new Uint8Array(bytes)).signature
    }
    case 'requestAirdrop': {
      const who = paramString(params, 0, 'address')
      const lamports = params[1]
      if (typeof lamports !== 'number' || lamports <= 0) throw new RpcError(-32602, 'Invalid param: lamports')
      standin.airdrop(who, BigInt(lamports))
      return encodeBase58(crypto.getRandomValues(new Uint8Array(64)))
    }
    default:
      throw new RpcError(-32601, 'Method not found')
  }
}

function answer(standin: Standin, req: JsonRpcRequest): unknown {
  const id = req.id ?? null
  if (req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id }
  }
  try {
    const params = req.params === undefined ? [] : req.params
    if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params: expected an array')
    return { jsonrpc: '2.0', result: call(standin, req.method, params), id }
  } catch (err) {
    if (err instanceof RpcError)
      return {
        jsonrpc: '2.0',
        error: {
          code: err.code,
          message: err.message,
          ...(err.data === undefined ? {} : { data: err.data }),
        },
        id,
      }
    return {
      jsonrpc: '2.0',
      error: { code: -32603, message: `Internal error: ${(err as Error).message}` },
      id,
    }
  }
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function send(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(text)
}

/** Serves the cluster's JSON-RPC on `port` (0: any free port) of 127.0.0.1. */
export async function serveRpc(standin: Standin, port = 0): Promise<RpcFront> {
  let requests = 0
  let fault: { down: boolean; delayMs: number } = { down: false, delayMs: 0 }
  const server: Server = createServer(async (req, res) => {
    try {
      const text = await body(req)
      const path = (req.url ?? '/').split('?')[0] ?? '/'
      if (path.startsWith('/control/')) {
        const input = text ? (JSON.parse(text) as Record<string, unknown>) : {}
        send(
          res,
          200,
          await control(
            standin,
            path.slice('/control/'.length),
            input,
            (f) => {
              fault = { down: f.down ?? fault.down, delayMs: f.delayMs ?? fault.delayMs }
            },
            () => requests,
          ),
        )
        return
      }
      if (req.method !== 'POST') return send(res, 405, { error: 'POST JSON-RPC here' })
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs))
      if (fault.down)
        return send(res, 503, {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Service unavailable' },
          id: null,
        })
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return send(res, 200, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null })
      }
      if (Array.isArray(parsed)) {
        requests += parsed.length
        return send(
          res,
          200,
          parsed.map((r) => answer(standin, r as JsonRpcRequest)),
        )
      }
      requests += 1
      send(res, 200, answer(standin, parsed as JsonRpcRequest))
    } catch (err) {
      send(res, 400, { error: (err as Error).message })
    }
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const actual = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    requests: () => requests,
    setFault(f) {
      fault = { down: f.down ?? fault.down, delayMs: f.delayMs ?? fault.delayMs }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}
