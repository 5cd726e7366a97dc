/**
 * One entry point for comparing runs scored on the same pairs, whatever the test: what the CLI's
 * `compare` and `significance` commands call. Scores must already be aligned with the gold (same
 * pair order, only scored pairs).
 *
 * @since 0.1.0
 */
import * as Bootstrap from "./Bootstrap.js"
import * as Cluster from "./Cluster.js"
import * as Correction from "./Correction.js"
import * as Dependent from "./Dependent.js"
import * as Kernel from "./internal/correlationKernel.js"
import { checkData } from "./internal/inputs.js"
import * as Permutation from "./Permutation.js"
import { InvalidInput } from "./TestResult.js"
import type { Alternative, Outcome } from "./TestResult.js"

/**
 * cocor's names for the dependent-overlapping tests, `zou2007` (interval only), or a resampling test.
 *
 * @since 0.1.0
 */
export type TestName = Dependent.TestName | "zou2007" | "bootstrap" | "permutation"

/**
 * @since 0.1.0
 */
export const testNames: ReadonlyArray<TestName> = [...Dependent.testNames, "zou2007", "bootstrap", "permutation"]

/**
 * The test used when none is named, everywhere (compare, significance, the tables' bold marks):
 * Williams' t for two dependent correlations sharing the gold, what STS 2017 used.
 *
 * @since 0.2.0
 */
export const defaultTest: TestName = "williams1959"

/**
 * @since 0.1.0
 */
export interface Options {
  /** Default `defaultTest`, `"williams1959"` (what STS 2017 used). */
  readonly test?: TestName
  /** `greater`: run A better. Default `"two.sided"`. */
  readonly alternative?: Alternative
  readonly confLevel?: number
  /** Resampling only. */
  readonly resamples?: number
  readonly seed?: number
  /** Bootstrap only; default `"pearson"`. */
  readonly metric?: "pearson" | "spearman"
  /** Dataset / track of each pair (resampling tests only: the analytic tests compare one correlation). */
  readonly strata?: ArrayLike<number>
  readonly aggregate?: "weighted" | "unweighted"
  readonly progress?: (done: number, total: number) => void
}

/**
 * Uniform result of comparing run A with run B.
 *
 * @since 0.1.0
 */
export interface Comparison {
  readonly test: TestName
  readonly a: number
  readonly b: number
  readonly estimateA: number
  readonly estimateB: number
  readonly alternative: Alternative
  /** Undefined for zou2007 (interval only: significant when the interval excludes 0). */
  readonly pValue?: number
  readonly statistic?: number
  readonly df?: number
  /** r_A - r_B interval (zou2007, bootstrap) or, for meng1992, the Fisher-z difference interval. */
  readonly ci?: readonly [number, number]
  readonly confLevel?: number
  /** Resampling: reproducibility signature, and how many resamples were usable. */
  readonly signature?: string
  readonly valid?: number
  readonly degenerate?: number
}

const isResampling = (t: TestName): t is "bootstrap" | "permutation" => t === "bootstrap" || t === "permutation"

const checkTest = (options: Options): InvalidInput | undefined => {
  const test = options.test ?? defaultTest
  if (!testNames.includes(test)) {
    return new InvalidInput({ field: "test", expected: testNames.join(", "), found: String(test) })
  }
  if (options.strata !== undefined && !isResampling(test)) {
    return new InvalidInput({
      field: "test",
      expected: "bootstrap or permutation for a multi-dataset aggregate (analytic tests compare one correlation)",
      found: test
    })
  }
  if (options.metric === "spearman" && !isResampling(test)) {
    return new InvalidInput({
      field: "metric",
      expected: "pearson for the analytic (cocor) tests; use bootstrap for Spearman",
      found: "spearman"
    })
  }
  return undefined
}

const identical = (x: Float64Array, y: Float64Array): boolean => {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
  return x.length === y.length
}

/** Analytic comparison of runs a and b (indices into `runs`). */
const analytic = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  a: number,
  b: number,
  test: Exclude<TestName, "bootstrap" | "permutation">,
  options: Options
): Outcome<Comparison> => {
  const input = Dependent.inputFromScores(gold, runs[a], runs[b])
  if (input instanceof InvalidInput) return input
  const alternative = options.alternative ?? "two.sided"
  const base = { test, a, b, estimateA: input.rJk, estimateB: input.rJh, alternative }
  // Identical scores, or one a positive linear map of the other (r_kh = 1: a run and the same run
  // x 1e200), make every cocor statistic 0/0; the answer is plain: no difference. Within 1e-12, as
  // the tables' marks decide it: rounding leaves r_kh a few ulps below 1.
  if (identical(runs[a], runs[b]) || input.rKh >= 1 - 1e-12) {
    return test === "zou2007"
      ? { ...base, ci: [0, 0], confLevel: options.confLevel ?? 0.95 }
      : { ...base, pValue: 1, statistic: 0 }
  }
  if (test === "zou2007") {
    const r = Dependent.zou2007(input, options)
    if (r instanceof InvalidInput) return r
    return { ...base, ci: r.ci, confLevel: r.confLevel }
  }
  const r = Dependent.tests[test](input, options)
  if (r instanceof InvalidInput) return r
  return {
    ...base,
    pValue: r.pValue,
    statistic: r.statistic,
    ...(r.df !== undefined ? { df: r.df } : {}),
    ...(r.ci !== undefined ? { ci: r.ci, confLevel: r.confLevel ?? 0.95 } : {})
  }
}

const fromBootstrap = (c: Bootstrap.PairComparison, signature: string): Comparison => ({
  test: "bootstrap",
  a: c.a,
  b: c.b,
  estimateA: c.estimateA,
  estimateB: c.estimateB,
  alternative: c.alternative,
  pValue: c.pValue,
  statistic: c.difference,
  ci: c.ci,
  confLevel: c.confLevel,
  signature,
  valid: c.valid,
  degenerate: c.degenerate
})

/**
 * Compare two runs.
 *
 * @since 0.1.0
 */
export const two = (
  gold: Float64Array,
  runA: Float64Array,
  runB: Float64Array,
  options: Options = {}
): Outcome<Comparison> => {
  const error = checkTest(options)
  if (error !== undefined) return error
  const test = options.test ?? defaultTest
  if (test === "bootstrap") {
    const d = Bootstrap.resample(gold, [runA, runB], options)
    if (d instanceof InvalidInput) return d
    return fromBootstrap(Bootstrap.compare(d, 0, 1, options), d.signatureText)
  }
  if (test === "permutation") {
    const r = Permutation.test(gold, runA, runB, options)
    if (r instanceof InvalidInput) return r
    return {
      test,
      a: 0,
      b: 1,
      estimateA: r.estimateA,
      estimateB: r.estimateB,
      alternative: r.alternative,
      pValue: r.pValue,
      statistic: r.difference,
      signature: r.signatureText,
      valid: r.valid,
      degenerate: r.degenerate
    }
  }
  return analytic(gold, [runA, runB], 0, 1, test, options)
}

/**
 * @since 0.1.0
 */
export interface ManyOptions extends Options {
  /** `best` (default): every run against the top-ranked one; `all`: every pair; a number: that run against the others. */
  readonly against?: "best" | "all" | number
  /** Applied over all comparisons made. Default `"none"`. */
  readonly correction?: "none" | "holm" | "bonferroni"
  /** Significance level for `best` / `groups`. Default 0.05. */
  readonly alpha?: number
}

/**
 * @since 0.1.0
 */
export interface ManyResult {
  /** Run indices, best first (by the run's correlation with the gold, or aggregate with strata). */
  readonly ranking: ReadonlyArray<number>
  readonly estimates: ReadonlyArray<number>
  /** `a` is the higher-ranked run of each pair; `adjustedP` after the correction. */
  readonly comparisons: ReadonlyArray<Comparison & { readonly adjustedP?: number }>
  /** Runs not significantly different from the best (bold), best included. */
  readonly best: ReadonlyArray<number>
  /**
   * With `against: "all"`: by ranking position (0 = best), the group number (Cluster.groups) and
   * the rank range (Cluster.rankRanges, positions).
   */
  readonly groups?: ReadonlyArray<number>
  readonly rankRanges?: ReadonlyArray<{ readonly lo: number; readonly hi: number }>
  readonly signature?: string
}

/**
 * Rank many runs and compare them (two-sided by default), with optional correction and clusters.
 *
 * @since 0.1.0
 */
export const many = (gold: Float64Array, runs: ReadonlyArray<Float64Array>, options: ManyOptions = {}): Outcome<ManyResult> => {
  const error = checkTest(options)
  if (error !== undefined) return error
  const stratumOf = Kernel.denseStrata(options.strata, gold.length)
  const dataError = checkData(gold, runs, options.strata, stratumOf)
  if (dataError !== undefined) return dataError
  const test = options.test ?? defaultTest
  const against = options.against ?? "best"
  if (typeof against === "number" && !(Number.isInteger(against) && against >= 0 && against < runs.length)) {
    return new InvalidInput({ field: "against", expected: `best, all or a run index below ${runs.length}`, found: String(against) })
  }
  const alpha = options.alpha ?? 0.05

  // Point estimates with the same kernel the bootstrap uses (per-dataset Pearson, aggregated).
  const prepared = Kernel.prepare(gold, runs, stratumOf, options.metric ?? "pearson", options.aggregate ?? "weighted")
  const estimates = new Float64Array(runs.length)
  Kernel.evaluate(prepared, new Float64Array(gold.length).fill(1), estimates, Kernel.scratch(prepared))
  const ranking = Array.from(estimates.keys()).sort((x, y) => estimates[y] - estimates[x] || x - y)
  const position = new Int32Array(runs.length)
  ranking.forEach((run, i) => (position[run] = i))

  const pairs: Array<[number, number]> = []
  if (against === "all") {
    for (let i = 0; i < ranking.length; i++) {
      for (let j = i + 1; j < ranking.length; j++) pairs.push([ranking[i], ranking[j]])
    }
  } else {
    const ref = against === "best" ? ranking[0] : against
    for (const run of ranking) {
      if (run !== ref) pairs.push(position[ref] < position[run] ? [ref, run] : [run, ref])
    }
  }

  let comparisons: Array<Comparison> = []
  let signature: string | undefined
  if (test === "bootstrap") {
    const d = Bootstrap.resample(gold, runs, options)
    if (d instanceof InvalidInput) return d
    signature = d.signatureText
    comparisons = Bootstrap.comparePairs(d, { ...options, pairs }).map((c) => fromBootstrap(c, d.signatureText))
  } else {
    for (const [a, b] of pairs) {
      const c = test === "permutation"
        ? two(gold, runs[a], runs[b], { ...options, progress: undefined })
        : analytic(gold, runs, a, b, test, options)
      if (c instanceof InvalidInput) {
        return new InvalidInput({ field: `runs ${a} vs ${b}: ${c.field}`, expected: c.expected, found: c.found })
      }
      comparisons.push({ ...c, a, b })
      signature = c.signature
    }
  }

  const correction = options.correction ?? "none"
  const raw = comparisons.map((c) => c.pValue ?? Number.NaN)
  const adjusted = correction === "holm" ? Correction.holm(raw) : correction === "bonferroni" ? Correction.bonferroni(raw) : raw
  // The comparisons were made here, so the adjusted p-value is added to each in place: a copy per
  // comparison (`{ ...c, adjustedP }`) cost a tenth of all-pairs bootstrap for 200 runs.
  const withAdjusted: Array<Comparison & { readonly adjustedP?: number }> = comparisons.map((c, i) =>
    c.pValue === undefined ? c : Object.assign(c, { adjustedP: adjusted[i] })
  )

  // zou2007 has no p-value: "different" = interval excludes 0, expressed as p = 0 / 1 for clustering.
  const effectiveP = withAdjusted.map((c) =>
    c.pValue === undefined ? (c.ci !== undefined && (c.ci[0] > 0 || c.ci[1] < 0) ? 0 : 1) : (c.adjustedP ?? c.pValue)
  )
  const lookup = Cluster.fromComparisons(
    runs.length,
    withAdjusted.map((c, i) => ({ a: position[c.a], b: position[c.b], pValue: effectiveP[i] }))
  )
  const best = against === "best" || against === "all" ? Cluster.best(runs.length, lookup, alpha).map((i) => ranking[i]) : []
  return {
    ranking,
    estimates: Array.from(estimates),
    comparisons: withAdjusted,
    best,
    ...(against === "all"
      ? { groups: Cluster.groups(runs.length, lookup, alpha), rankRanges: Cluster.rankRanges(runs.length, lookup, alpha) }
      : {}),
    ...(signature !== undefined ? { signature } : {})
  }
}

/**
 * Joins per-dataset (per-track) scores into the flat arrays + `strata` the resampling tests take:
 * dataset d's pairs get stratum d. Every dataset must list the same runs in the same order.
 *
 * @since 0.1.0
 */
export const concatDatasets = (
  datasets: ReadonlyArray<{ readonly gold: Float64Array; readonly runs: ReadonlyArray<Float64Array> }>
): Outcome<{ readonly gold: Float64Array; readonly runs: ReadonlyArray<Float64Array>; readonly strata: Int32Array }> => {
  if (datasets.length === 0) return new InvalidInput({ field: "datasets", expected: "at least one dataset", found: "none" })
  const K = datasets[0].runs.length
  let n = 0
  for (let d = 0; d < datasets.length; d++) {
    const ds = datasets[d]
    if (ds.runs.length !== K) {
      return new InvalidInput({ field: `datasets[${d}].runs`, expected: `${K} runs`, found: String(ds.runs.length) })
    }
    for (let k = 0; k < K; k++) {
      if (ds.runs[k].length !== ds.gold.length) {
        return new InvalidInput({
          field: `datasets[${d}].runs[${k}]`,
          expected: `${ds.gold.length} scores`,
          found: String(ds.runs[k].length)
        })
      }
    }
    n += ds.gold.length
  }
  const gold = new Float64Array(n)
  const runs = Array.from({ length: K }, () => new Float64Array(n))
  const strata = new Int32Array(n)
  let at = 0
  datasets.forEach((ds, d) => {
    gold.set(ds.gold, at)
    ds.runs.forEach((r, k) => runs[k].set(r, at))
    strata.fill(d, at, at + ds.gold.length)
    at += ds.gold.length
  })
  return { gold, runs, strata }
}
