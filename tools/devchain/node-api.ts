import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { HttpError, isObject, NodeError, readBody } from './http-io'
import { GENESIS_BLOCK, type SimChain } from './sim-chain'

// The full node (/wallet/*) and solidity node (/walletsolidity/*) methods the shop calls, with
// java-tron's answers and refusals, and a face's fork (the same blocks under other ids).

// java-tron's getblockbylimitnext serves at most this many blocks per call.
const BLOCK_LIMIT = 100

const HEX_DECODER_ERROR =
  'class org.bouncycastle.util.encoders.DecoderException : exception decoding Hex string: invalid characters encountered in Hex string'
const JSON_SYNTAX_ERROR = 'class com.alibaba.fastjson.JSONException : syntax error'

export const NODE_METHODS = new Set([
  'getnowblock',
  'getblock',
  'getblockbynum',
  'getblockbylimitnext',
  'gettransactioninfobyblocknum',
  'gettransactioninfobyid',
  'gettransactionbyid',
  'getnodeinfo',
])

/** An int64 request field as java-tron reads it: a JSON number or a decimal string; absent is 0. */
function longField(body: Record<string, unknown>, name: string): number {
  const value = body[name]
  if (value === undefined || value === null) return 0
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return Number(value)
  throw new NodeError(`class java.lang.NumberFormatException : For input string: "${String(value)}"`)
}

/** A node request's parameters: the POST JSON body (empty allowed) or the GET query string. */
export async function nodeParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams)
  if (req.method !== 'POST') return params
  const text = await readBody(req)
  if (text.trim() === '') return params
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new NodeError(JSON_SYNTAX_ERROR)
  }
  if (!isObject(body)) throw new NodeError(JSON_SYNTAX_ERROR)
  return { ...params, ...body }
}

function nodeInfo(chain: SimChain) {
  const head = chain.getBlock(chain.headBlock())
  const solid = chain.getBlock(chain.solidBlock())
  return {
    activeConnectCount: 30,
    beginSyncNum: GENESIS_BLOCK,
    block: `Num:${head?.number},ID:${head?.id}`,
    configNodeInfo: { codeVersion: '4.8.0', versionNum: '19360' },
    currentConnectCount: 30,
    machineInfo: { cpuCount: 8, javaVersion: '1.8.0_442', osName: 'Linux amd64' },
    passiveConnectCount: 0,
    peerList: [],
    solidityBlock: `Num:${solid?.number},ID:${solid?.id}`,
    totalFlow: 0,
  }
}

export function nodeAnswer(
  chain: SimChain,
  method: string,
  solidity: boolean,
  params: Record<string, unknown>,
): unknown {
  const visibleHead = solidity ? chain.solidBlock() : chain.headBlock()
  const block = (n: number) => chain.getBlock(n, solidity)
  switch (method) {
    case 'getnowblock': {
      const latest = block(visibleHead)
      return latest ? chain.blockBody(latest) : {}
    }
    case 'getblock': {
      const detail = params.detail === true || params.detail === 'true'
      const idOrNum = params.id_or_num
      let found = block(visibleHead)
      if (typeof idOrNum === 'number' || (typeof idOrNum === 'string' && idOrNum !== '')) {
        const text = String(idOrNum)
        if (/^\d{1,16}$/.test(text)) found = block(Number(text))
        else if (/^[0-9a-fA-F]{64}$/.test(text)) found = chain.getBlockById(text, solidity)
        else
          throw new NodeError(
            `class java.lang.IllegalArgumentException : id_or_num must be a block number or id: ${text}`,
          )
      }
      return found ? chain.blockBody(found, detail) : {}
    }
    case 'getblockbynum': {
      const found = block(longField(params, 'num'))
      return found ? chain.blockBody(found) : {}
    }
    case 'getblockbylimitnext': {
      const start = longField(params, 'startNum')
      const end = longField(params, 'endNum')
      if (end <= start || end - start > BLOCK_LIMIT) return {}
      const blocks = []
      for (let n = Math.max(start, 0); n < end; n++) {
        const found = block(n)
        if (found) blocks.push(chain.blockBody(found))
      }
      return blocks.length > 0 ? { block: blocks } : {}
    }
    case 'gettransactioninfobyblocknum': {
      const num = longField(params, 'num')
      if (num <= 0) return {}
      const found = block(num)
      return found ? chain.blockInfos(found) : []
    }
    case 'gettransactioninfobyid':
    case 'gettransactionbyid': {
      const value = params.value ?? ''
      const txid = typeof value === 'string' ? value : ''
      if (!/^[0-9a-fA-F]*$/.test(txid) || txid.length % 2 !== 0) throw new NodeError(HEX_DECODER_ERROR)
      // The solidity node only knows transactions in solidified blocks.
      const tx = chain.getTransaction(txid, solidity)
      if (!tx) return {}
      return method === 'gettransactioninfobyid' ? chain.transactionInfo(tx) : chain.transactionBody(tx)
    }
    case 'getnodeinfo':
      return nodeInfo(chain)
    default:
      throw new HttpError(404, `Not Found: ${method}`)
  }
}

/** The id a forked face gives block n: the same number prefix, other hash bytes. */
function forkedId(chain: SimChain, n: number): string {
  const real = chain.getBlock(n)?.id ?? String(n)
  return (
    n.toString(16).padStart(16, '0') + createHash('sha256').update(`fork:${real}`).digest('hex').slice(0, 48)
  )
}

/** Block bodies in a node answer as a face forked at forkFrom serves them. */
export function forkBlocks(chain: SimChain, answer: unknown, forkFrom: number): unknown {
  const rewrite = (body: unknown): unknown => {
    if (!isObject(body) || typeof body.blockID !== 'string') return body
    const header = body.block_header as { raw_data: { number: number; parentHash: string } }
    const n = header.raw_data.number
    if (n < forkFrom) return body
    return {
      ...body,
      blockID: forkedId(chain, n),
      block_header: {
        ...header,
        raw_data: {
          ...header.raw_data,
          parentHash: n - 1 >= forkFrom ? forkedId(chain, n - 1) : header.raw_data.parentHash,
        },
      },
    }
  }
  if (isObject(answer) && Array.isArray(answer.block)) return { ...answer, block: answer.block.map(rewrite) }
  return rewrite(answer)
}
