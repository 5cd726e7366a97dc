// Writes test/fixtures/engine-before-34.json: every interval bound, rank interval, p-value and
// estimate that test/Engine34.test.ts compares against, computed by the resampling engines as they
// were BEFORE issue 34 (base commit 5665571, with its kernel-per-metric engines). The rule:
// with the same draws, the one engine gives every figure to 1e-12 relative. Re-running this script
// after issue 34 regenerates the file from the new engine, which defeats the check: don't.
// Run: node --conditions=@stseval/source --import tsx packages/significance/bench/engine-fixture.ts
import * as fs from "node:fs"
import * as path from "node:path"
import { Bootstrap, Intervals, Permutation, TestResult } from "../src/index.js"
import { engineCases } from "../test/engineCases.js"

const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x)

const out: Record<string, unknown> = {}
for (const c of engineCases.bootstrap) {
  const d = Bootstrap.resample(c.gold, c.runs, c.options)
  if (TestResult.isInvalid(d)) throw d
  out[`bootstrap ${c.name}`] = {
    signature: d.signatureText,
    estimates: Array.from(d.estimates, num),
    degenerate: Array.from(d.degenerate),
    intervals: c.runs.map((_, k) => Bootstrap.runInterval(d, k).ci.map(num)),
    pairs: Bootstrap.comparePairs(d).map((p) => [num(p.ci[0]), num(p.ci[1]), num(p.pValue), p.valid]),
    normal: Bootstrap.comparePairs(d).map((p) => num(Bootstrap.normalP(d, p.a, p.b).pValue))
  }
}
for (const c of engineCases.permutation) {
  const r = Permutation.test(c.gold, c.runA, c.runB, c.options)
  if (TestResult.isInvalid(r)) throw r
  out[`permutation ${c.name}`] = { signature: r.signatureText, estimates: [num(r.estimateA), num(r.estimateB)], pValue: num(r.pValue), valid: r.valid }
}
for (const c of engineCases.intervals) {
  const r = Intervals.compute(c.input, c.options)
  if (TestResult.isInvalid(r)) throw r
  const fig = (f: Intervals.Figure) => [num(f.value), num(f.ci?.low), num(f.ci?.high), f.used, f.degenerate]
  out[`intervals ${c.name}`] = {
    signature: r.signatureText,
    runs: r.runs.map((run) => ({
      datasets: run.datasets.map(fig),
      aggregates: Object.fromEntries(Object.entries(run.aggregates).map(([k, f]) => [k, fig(f)])),
      official: fig(run.official),
      rank: run.rank ?? null,
      rankInterval: run.rankInterval === undefined ? null : [run.rankInterval.low, run.rankInterval.high]
    })),
    bestGroup: r.bestGroup
  }
}
const file = path.join(import.meta.dirname, "../test/fixtures/engine-before-34.json")
fs.writeFileSync(file, `${JSON.stringify(out)}\n`)
console.log(`wrote ${file}: ${Object.keys(out).length} cases`)
