import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressDecoder,
  getAddressEncoder,
  getBase64Encoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { errorJson, isRefusedBeforeExecution, RpcError } from './errors'
import { parseInstruction, type RawInstruction } from './parse-instructions'
import { decodeWire, innerOf, tokenBalancesOf } from './record'

// A Solana cluster for tests, the demo and benchmarks: LiteSVM runs the real SPL Token and
// Associated Token Account programs in-process, and this file keeps what a validator's RPC node
// keeps around them: slots with their times, the processed / confirmed / finalized commitments
// (apart; a test drives them), every transaction with its status metadata (token balances before
// and after, inner instructions, logs, the error of a failed one) and an index of signatures by
// account. rpc.ts answers Solana's JSON-RPC methods from it in their documented shapes.

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

const LAMPORTS_PER_SOL = 1_000_000_000n

export interface TokenBalance {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  amount: bigint
  decimals: number
}

export interface RecordedTransaction {
  signature: string
  slot: number
  /** Unix seconds. */
  blockTime: number
  accountKeys: { pubkey: string; signer: boolean; writable: boolean }[]
  recentBlockhash: string
  instructions: RawInstruction[]
  /** Per outer instruction that made calls: the calls, in order. */
  innerInstructions: { index: number; instructions: (RawInstruction & { stackHeight: number })[] }[]
  /** Solana's TransactionError JSON, null when it succeeded. */
  err: unknown
  fee: number
  computeUnitsConsumed: number
  logMessages: string[]
  preBalances: number[]
  postBalances: number[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
}

/** An account as the RPC serves it; `token` when it is an SPL token account. */
export interface StandinAccount {
  lamports: bigint
  owner: string
  executable: boolean
  data: Uint8Array
  token: {
    mint: string
    owner: string
    amount: bigint
    decimals: number
    state: 'initialized' | 'frozen'
  } | null
}

export interface StandinOptions {
  /** Slots between a slot and the confirmed commitment reaching it. Default 1. */
  confirmDepth?: number
  /** Slots between a slot and the finalized commitment reaching it (mainnet: ~32). Default 4. */
  finalizeDepth?: number
  /** Produce a slot every this many ms on its own (the demo); 0: only when told (tests). Default 0. */
  slotMs?: number
  /** First slot number. Default 1,000. */
  firstSlot?: number
}

export type Commitment = 'processed' | 'confirmed' | 'finalized'

export interface Standin {
  readonly svm: LiteSVM
  /** Mints test tokens (counterfeits with the same symbol too). */
  readonly mints: { usdt: string; usdc: string; counterfeitUsdt: string }
  readonly faucet: KeyPairSigner
  slot(commitment: Commitment): number
  /** Unix ms of a slot produced; null when it is not. */
  slotTime(slot: number): number | null
  /** Makes `n` empty slots (the commitments move with them). */
  advance(n?: number): void
  /** Moves the cluster's clock forward (a late payment's test); later slots are this much later. */
  warp(ms: number): void
  blockhash(): { blockhash: string; lastValidBlockHeight: number }
  /** Runs a signed transaction in a new slot; a failing one is recorded with its error, as a validator does with skipPreflight. */
  send(wire: Uint8Array): { signature: string; err: unknown }
  transaction(signature: string): RecordedTransaction | undefined
  /** An account as it was at the commitment's slot, null when it did not exist then. */
  account(key: string, commitment: Commitment): StandinAccount | null
  /**
   * Takes a confirmed, not finalized transaction back out of the cluster, as a fork that did not
   * keep its slot would: every account it wrote is as it was before it, and no listing, status or
   * lookup names it. Refused (an Error saying why) when its slot is finalized or a later
   * transaction wrote one of the same accounts (that one would have to go first).
   */
  drop(signature: string): void
  /** Newest first: the transactions naming an account, as getSignaturesForAddress lists them. */
  signaturesFor(account: string): RecordedTransaction[]
  /** Gives `owner` `amount` base units of `mint` in its associated token account (a real MintTo). */
  mintTo(mint: string, owner: string, amount: bigint): Promise<string>
  /** SOL for fees. */
  airdrop(owner: string, lamports?: bigint): void
  tokenBalance(owner: string, mint: string): Promise<bigint>
  /** Builds, signs and sends instructions paid by `payer` (tests, the demo's buyer). */
  run(
    payer: KeyPairSigner,
    instructions: Instruction[],
    signers?: KeyPairSigner[],
  ): Promise<{ signature: string; err: unknown }>
  stop(): void
}

export async function createStandin(opts: StandinOptions = {}): Promise<Standin> {
  const confirmDepth = opts.confirmDepth ?? 1
  const finalizeDepth = opts.finalizeDepth ?? 4
  // Any recent blockhash is accepted (a validator accepts one for 150 slots; LiteSVM only its latest):
  // the signature itself guards against a transaction sent twice (txs below).
  const svm = new LiteSVM().withTransactionHistory(0n).withBlockhashCheck(false)
  let tip = opts.firstSlot ?? 1000
  let offsetMs = 0
  const times = new Map<number, number>()
  // Transactions, their index by account, and (until final) what each overwrote, for a drop.
  const { txs, byAccount, before }: Omit<Kept, 'svm' | 'finalized'> = {
    txs: new Map(),
    byAccount: new Map(),
    before: new Map(),
  }
  const now = () => Date.now() + offsetMs
  times.set(tip, now())
  svm.warpToSlot(BigInt(tip))

  const faucet = await generateKeyPairSigner()
  svm.airdrop(faucet.address, (1000n * LAMPORTS_PER_SOL) as never)
  const counterfeit = await generateKeyPairSigner()
  for (const mint of [USDT_MINT, USDC_MINT, counterfeit.address]) setMint(svm, mint, faucet.address)

  function produce(): number {
    tip += 1
    times.set(tip, now())
    svm.warpToSlot(BigInt(tip))
    const clock = svm.getClock()
    clock.unixTimestamp = BigInt(Math.floor(now() / 1000))
    svm.setClock(clock)
    return tip
  }
  function slot(commitment: Commitment): number {
    if (commitment === 'processed') return tip
    return Math.max(opts.firstSlot ?? 1000, tip - (commitment === 'confirmed' ? confirmDepth : finalizeDepth))
  }

  const tokenBalances = (keys: readonly string[]) => tokenBalancesOf(svm, keys)
  function send(wire: Uint8Array): { signature: string; err: unknown } {
    const { tx, signature, keys, accountKeys, instructions, recentBlockhash, signers } = decodeWire(wire)
    if (txs.has(signature))
      throw new RpcError(-32002, 'Transaction simulation failed: This transaction has already been processed')
    const writable = accountKeys.filter((k) => k.writable).map((k) => svm.getAccount(address(k.pubkey)))
    const preBalances = keys.map((k) => Number(svm.getBalance(address(k)) ?? 0n))
    const preTokenBalances = tokenBalances(keys)
    const result = svm.sendTransaction(tx)
    const failed = result instanceof FailedTransactionMetadata
    const meta: TransactionMetadata = failed ? result.meta() : (result as TransactionMetadata)
    const err = failed ? errorJson(result.err()) : null
    // A transaction the runtime refused before running it (bad signature, unknown blockhash, no
    // fee) never reaches a block: the RPC node answers an error and records nothing.
    if (failed && isRefusedBeforeExecution(err)) {
      throw new RpcError(-32002, `Transaction simulation failed: ${JSON.stringify(err)}`)
    }
    const s = produce()
    const innerInstructions = innerOf(meta, keys)
    const record: RecordedTransaction = {
      signature,
      slot: s,
      blockTime: Math.floor((times.get(s) ?? now()) / 1000),
      accountKeys,
      recentBlockhash,
      instructions,
      innerInstructions,
      err,
      fee: 5000 * signers,
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      logMessages: meta.logs(),
      preBalances,
      postBalances: keys.map((k) => Number(svm.getBalance(address(k)) ?? 0n)),
      preTokenBalances,
      postTokenBalances: failed ? preTokenBalances : tokenBalances(keys),
    }
    txs.set(signature, record)
    before.set(signature, writable)
    for (const sig of before.keys()) if ((txs.get(sig)?.slot ?? 0) <= slot('finalized')) before.delete(sig)
    for (const key of new Set(keys)) {
      const list = byAccount.get(key) ?? []
      list.push(record)
      byAccount.set(key, list)
    }
    svm.expireBlockhash()
    return { signature, err }
  }

  const run = (payer: KeyPairSigner, instructions: Instruction[]) =>
    runInstructions(standin, payer, instructions)

  let timer: ReturnType<typeof setInterval> | null = null
  if (opts.slotMs) {
    timer = setInterval(() => produce(), opts.slotMs)
    timer.unref?.()
  }

  const standin: Standin = {
    svm,
    mints: { usdt: USDT_MINT, usdc: USDC_MINT, counterfeitUsdt: counterfeit.address },
    faucet,
    slot,
    slotTime: (s) => {
      if (s > tip) return null
      // Empty slots between produced ones take the time of the one before them.
      for (let k = s; k >= (opts.firstSlot ?? 1000); k--) {
        const t = times.get(k)
        if (t !== undefined) return t
      }
      return null
    },
    advance(n = 1) {
      for (let i = 0; i < n; i++) produce()
    },
    warp(ms) {
      offsetMs += ms
    },
    blockhash: () => ({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: tip + 150 }),
    send,
    account: (key, commitment) =>
      accountOf(svm, accountAt({ svm, byAccount, before }, key, slot(commitment))),
    drop: (signature) =>
      dropTransaction({ svm, txs, byAccount, before, finalized: slot('finalized') }, signature),
    transaction: (sig) => txs.get(sig),
    signaturesFor: (account) => [...(byAccount.get(account) ?? [])].reverse(),
    async mintTo(mint, owner, amount) {
      const [ata] = await findAssociatedTokenPda({
        owner: address(owner),
        mint: address(mint),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      })
      const res = await run(faucet, [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: faucet,
          ata,
          owner: address(owner),
          mint: address(mint),
        }),
        getMintToInstruction({ mint: address(mint), token: ata, mintAuthority: faucet, amount }),
      ])
      if (res.err) throw new Error(`mint failed: ${JSON.stringify(res.err)}`)
      return res.signature
    },
    airdrop(owner, lamports = 10n * LAMPORTS_PER_SOL) {
      svm.airdrop(address(owner), lamports as never)
    },
    tokenBalance: async (owner, mint) => tokenBalances([await ataAddress(owner, mint)])[0]?.amount ?? 0n,
    run,
    stop() {
      if (timer) clearInterval(timer)
    },
  }
  return standin
}

const ataAddress = async (owner: string, mint: string) =>
  (
    await findAssociatedTokenPda({
      owner: address(owner),
      mint: address(mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
  )[0]

/** The state a drop works on: the cluster, its transactions, their index and what they overwrote. */
interface Kept {
  svm: LiteSVM
  txs: Map<string, RecordedTransaction>
  byAccount: Map<string, RecordedTransaction[]>
  before: Map<string, ReturnType<LiteSVM['getAccount']>[]>
  finalized: number
}

function dropTransaction({ svm, txs, byAccount, before, finalized }: Kept, signature: string): void {
  const tx = txs.get(signature)
  if (!tx) throw new Error(`drop: ${signature} is not known`)
  if (tx.slot <= finalized) throw new Error(`drop: ${signature} is in a finalized slot`)
  const prior = before.get(signature)
  if (!prior) throw new Error(`drop: the state before ${signature} is not kept`)
  const wrote = new Set(tx.accountKeys.filter((k) => k.writable).map((k) => k.pubkey))
  for (const later of txs.values()) {
    if (later.slot <= tx.slot || later === tx) continue
    const shared = later.accountKeys.find((k) => k.writable && wrote.has(k.pubkey))
    if (shared) throw new Error(`drop: ${later.signature}, later, also wrote ${shared.pubkey}; drop it first`)
  }
  for (const acc of prior) {
    // An account the transaction made goes back to not existing (no lamports, no data).
    svm.setAccount(
      (acc.exists
        ? acc
        : {
            address: acc.address,
            data: new Uint8Array(),
            executable: false,
            lamports: 0n,
            programAddress: address(SYSTEM_PROGRAM),
            space: 0n,
          }) as never,
    )
  }
  txs.delete(signature)
  before.delete(signature)
  for (const key of new Set(tx.accountKeys.map((k) => k.pubkey))) {
    const list = (byAccount.get(key) ?? []).filter((t) => t !== tx)
    if (list.length > 0) byAccount.set(key, list)
    else byAccount.delete(key)
  }
}

/** An account at slot `at`: as it was before the first transaction after `at` that wrote it, else as it is. */
function accountAt(k: Pick<Kept, 'svm' | 'byAccount' | 'before'>, key: string, at: number) {
  let then: ReturnType<LiteSVM['getAccount']> | undefined
  for (const tx of [...(k.byAccount.get(key) ?? [])].reverse()) {
    if (tx.slot <= at) break
    then = k.before.get(tx.signature)?.find((a) => a.address === key) ?? then
  }
  return then ?? k.svm.getAccount(address(key))
}

/** An account as the RPC serves it, with its SPL token fields when it is a token account (165 bytes of the token program). */
function accountOf(svm: LiteSVM, acc: ReturnType<LiteSVM['getAccount']>): StandinAccount | null {
  if (!acc.exists) return null
  const data = new Uint8Array(acc.data)
  const isToken = acc.programAddress === TOKEN_PROGRAM_ADDRESS && data.length === 165
  const mint = isToken ? getAddressDecoder().decode(data.slice(0, 32)) : null
  const mintAcc = mint ? svm.getAccount(mint) : null
  return {
    lamports: BigInt(acc.lamports),
    owner: acc.programAddress,
    executable: acc.executable,
    data,
    token: mint
      ? {
          mint,
          owner: getAddressDecoder().decode(data.slice(32, 64)),
          amount: new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true),
          decimals: mintAcc?.exists ? (mintAcc.data[44] ?? 0) : 0,
          // The account's state byte (after mint, owner, amount and the delegate option): 2 is frozen.
          state: data[108] === 2 ? 'frozen' : 'initialized',
        }
      : null,
  }
}

/** An SPL Token mint account (82 bytes) at `mint`, `authority` minting, 6 decimals. */
function setMint(svm: LiteSVM, mint: string, authority: Address): void {
  const data = new Uint8Array(82)
  const view = new DataView(data.buffer)
  view.setUint32(0, 1, true) // mint_authority: Some
  data.set(getAddressEncoder().encode(authority), 4)
  view.setBigUint64(36, 0n, true) // supply
  data[44] = 6 // decimals
  data[45] = 1 // is_initialized
  view.setUint32(46, 0, true) // freeze_authority: None
  svm.setAccount({
    address: address(mint),
    data,
    executable: false,
    lamports: svm.minimumBalanceForRentExemption(82n) as never,
    programAddress: TOKEN_PROGRAM_ADDRESS,
    space: 82n,
  } as never)
}

export type { Base64EncodedWireTransaction }
export { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, getBase64Encoder, parseInstruction, RpcError }

/** Builds, signs and sends instructions paid by `payer`, at the cluster's latest blockhash. */
async function runInstructions(standin: Standin, payer: KeyPairSigner, instructions: Instruction[]) {
  const { blockhash, lastValidBlockHeight } = standin.blockhash()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash as never, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const signed = await signTransactionMessageWithSigners(message)
  return standin.send(new Uint8Array(getTransactionEncoder().encode(signed)))
}
