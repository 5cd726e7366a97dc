// The cocor tests' correlations of many pairs (internal/pearson.ts): r(A, B) of a row of pairs four
// at a time has the bits of the plain two-pass `pearson` of each pair, which `Dependent.
// inputFromScores` uses, and is the textbook r.
import { describe, expect, it } from "vitest"
import * as Pearson from "../src/internal/pearson.js"
import { makeRuns, pearson as textbook } from "./data.js"

describe("pearsonCentredRow", () => {
  it("gives each pair the bits of pearson(x, y), for rows of 0 to 9 runs (the four-wide passes and the rest), and the textbook r", () => {
    const { gold, runs } = makeRuns(301, [0.3, 0.5, 0.8, 1, 1.5, 2, 3, 4, 5, 6], 11)
    const [x, ...ys] = runs
    const cx = Pearson.centre(x)
    for (let m = 0; m <= ys.length; m++) {
      const out = new Float64Array(m + 2).fill(Number.NaN)
      Pearson.pearsonCentredRow(cx, ys.slice(0, m).map(Pearson.centre), out, 1)
      expect(out[0]).toBeNaN()
      expect(out[m + 1]).toBeNaN()
      for (let j = 0; j < m; j++) {
        expect(Object.is(out[1 + j], Pearson.pearson(x, ys[j])), `row of ${m}, run ${j}`).toBe(true)
        expect(out[1 + j]).toBeCloseTo(textbook(Array.from(x), Array.from(ys[j])), 12)
      }
    }
    expect(Pearson.pearson(gold, x)).toBeGreaterThan(0.9)
  })

  it("scores near 1e200 and 1e-200 (squares out of range) take the unit-scale passes, as pearson does", () => {
    const { runs } = makeRuns(50, [0.5, 1, 2, 3, 4], 5)
    const scaled = runs.map((r, k) => r.map((v) => v * (k % 2 === 0 ? 1e200 : 1e-200)))
    const out = new Float64Array(4)
    Pearson.pearsonCentredRow(Pearson.centre(scaled[0]), scaled.slice(1).map(Pearson.centre), out, 0)
    for (let j = 0; j < 4; j++) {
      expect(Object.is(out[j], Pearson.pearson(scaled[0], scaled[j + 1]))).toBe(true)
      expect(out[j]).toBeCloseTo(textbook(Array.from(runs[0]), Array.from(runs[j + 1])), 12)
    }
  })
})
