// What the worker threads are sent (internal/threads.ts): a worker keeps the instance of the sums'
// module over a pass's memory, so a pass's later calls send it neither, and it is not
// instantiated again there; whoever computes a block of runs, the sums keep their bits.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as SumsKernel from "../src/internal/sumsKernel.js"
import * as Threads from "../src/internal/threads.js"
import { mulberry32 } from "./data.js"

const bits = (a: Float64Array) => Array.from(new Uint8Array(Float64Array.from(a).buffer))

/** 23 pseudo-runs (3 blocks of runs) of 90 pairs in two spans; `calls` calls of 2 tiles each, on `threads` threads, the caller leaving every block to the workers; `after` each call. */
const passOf = (threads: number, calls: number, after?: () => void) => {
  const rand = mulberry32(11)
  const [K1, N, tiles] = [23, 90, 2]
  const F = Float64Array.from({ length: K1 * N * 2 }, () => rand() * 4 - 2)
  const write = (D: Float64Array, { base, step, gap }: SumsKernel.Layout) => {
    for (let k = 0; k < K1; k++) {
      for (let i = 0; i < N; i++) {
        D[base(k) + i * step] = F[(k * N + i) * 2]
        D[base(k) + i * step + gap] = F[(k * N + i) * 2 + 1]
      }
    }
  }
  const sums = SumsKernel.make(write, N, K1, Int32Array.from([0, 37, 37, 90]), tiles, threads, threads === 1 ? undefined : false)
  if (sums === undefined) throw new Error("no WebAssembly SIMD")
  return Array.from({ length: calls }, () => {
    for (let r = 0; r < tiles * SumsKernel.TILE; r++) sums.list(Float64Array.from({ length: N }, () => Math.floor(rand() * 4)))
    sums.run()
    after?.()
    return sums.out.map(bits)
  })
}

describe("the worker threads' messages", () => {
  const warnings: Array<string> = []
  const onWarning = (warning: Error) => warnings.push(warning.message)
  beforeEach(() => process.on("warning", onWarning))
  afterEach(() => process.off("warning", onWarning))

  it("send a worker the sums' module and memory once per pass, not once per call, and the sums keep their bits", () => {
    const expected = passOf(1, 5)
    const before = Threads.sent.instances
    expect(passOf(2, 5)).toEqual(expected)
    // one helper thread on two threads: one instance for five calls
    expect(Threads.sent.instances - before).toBe(1)
    // a new pass, a new memory: instantiated again
    expect(passOf(2, 3)).toEqual(expected.slice(0, 3))
    expect(Threads.sent.instances - before).toBe(2)
    // no worker failed (the caller would have redone its blocks, with the same bits)
    expect(warnings).toEqual([])
  })

  it("release ends the idle workers: the next call starts another, sent the module and memory again, with the same bits", () => {
    const expected = passOf(1, 3)
    const before = Threads.sent.instances
    expect(passOf(2, 3, Threads.release)).toEqual(expected)
    expect(Threads.sent.instances - before).toBe(3)
    expect(warnings).toEqual([])
  })
})
