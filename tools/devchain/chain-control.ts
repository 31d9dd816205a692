import { normalizeTronAddress } from '../../src/shared/tron-address'
import { dropSchema, MAX_MINE, parseBody, transferSchema, validatePrice } from './control-schemas'
import { emptyStats, type Face, newFace, setFaceFault } from './faces'
import { MAINNET_USDT, SimChain, SimInputError, type TransferInput } from './sim-chain'
import type { ChainHeights, DevchainOptions, FaultMode, TransferRequest, TransferResult } from './types'

// The chain behind every face, and what a test or a demo does to it: transfers, mining (on a
// clock, or on demand), faults, the TRX price, a reset. The control API and the devchain's handle
// both act through it.

const DEFAULT_PRICE = '0.25'

export class ChainControl {
  readonly chain: SimChain
  readonly usdtContract: string
  readonly autoMine: boolean
  readonly initialPrice: string
  price: string
  /** The devchain's own listener; addFace() adds more. */
  readonly main: Face = newFace()
  readonly faces: Face[] = [this.main]
  closed = false
  private timer: NodeJS.Timeout | null = null

  constructor(opts: DevchainOptions) {
    const usdtContract = normalizeTronAddress(opts.usdtContract ?? MAINNET_USDT)
    if (!usdtContract)
      throw new SimInputError(`usdtContract is not a valid TRON address: ${opts.usdtContract}`)
    const noisePerBlock = opts.noisePerBlock ?? 0
    if (!(Number.isInteger(noisePerBlock) && noisePerBlock >= 0)) {
      throw new SimInputError('noisePerBlock must be a non-negative integer')
    }
    this.usdtContract = usdtContract
    this.chain = new SimChain({
      usdtContract,
      blockIntervalMs: opts.blockIntervalMs ?? 3000,
      solidifyLag: opts.solidifyLag ?? 19,
      noisePerBlock,
      now: opts.now,
    })
    this.autoMine = opts.autoMine ?? true
    this.initialPrice = validatePrice(opts.priceUsd ?? DEFAULT_PRICE)
    this.price = this.initialPrice
  }

  // Auto mode: a block is due blockIntervalMs after the previous one. Mining ahead with mine() moves the
  // chain's clock past the wall clock; the timer then waits until the wall clock catches up.
  scheduleTick() {
    if (!this.autoMine || this.closed) return
    const head = this.chain.getBlock(this.chain.headBlock())
    const due = (head?.timestamp ?? Date.now()) + this.chain.blockIntervalMs
    this.timer = setTimeout(
      () => {
        this.timer = null
        if (this.closed) return
        if (Date.now() >= due) this.chain.produceBlock()
        this.scheduleTick()
      },
      Math.max(0, due - Date.now()),
    )
    this.timer.unref()
  }

  /** A running timer starts again from the head (after blocks mined now, or a reset). */
  private rescheduleTick() {
    if (!this.timer) return
    clearTimeout(this.timer)
    this.timer = null
    this.scheduleTick()
  }

  heights(): ChainHeights {
    return { head: this.chain.headBlock(), solid: this.chain.solidBlock() }
  }

  transfer(request: TransferRequest): TransferResult {
    const input: TransferInput = parseBody(transferSchema, request)
    const tx = this.chain.addTransfer(input)
    return { transaction_id: tx.txid, block_number: tx.blockNumber, block_timestamp: tx.blockTimestamp }
  }

  mine(blocks = 1): ChainHeights {
    if (!(Number.isInteger(blocks) && blocks >= 1 && blocks <= MAX_MINE)) {
      throw new SimInputError(`blocks must be an integer from 1 to ${MAX_MINE}`)
    }
    for (let i = 0; i < blocks; i++) this.chain.produceBlock()
    this.rescheduleTick()
    return this.heights()
  }

  solidify(): ChainHeights {
    const target = this.chain.lastTransferBlock()
    if (target === null) return this.heights()
    const missing = target + this.chain.solidifyLag - this.chain.headBlock()
    return missing > 0 ? this.mine(missing) : this.heights()
  }

  drop(txid: string) {
    return this.chain.dropTransaction(parseBody(dropSchema, { txid }).txid)
  }

  setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds = 1, face = this.main) {
    setFaceFault(face, mode, count, path, suspendSeconds)
  }

  setPrice(usd: string) {
    this.price = validatePrice(usd)
  }

  reset() {
    this.chain.reset()
    this.price = this.initialPrice
    for (const face of this.faces) {
      setFaceFault(face, 'none')
      face.stats = emptyStats()
      face.forkFrom = null
    }
    this.rescheduleTick()
  }

  /** Stops the clock for good (the listeners are closed by the devchain). */
  stopClock() {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
