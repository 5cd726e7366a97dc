// Compare.many reads each score once to check it (issue 34): the bootstrap read every score three
// times (Compare.many's checkValues, the bootstrap's, the layout's), the analytic tests twice.
// Counted by the calls to Number.isFinite, through which every check of a score goes.
import { afterEach, describe, expect, it, vi } from "vitest"
import { Compare, TestResult } from "../src/index.js"
import { makeRuns } from "./data.js"

const n = 300
const { gold, runs } = makeRuns(n, [1, 1.2, 1.5, 2], 31)
const values = (runs.length + 1) * n

/** Number.isFinite's calls while `f` runs. */
const finiteChecks = (f: () => unknown): number => {
  const spy = vi.spyOn(Number, "isFinite")
  const out = f()
  const calls = spy.mock.calls.length
  spy.mockRestore()
  expect(TestResult.isInvalid(out)).toBe(false)
  return calls
}

afterEach(() => vi.restoreAllMocks())

describe("Compare.many checks each score once", () => {
  it("with the bootstrap", () => {
    const calls = finiteChecks(() => Compare.many(gold, runs, { test: "bootstrap", resamples: 50, seed: 1, against: "all" }))
    expect(calls).toBeGreaterThanOrEqual(values)
    expect(calls).toBeLessThan(1.5 * values)
  })
  it("with Williams' t", () => {
    const calls = finiteChecks(() => Compare.many(gold, runs, { against: "all", correction: "holm" }))
    expect(calls).toBeGreaterThanOrEqual(values)
    expect(calls).toBeLessThan(1.5 * values)
  })
  it("a bad score is still found, by its run and index, on either path", () => {
    const bad = runs.map((r) => r.slice())
    bad[2][7] = Number.NaN
    for (const test of ["bootstrap", "williams1959"] as const) {
      const out = Compare.many(gold, bad, { test, resamples: 50, against: "all" })
      expect(TestResult.isInvalid(out) && out.field).toBe("runs[2][7]")
    }
  })
})
