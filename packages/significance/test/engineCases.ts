// The jobs whose every bound, p-value and rank interval bench/engine-fixture.ts recorded from the
// engines before issue 34 (test/fixtures/engine-before-34.json), and Engine34.test.ts recomputes:
// every built-in metric, with and without strata, weighted and unweighted, every official rule and
// labelled aggregate, a dataset a run lacks, scores with ties (Spearman's and Kendall's walks).
import { expect } from "vitest"
import { Bootstrap, Intervals, Permutation, TestResult } from "../src/index.js"

/** A seeded stream of uniforms in [0, 1) (an LCG: the fixture must not depend on a library's stream). */
const uniforms = (seed: number) => {
  let state = seed >>> 0
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
}

const STRATA = [40, 70, 55]
const N = STRATA.reduce((a, b) => a + b, 0)
const strata = Int32Array.from(STRATA.flatMap((m, s) => Array.from({ length: m }, () => s)))
const u = uniforms(34)
/** Gold on a 0-5 scale in steps of 0.2 (ties), runs with noise growing with k, rounded to 0.1. */
const gold = Float64Array.from({ length: N }, () => Math.round(u() * 25) / 5)
const runs = Array.from({ length: 6 }, (_, k) => Float64Array.from(gold, (g) => Math.round((g + (u() - 0.5) * (1 + k)) * 10) / 10))
const confidences = runs.map(() => Float64Array.from({ length: N }, () => 0.1 + u() * 90))
const LABELS = ["ENTAILMENT", "NEUTRAL", "CONTRADICTION"]
const goldLabels = Array.from(gold, (g) => LABELS[Math.min(2, Math.floor(g / 1.7))])
const runLabels = Array.from({ length: 5 }, (_, k) => goldLabels.map((l) => (u() < 0.55 + k * 0.08 ? l : LABELS[Math.floor(u() * 3)])))

const B = 300
const bootstrap: ReadonlyArray<{ name: string; gold: Bootstrap.Values; runs: ReadonlyArray<Bootstrap.Values>; options: Bootstrap.Options }> = [
  { name: "pearson", gold, runs, options: { resamples: B, seed: 7, metric: "pearson" } },
  { name: "pearson weighted strata", gold, runs, options: { resamples: B, seed: 7, metric: "pearson", strata } },
  { name: "pearson unweighted strata", gold, runs, options: { resamples: B, seed: 9, metric: "pearson", strata, aggregate: "unweighted" } },
  { name: "spearman strata", gold, runs, options: { resamples: B, seed: 7, metric: "spearman", strata } },
  { name: "kendall strata", gold, runs, options: { resamples: B, seed: 7, metric: "kendall", strata } },
  { name: "mse strata", gold, runs, options: { resamples: B, seed: 7, metric: "mse", strata } },
  { name: "standardised-mse", gold, runs, options: { resamples: B, seed: 7, metric: "standardised-mse" } },
  { name: "weighted-pearson", gold, runs, options: { resamples: B, seed: 7, metric: "weighted-pearson", confidences } },
  { name: "accuracy strata", gold: goldLabels, runs: runLabels, options: { resamples: B, seed: 7, metric: "accuracy", strata } },
  { name: "macro-f1", gold: goldLabels, runs: runLabels, options: { resamples: B, seed: 7, metric: "macro-f1" } }
]

const permutation: ReadonlyArray<{ name: string; gold: Bootstrap.Values; runA: Bootstrap.Values; runB: Bootstrap.Values; options: Permutation.Options }> = [
  { name: "pearson", gold, runA: runs[0], runB: runs[1], options: { resamples: B, seed: 5 } },
  { name: "pearson strata", gold, runA: runs[1], runB: runs[3], options: { resamples: B, seed: 5, strata, aggregate: "unweighted" } },
  { name: "spearman", gold, runA: runs[0], runB: runs[2], options: { resamples: B, seed: 5, metric: "spearman" } },
  { name: "kendall", gold, runA: runs[0], runB: runs[2], options: { resamples: B, seed: 5, metric: "kendall" } },
  { name: "mse", gold, runA: runs[2], runB: runs[3], options: { resamples: B, seed: 5, metric: "mse", alternative: "less" } },
  { name: "accuracy", gold: goldLabels, runA: runLabels[0], runB: runLabels[3], options: { resamples: B, seed: 5, metric: "accuracy" } }
]

const NAMES = ["answers", "headlines", "images"]
/** One run's scores on each dataset, as Intervals takes them; run 4 lacks the last dataset. */
const split = (values: ReadonlyArray<Float64Array>, k: number) =>
  Object.fromEntries(
    NAMES.flatMap((name, s) => {
      if (k === 4 && s === 2) return []
      const a = STRATA.slice(0, s).reduce((x, y) => x + y, 0)
      return [[name, { run: values[k].slice(a, a + STRATA[s]), gold: gold.slice(a, a + STRATA[s]), confidence: confidences[k].slice(a, a + STRATA[s]) }]]
    })
  )
const graded = (metrics: ReadonlyArray<string>, official: Intervals.Rule, missing: Intervals.Input["missingDataset"], aggregates: ReadonlyArray<Intervals.Labelled>): Intervals.Input => ({
  datasets: NAMES.map((name, s) => ({ name, metric: metrics[s % metrics.length] })),
  runs: runs.map((_, k) => ({ id: `run${k}`, ...(k === 5 ? { ranked: false } : {}), scores: split(runs, k) })),
  official,
  missingDataset: missing,
  aggregates
})
/** The label runs on one dataset scored by `metric`, the edition's single official figure. */
const labelled = (metric: string): Intervals.Input => ({
  datasets: [{ name: "entailment", metric }],
  runs: runLabels.map((run, k) => ({ id: `run${k}`, scores: { entailment: { run, gold: goldLabels } } })),
  official: "single",
  missingDataset: "no-official-score"
})
const intervals: ReadonlyArray<{ name: string; input: Intervals.Input; options: Intervals.Options }> = [
  { name: "pearson wmean zero", input: graded(["pearson"], "wmean", "zero", ["wmean", "mean", "pooled", "allnrm"]), options: { resamples: B, seed: 11 } },
  { name: "pearson mean no-official", input: graded(["pearson"], "mean", "no-official-score", ["pooled"]), options: { resamples: B, seed: 3, level: 0.9 } },
  { name: "pearson allnrm", input: graded(["pearson"], "allnrm", "no-official-score", ["wmean"]), options: { resamples: B, seed: 3 } },
  { name: "pearson pooled js", input: graded(["pearson"], "pooled", "no-official-score", ["mean"]), options: { resamples: B, seed: 3, engine: "js" } },
  { name: "spearman mean", input: graded(["spearman"], "mean", "zero", ["wmean", "pooled", "allnrm"]), options: { resamples: B, seed: 11 } },
  { name: "kendall wmean", input: graded(["kendall"], "wmean", "no-official-score", ["pooled"]), options: { resamples: B, seed: 11 } },
  { name: "mse mean", input: graded(["mse"], "mean", "no-official-score", []), options: { resamples: B, seed: 11 } },
  { name: "weighted-pearson wmean", input: graded(["weighted-pearson"], "wmean", "no-official-score", []), options: { resamples: B, seed: 11 } },
  { name: "mixed", input: graded(["pearson", "spearman", "kendall"], "mean", "no-official-score", []), options: { resamples: B, seed: 2 } },
  ...(["accuracy", "macro-f1"] as const).map((metric) => ({ name: `${metric} single`, input: labelled(metric), options: { resamples: B, seed: 11 } }))
]

export const engineCases = { bootstrap, permutation, intervals }

// What is recorded of each job: written once, by the fixture script and read by the test alike.

const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x)

/** A bootstrap job's estimates, run intervals, pairwise intervals and p-values (normal approximation too). */
export const bootstrapRecord = (c: (typeof bootstrap)[number]) => {
  const d = Bootstrap.resample(c.gold, c.runs, c.options)
  if (TestResult.isInvalid(d)) throw d
  const pairs = Bootstrap.comparePairs(d)
  return {
    signature: d.signatureText,
    estimates: Array.from(d.estimates, num),
    degenerate: Array.from(d.degenerate),
    intervals: c.runs.map((_, k) => Bootstrap.runInterval(d, k).ci.map(num)),
    pairs: pairs.map((p) => [num(p.ci[0]), num(p.ci[1]), num(p.pValue), p.valid]),
    normal: Bootstrap.comparePairs(d, { bootstrapP: "normal" }).map((p) => num(p.pValue))
  }
}

/** A permutation job's estimates and p-value. */
export const permutationRecord = (c: (typeof permutation)[number]) => {
  const r = Permutation.test(c.gold, c.runA, c.runB, c.options)
  if (TestResult.isInvalid(r)) throw r
  return { signature: r.signatureText, estimates: [num(r.estimateA), num(r.estimateB)], pValue: num(r.pValue), valid: r.valid }
}

/** An intervals job's every figure with its interval, ranks and rank intervals. */
export const intervalsRecord = (c: (typeof intervals)[number]) => resultRecord(Intervals.compute(c.input, c.options))

/** A result's every figure with its interval, ranks and rank intervals. */
export const resultRecord = (r: ReturnType<typeof Intervals.compute>) => {
  if (TestResult.isInvalid(r)) throw r
  const fig = (f: Intervals.Figure) => [num(f.value), num(f.ci?.low), num(f.ci?.high), f.used, f.degenerate]
  return {
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

/**
 * Numbers to 1e-12 relative (null for NaN / undefined on both sides), anything else identical. A
 * p-value of the normal approximation, 2 Phi(-|z|), is taken to 1e-12 in z: its relative change is
 * about z^2 = 2 ln(1 / p) times z's, so a p of 1e-21 (z = 9.5) moves 1e-12 x 96 for z's 1e-12.
 */
export const same = (ours: unknown, theirs: unknown, where: string): void => {
  if (typeof theirs === "number" && typeof ours === "number") {
    const scale = Math.max(Math.abs(ours), Math.abs(theirs))
    const condition = where.includes(".normal[") && theirs > 0 ? Math.max(1, 2 * Math.log(1 / theirs)) : 1
    if (Math.abs(ours - theirs) > 1e-12 * condition * scale) expect.fail(`${where}: ${ours} against ${theirs} before`)
    return
  }
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    expect(ours.length, where).toBe(theirs.length)
    theirs.forEach((t, i) => same(ours[i], t, `${where}[${i}]`))
    return
  }
  if (theirs !== null && typeof theirs === "object" && ours !== null && typeof ours === "object") {
    expect(Object.keys(ours).sort(), where).toEqual(Object.keys(theirs).sort())
    for (const k of Object.keys(theirs)) same((ours as Record<string, unknown>)[k], (theirs as Record<string, unknown>)[k], `${where}.${k}`)
    return
  }
  expect(ours, where).toEqual(theirs)
}

/** Two results with every figure and bound to 1e-12 relative, and the same counts, ranks, rank intervals and signature. */
export const sameFigures = (ours: ReturnType<typeof Intervals.compute>, theirs: ReturnType<typeof Intervals.compute>): void =>
  same(resultRecord(ours), resultRecord(theirs), "result")
