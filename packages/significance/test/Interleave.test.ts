// Intervals.computeEach runs several passes at once (internal/threads.ts `interleave`): while one
// pass's rank walks run on a helper thread, this thread works on another pass; each result is the
// one `compute` gives alone, whatever the order of the work.
import { afterEach, describe, expect, it } from "vitest"
import { Intervals, TestResult } from "../src/index.js"
import { rankInto, RANKED_AT_ONCE, ranksInSteps } from "../src/internal/competitionRanks.js"
import { tiling } from "../src/internal/intervals.js"
import * as Threads from "../src/internal/threads.js"
import { engineCases } from "./engineCases.js"

const defaults = { ...tiling }
afterEach(() => Object.assign(tiling, defaults))

/** A job that `finishes` when told (a helper's), and the log of whoever steps. */
const job = (log: Array<string>, name: string) => {
  let finished = false
  return {
    running: { done: () => finished, join: () => log.push(`${name} joined`) } satisfies ReturnType<typeof Threads.start>,
    finish: () => void (finished = true)
  }
}

describe("Threads.interleave", () => {
  it("goes on with the others while one waits on its job, with it once its job is done and until its next job, and joins when all wait", () => {
    const log: Array<string> = []
    const walks = [job(log, "walks 1"), job(log, "walks 2")]
    function* walked(): Threads.Steps<string> {
      log.push("walked: tile 1 laid out")
      yield walks[0].running
      walks[0].running.join()
      log.push("walked: tile 1's figures")
      yield undefined
      log.push("walked: tile 2 laid out")
      yield walks[1].running
      walks[1].running.join()
      return "walked"
    }
    function* summed(): Threads.Steps<string> {
      for (let chunk = 1; chunk <= 4; chunk++) {
        log.push(`summed: chunk ${chunk}`)
        // the helper finishes the first tile's walks during the second chunk
        if (chunk === 2) walks[0].finish()
        yield undefined
      }
      return "summed"
    }
    expect(Threads.interleave([summed(), walked()])).toEqual(["summed", "walked"])
    expect(log).toEqual([
      "summed: chunk 1",
      "walked: tile 1 laid out",
      "summed: chunk 2",
      // its job done: on until its next job is started, then the other again
      "walks 1 joined",
      "walked: tile 1's figures",
      "walked: tile 2 laid out",
      "summed: chunk 3",
      "summed: chunk 4",
      // the other is done, and this one waits: its join works too
      "walks 2 joined"
    ])
  })

  it("lets another computation start its next walks between a pass's ranks, resample by resample", () => {
    const log: Array<string> = []
    const walks = [job(log, "walks 1"), job(log, "walks 2")]
    function* walked(): Threads.Steps<string> {
      yield walks[0].running
      walks[0].running.join()
      log.push("walks 2 started")
      yield walks[1].running
      walks[1].running.join()
      return "walked"
    }
    const K = 7
    const B = 3 * RANKED_AT_ONCE + 5
    // ties within and across resamples, and an undefined figure
    const officials = Float64Array.from({ length: B * K }, (_, i) => (i % 11 === 3 ? Number.NaN : ((i * 7919) % 13) / 4))
    const ranked = Int32Array.of(0, 1, 2, 4, 5, 6)
    const ranks = new Int32Array(ranked.length * B)
    const degenerate = new Int32Array(ranked.length)
    function* ranking(): Threads.Steps<string> {
      // the other pass's walks end as the ranks start
      walks[0].finish()
      yield* ranksInSteps(ranked, officials, K, ranks, B, degenerate, false)
      log.push("ranked")
      return "ranking"
    }
    expect(Threads.interleave([ranking(), walked()])).toEqual(["ranking", "walked"])
    expect(log).toEqual(["walks 1 joined", "walks 2 started", "ranked", "walks 2 joined"])
    // the ranks of rankInto resample by resample
    const plain = new Int32Array(ranked.length * B)
    const plainDegenerate = new Int32Array(ranked.length)
    for (let b = 0; b < B; b++) rankInto(ranked, officials, b * K, 1, 0, plain, B, b, plainDegenerate, false)
    expect(ranks).toEqual(plain)
    expect(degenerate).toEqual(plainDegenerate)
    expect(Math.max(...degenerate)).toBeGreaterThan(0)
  })

  it("runs one computation through, its jobs joined as they come", () => {
    const log: Array<string> = []
    const walks = job(log, "walks")
    function* one(): Threads.Steps<number> {
      yield walks.running
      walks.running.join()
      yield undefined
      return 7
    }
    expect(Threads.interleave([one()])).toEqual([7])
    expect(log).toEqual(["walks joined"])
  })
})

describe("Intervals.computeEach", () => {
  it("gives every input the result compute gives it alone, its walks on a helper thread while the other passes work, tile by tile", () => {
    const options = { resamples: 200, seed: 11 }
    const cases = engineCases.intervals.map((c) => c.input)
    // and passes of walks alone (no pool)
    const walked = (metric: string) => ({ ...cases.find((input) => input.datasets.every((ds) => ds.metric === metric))!, aggregates: ["wmean" as const] })
    const inputs = [...cases, walked("spearman"), walked("kendall")]
    const alone = inputs.map((input) => Intervals.compute(input, { ...options, threads: 1 }))
    expect(alone.some(TestResult.isInvalid)).toBe(false)
    // a run a tile: every pass yields tile by tile, the walked ones with their walks running
    tiling.elements = 1
    expect(Intervals.computeEach(inputs, { ...options, threads: 2 })).toEqual(alone)
    // and an invalid input is its own answer, the others computed
    const bad = Intervals.computeEach([inputs[0], { ...inputs[4], datasets: [{ name: "track1", metric: "no-such-metric" }] }], options)
    expect(bad[0]).toEqual(Intervals.compute(inputs[0], options))
    expect(TestResult.isInvalid(bad[1])).toBe(true)
  })
})
