/**
 * The marks' analytic comparisons with the best centre each run once (issue 36): counted by the
 * dependent tests' inputs (`cocorInputs.centrings`), not timed. Before, every pair went through
 * `Dependent.inputFromScores`: three centrings per run compared (six before it shared its sides).
 */
import { Rank } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { beforeEach, describe, expect, it } from "vitest"
import { centrings } from "../../significance/src/internal/cocorInputs.js"
import { goldOf, lines, mulberry32, scoreRun, submission, toyEdition } from "./helpers.js"

const single = toyEdition({
  datasets: [{ name: "a", gold: "STS.gs.a.txt", goldFormat: "sts-gs", run: "STS.output.a.txt" }],
  ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "single" }]
})
const rand = mulberry32(36)
const gold = Float64Array.from({ length: 120 }, () => Math.round(rand() * 50) / 10)
const goldSingle = goldOf(single, { a: lines(Array.from(gold)) })
// runs = gold plus noise of growing size: distinct correlations, none a linear map of another
const runs = Array.from({ length: 12 }, (_, k) =>
  scoreRun(single, goldSingle, submission({ "STS.output.a.txt": lines(Array.from(gold, (g) => (g + (k + 1) * 0.3 * (rand() - 0.5)).toFixed(4))) }, { team: `T${k}` })))

// the counter is the significance module's, shared by every test file of a worker: read from zero
beforeEach(() => {
  centrings.count = 0
})

describe("marks against the best (Williams' t)", () => {
  it("centre the gold and each run once: runs + 1 centrings, not 3 per comparison", () => {
    const marks = Marks.compute({ edition: single, runs, ranked: Rank.rank(runs, { primaryOnly: false }) })
    const f = Marks.find(marks, "a:pearson")!
    expect(f.test).toBe("williams1959")
    expect(f.compared).toBe(runs.length - 1)
    expect(centrings.count).toBe(runs.length + 1)
  })

  it("the p-value matrix of m runs: the gold and the row's run once per row, each other run once per row", () => {
    const m = runs.length
    const marks = Marks.compute({ edition: single, runs, ranked: Rank.rank(runs, { primaryOnly: false }) }, { matrix: m })
    expect(Marks.find(marks, "a:pearson")!.matrix!.runs).toHaveLength(m)
    // the marks' runs + 1, then rows 0 .. m - 2: 2 each, and one per pair (before: 3 per pair)
    expect(centrings.count).toBe(runs.length + 1 + 2 * (m - 1) + (m * (m - 1)) / 2)
  })
})
