// The cocor tests' correlations (internal/cocorInputs.ts): Pearson's declared figure of each pair's
// moments, no Pearson of significance's own. r(A, B) of a row of pairs sixteen at a time has the bits
// of `correlation` of each pair (r of the two sides, as `Dependent.inputFromScores` takes it); every r is the textbook r
// and metrics' Pearson (the figure `score` prints), at any scale.
import { describe, expect, it } from "vitest"
import { Pearson } from "@stseval/metrics"
import { Dependent, TestResult } from "../src/index.js"
import * as Cocor from "../src/internal/cocorInputs.js"
import { makeRuns, pearson as textbook } from "./data.js"

/** r(x, y) of two score arrays of one length, each centred on its own. */
const correlation = (x: Float64Array, y: Float64Array): number => Cocor.r(Cocor.side(x), Cocor.side(y))

describe("cocor inputs", () => {
  it("a row of a table gives each pair the bits of correlation(x, y) (`r` of each pair, as without SIMD), for rows of 0 to 9 runs, the textbook r and metrics' Pearson", () => {
    const { gold, runs } = makeRuns(301, [0.3, 0.5, 0.8, 1, 1.5, 2, 3, 4, 5, 6], 11)
    const [x, ...ys] = runs
    const row = Cocor.table(runs.map(Cocor.side))
    for (let m = 0; m <= ys.length; m++) {
      const out = new Float64Array(m + 2).fill(Number.NaN)
      row(0, 1, 1 + m, out, 1)
      expect(out[0]).toBeNaN()
      expect(out[m + 1]).toBeNaN()
      for (let j = 0; j < m; j++) {
        expect(Object.is(out[1 + j], correlation(x, ys[j])), `row of ${m}, run ${j}`).toBe(true)
        expect(Math.abs(out[1 + j] - textbook(Array.from(x), Array.from(ys[j])))).toBeLessThan(1e-14)
        expect(Math.abs(out[1 + j] - Pearson.pearsonRaw(x, ys[j]))).toBeLessThan(1e-15)
      }
    }
    const input = Dependent.inputFromScores(gold, x, ys[0])
    if (TestResult.isInvalid(input)) throw new Error(input.expected)
    expect(Math.abs(input.rJk - Pearson.pearsonRaw(gold, x))).toBeLessThan(1e-15)
    expect(input.rJk).toBeGreaterThan(0.9)
  })

  it("a table (sides laid out once, 16 or 2 cross sums per pass) gives every span of every row the bits of correlation(x, y): wide passes, narrow passes and an odd last column", () => {
    const { runs } = makeRuns(173, Array.from({ length: 40 }, (_, k) => 0.2 + (k % 9) * 0.6), 17)
    const sides = runs.map(Cocor.side)
    const row = Cocor.table(sides)
    for (const [a, from, to] of [[0, 1, 40], [5, 6, 40], [39, 0, 39], [3, 4, 5], [7, 8, 25], [2, 10, 10], [20, 3, 36]]) {
      const out = new Float64Array(to - from + 2).fill(Number.NaN)
      row(a, from, to, out, 1)
      expect(out[0]).toBeNaN()
      expect(out[to - from + 1]).toBeNaN()
      for (let c = from; c < to; c++) expect(Object.is(out[1 + c - from], correlation(runs[a], runs[c])), `row ${a}, column ${c}`).toBe(true)
    }
  })

  it("scores near 1e200 and 1e-200 (squares out of range) are taken at unit scale: the r of the unscaled scores; a constant side has none", () => {
    const { runs } = makeRuns(50, [0.5, 1, 2, 3, 4], 5)
    const scaled = runs.map((r, k) => r.map((v) => v * (k % 2 === 0 ? 1e200 : 1e-200)))
    const out = new Float64Array(4)
    Cocor.table(scaled.map(Cocor.side))(0, 1, 5, out, 0)
    for (let j = 0; j < 4; j++) {
      expect(Object.is(out[j], correlation(scaled[0], scaled[j + 1]))).toBe(true)
      expect(Math.abs(out[j] - textbook(Array.from(runs[0]), Array.from(runs[j + 1])))).toBeLessThan(1e-14)
    }
    expect(correlation(runs[0], new Float64Array(50).fill(3))).toBeNaN()
  })
})
