// Issue 34: the intervals pass holds the resampled figures of a tile of runs at a time, not of
// every run at once, and gives the same result whatever the tiles: each run's figures depend on its
// own pairs and the shared draws alone, and the ranks are taken from the kept official figures.
import { afterEach, describe, expect, it } from "vitest"
import { Intervals, TestResult } from "../src/index.js"
import { tiling } from "../src/internal/intervals.js"
import { checkDefinition, checkRuns, layOut } from "../src/internal/job.js"
import { CHUNK } from "../src/internal/random.js"
import { scoresRead } from "../src/internal/validate.js"
import { engineCases } from "./engineCases.js"

const compute = (c: (typeof engineCases.intervals)[number]) => {
  const r = Intervals.compute(c.input, c.options)
  if (TestResult.isInvalid(r)) throw r
  return r
}

// the cases whose metrics are resampled by sums or walks (a generic metric's label codes and
// pools are laid out over every run: one tile)
const tiled = new Set(["pearson wmean zero", "pearson mean no-official", "pearson allnrm", "pearson pooled js", "mixed", "accuracy single"])

const defaults = { ...tiling }
afterEach(() => Object.assign(tiling, defaults))

describe("Intervals.compute, tile by tile of runs (issue 34)", () => {
  it.each(engineCases.intervals.map((c) => [c.name, c] as const))("%s: the same result from tiles of two runs, holding at most a tile's figures", (name, c) => {
    const whole = compute(c)
    const B = c.options.resamples ?? 1000
    const K = c.input.runs.length
    const FIG = c.input.datasets.length + (c.input.aggregates?.length ?? 0) + 1
    const held: Array<number> = []
    tiling.elements = 2 * FIG * B
    tiling.held = (n) => held.push(n)
    const tiles = compute(c)
    expect(tiles).toEqual(whole)
    // every run's figures pass through the percentile stage once
    expect(held.reduce((a, b) => a + b, 0)).toBe(K * FIG * B)
    if (tiled.has(name)) {
      expect(held).toHaveLength(Math.ceil(K / 2))
      expect(Math.max(...held)).toBeLessThanOrEqual(tiling.elements)
    } else expect(held).toEqual([K * FIG * B])
  })

  it("draws each chunk of resamples once, for the first tile: the next tiles sum the kept multiplicities", () => {
    const c = engineCases.intervals.find((x) => x.name === "pearson wmean zero")!
    const whole = compute(c)
    const B = c.options.resamples ?? 1000
    const drawn: Array<number> = []
    tiling.drawn = (chunk) => drawn.push(chunk)
    tiling.elements = 1
    expect(compute(c)).toEqual(whole)
    // one run per tile, and the chunks drawn as for one tile
    expect(c.input.runs.length).toBeGreaterThan(2)
    expect(drawn).toEqual(Array.from({ length: Math.ceil(B / CHUNK) }, (_, i) => i))
  })

  it("a pass with rank walks starts each tile's walks once the last tile's are done, before it reads that tile's figures; a pass without, tile after tile", () => {
    for (const [name, ahead] of [["mixed", true], ["pearson wmean zero", false]] as const) {
      const c = engineCases.intervals.find((x) => x.name === name)!
      const whole = compute(c)
      const events: Array<string> = []
      tiling.elements = 1
      tiling.walking = (runs) => events.push(`walks of ${runs}`)
      tiling.held = () => events.push("read")
      expect(compute(c)).toEqual(whole)
      const tiles = c.input.runs.length
      expect(tiles).toBeGreaterThan(2)
      const steps = Array.from({ length: tiles - 1 }, () => (ahead ? ["walks of 1", "read"] : ["read", "walks of 1"])).flat()
      expect(events).toEqual(["walks of 1", ...steps, "read"])
    }
  })

  it("a ranked job's ranks and rank intervals are the untiled ones with one run per tile", () => {
    const c = engineCases.intervals[0]
    const whole = compute(c)
    tiling.elements = 1
    const held: Array<number> = []
    tiling.held = (n) => held.push(n)
    const one = compute(c)
    expect(held).toHaveLength(c.input.runs.length)
    expect(one.runs.map((r) => [r.rank, r.rankInterval, r.rankDegenerate, r.overlapsBest])).toEqual(whole.runs.map((r) => [r.rank, r.rankInterval, r.rankDegenerate, r.overlapsBest]))
    expect(one.bestGroup).toEqual(whole.bestGroup)
    expect(whole.runs.filter((r) => r.rankInterval !== undefined).length).toBeGreaterThan(2)
  })

  it("lays out every tile's scores in the first tile's buffer, as a buffer of its own would hold them", () => {
    const { input } = engineCases.intervals.find((x) => x.name === "pearson wmean zero")!
    const metrics = checkDefinition(input)
    if (TestResult.isInvalid(metrics)) throw metrics
    const golds = checkRuns(input, metrics)
    if (TestResult.isInvalid(golds)) throw golds
    const reuse: { x?: Float64Array } = {}
    const first = layOut(input, metrics, golds, 0, 2, true, reuse).x
    // a run lacking a dataset after one that has it: its positions there are 0 again
    const lacking = input.runs.findIndex((run, k) => k >= 2 && input.datasets.some((ds) => run.scores[ds.name] === undefined))
    expect(lacking).toBeGreaterThan(1)
    for (const [k0, k1] of [[lacking - 1, lacking + 1], [lacking, lacking + 1]]) {
      const tile = layOut(input, metrics, golds, k0, k1, true, reuse).x
      expect(tile.buffer).toBe(first.buffer)
      expect(tile).toEqual(layOut(input, metrics, golds, k0, k1).x)
    }
  })

  it("checks the runs once, however many tiles: not once per tile", () => {
    const c = engineCases.intervals.find((x) => x.name === "pearson mean no-official")!
    // every check of a score is one of validate.ts's reads
    const finiteChecks = () => {
      const before = scoresRead.count
      compute(c)
      return scoresRead.count - before
    }
    const whole = finiteChecks()
    tiling.elements = 1
    expect(c.input.runs.length).toBeGreaterThan(3)
    expect(finiteChecks()).toBe(whole)
  })
})
