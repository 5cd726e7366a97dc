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
import type { Metric } from "@stseval/metrics"
import * as Figures from "./internal/figures.js"
import { checkValues } from "./internal/inputs.js"
import type { Values } from "./internal/inputs.js"
import { isPearson, resolve } from "./internal/metric.js"
import { denseStrata } from "./internal/strata.js"
import * as Cocor from "./internal/cocorInputs.js"
import * as Permutation from "./Permutation.js"
import { log10PValue } from "./internal/distributions.js"
import { InvalidInput } from "./TestResult.js"
import type { Alternative, Outcome } from "./TestResult.js"

/**
 * cocor's names for the dependent-overlapping tests, `zou2007` (interval only), or a resampling test.
 *
 * @since 0.1.0
 */
export type TestName = Dependent.TestName | "zou2007" | "bootstrap" | "permutation"

/**
 * Every test `Compare` can run by name: cocor's tests of dependent correlations, Zou's interval,
 * the paired bootstrap and the permutation test.
 *
 * @example
 * ```ts
 * import { Compare } from "@stseval/significance"
 *
 * Compare.testNames // ["pearson1898", ..., "williams1959", ..., "zou2007", "bootstrap", "permutation"]
 * ```
 * @since 0.1.0
 */
export const testNames: ReadonlyArray<TestName> = [...Dependent.testNames, "zou2007", "bootstrap", "permutation"]

/**
 * The test used when none is named for Pearson on one dataset, everywhere: Williams' t, what STS
 * 2017 used.
 *
 * @example
 * ```ts
 * import { Compare } from "@stseval/significance"
 *
 * Compare.defaultTest // "williams1959": STS 2017's test
 * ```
 * @since 0.2.0
 */
export const defaultTest: TestName = "williams1959"

/**
 * The one rule for which test compares two runs: a resampling test asked for is used as asked; an
 * analytic (cocor) test only where it applies, Pearson on one dataset; otherwise `defaultTest` for
 * Pearson on one dataset, and the paired bootstrap on the metric for anything else (an unknown name
 * too: the bootstrap then says so).
 *
 * @example
 * ```ts
 * import { Compare } from "@stseval/significance"
 *
 * Compare.testFor("pearson") // "williams1959"
 * Compare.testFor("pearson", 7) // "bootstrap" (an aggregate of 7 datasets)
 * Compare.testFor("spearman", 1, "steiger1980") // "bootstrap": the cocor tests are for Pearson
 * ```
 * @since 0.5.0
 */
export const testFor = (metric: string | Metric.Metric, datasets: number = 1, requested?: TestName): TestName => {
  if (requested !== undefined && isResampling(requested)) return requested
  const m = resolve("metric", metric)
  return datasets <= 1 && !(m instanceof InvalidInput) && isPearson(m) ? requested ?? defaultTest : "bootstrap"
}

/**
 * Options of a comparison of two runs: the test (default `testFor`), the alternative, the metric
 * and the bootstrap's settings (its p-value: `bootstrapP`).
 *
 * @since 0.1.0
 */
export interface Options extends Omit<Bootstrap.Options, "threads">, Omit<Bootstrap.CompareOptions, "pairs"> {
  /** Default `defaultTest`, `"williams1959"` (what STS 2017 used); the metric chooses it (`testFor`). */
  readonly test?: TestName
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
  /** the bootstrap's p-value method when it is not the shift method's (`Options.bootstrapP`) */
  readonly pMethod?: "normal"
  /** log10 of the p-value once it is below 1e-300, where doubles lose it (p prints as "< 1e-300") */
  readonly log10P?: number
}

const isResampling = (t: TestName): t is "bootstrap" | "permutation" => t === "bootstrap" || t === "permutation"

/** The metric and the test an options object asks for (the one named, else the metric's: `testFor`), checked. */
const chosen = (options: Options): Outcome<{ readonly metric: Metric.Metric; readonly test: TestName }> => {
  const metric = resolve("metric", options.metric)
  if (metric instanceof InvalidInput) return metric
  const test = options.test ?? testFor(metric, options.strata !== undefined ? 2 : 1)
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
  if (!isPearson(metric) && !isResampling(test)) {
    return new InvalidInput({
      field: "metric",
      expected: `pearson for the analytic (cocor) tests; use bootstrap or permutation for ${metric.name}`,
      found: metric.name
    })
  }
  return { metric, test }
}

/**
 * The cocor tests' inputs, every run's side computed once (`Cocor.against`): r(gold, run) of each run,
 * its estimate, with the bits `Figures.estimates` gave (test/AnalyticEstimates.test.ts), and the input
 * of pair p (bit for bit `Dependent.inputFromScores`), r(A, B) by the table of the sides in ranking
 * order (a row's pairs are a span of it).
 */
const correlations = (gold: Float64Array, runs: ReadonlyArray<Float64Array>) => {
  const each = runs.map(Cocor.against(gold))
  const estimates = Float64Array.from(each, (e) => e.r)
  const inputs = (pairA: Int32Array, pairB: Int32Array, ranking: ReadonlyArray<number>, position: Int32Array) => {
    const rKh = new Float64Array(pairA.length)
    const row = Cocor.table(ranking.map((run) => each[run].side))
    for (let p = 0; p < pairA.length;) {
      const from = position[pairB[p]]
      let e = p + 1
      while (e < pairA.length && pairA[e] === pairA[p] && position[pairB[e]] === from + e - p) e++
      row(position[pairA[p]], from, from + e - p, rKh, p)
      p = e
    }
    // one input refilled per pair: a test reads it and keeps none of it
    const input = { rJk: 0, rJh: 0, rKh: 0, n: gold.length }
    return (p: number): Dependent.Input => {
      input.rJk = estimates[pairA[p]]
      input.rJh = estimates[pairB[p]]
      input.rKh = rKh[p]
      return input
    }
  }
  return { estimates, inputs }
}

/** Analytic comparison of runs a and b (indices into `runs`); `input` their correlations when known. */
const analytic = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  a: number,
  b: number,
  test: Exclude<TestName, "bootstrap" | "permutation">,
  options: Options,
  known?: Dependent.Input
): Outcome<Comparison> => {
  const input = known ?? Dependent.inputFromScores(gold, runs[a], runs[b])
  if (input instanceof InvalidInput) return input
  const alternative = options.alternative ?? "two.sided"
  // Identical scores, or a positive linear map of each other (r_kh = 1), make every cocor statistic
  // 0/0: no difference. Within 1e-12, as the marks decide it: rounding leaves r_kh ulps below 1.
  const same = input.rKh >= 1 - 1e-12 || (runs[a].length === runs[b].length && runs[a].every((v, i) => v === runs[b][i]))
  const { rJk: estimateA, rJh: estimateB } = input
  if (test === "zou2007") {
    const r = same ? { ci: [0, 0] as const, confLevel: options.confLevel ?? 0.95 } : Dependent.zou2007(input, options)
    return r instanceof InvalidInput ? r : { test, a, b, estimateA, estimateB, alternative, ci: r.ci, confLevel: r.confLevel }
  }
  if (same) return { test, a, b, estimateA, estimateB, alternative, pValue: 1, statistic: 0 }
  const r = Dependent.tests[test](input, options)
  if (r instanceof InvalidInput) return r
  // one object, fields in printed order, made whole where it can be: a field added later moves the
  // object's fields out of line (124,750 comparisons for 500 runs)
  const c: { -readonly [K in keyof Comparison]: Comparison[K] } = r.pValue < 1e-300
    ? { test, a, b, estimateA, estimateB, alternative, pValue: r.pValue, log10P: log10PValue(r.statistic, alternative, r.df), statistic: r.statistic }
    : { test, a, b, estimateA, estimateB, alternative, pValue: r.pValue, statistic: r.statistic }
  if (r.df !== undefined) c.df = r.df
  if (r.ci !== undefined) {
    c.ci = r.ci
    c.confLevel = r.confLevel ?? 0.95
  }
  return c
}

/** A resampling test's comparison (the bootstrap's with its interval), its p-value the one the options ask for (`bootstrapP`). */
const fromResampling = (
  test: "bootstrap" | "permutation",
  c: Omit<Bootstrap.PairComparison, "ci" | "confLevel"> & Partial<Bootstrap.PairComparison>,
  signature: string,
  options: Options
): Comparison => ({
  test,
  a: c.a,
  b: c.b,
  estimateA: c.estimateA,
  estimateB: c.estimateB,
  alternative: c.alternative,
  pValue: c.pValue,
  statistic: c.difference,
  ...(c.ci !== undefined ? { ci: c.ci, confLevel: c.confLevel } : {}),
  signature,
  valid: c.valid,
  degenerate: c.degenerate,
  ...(test === "bootstrap" && options.bootstrapP === "normal" ? { pMethod: "normal" as const } : {}),
  ...(c.log10P !== undefined ? { log10P: c.log10P } : {})
})

/** The permutation test of runs a and b (their confidences the options' a-th and b-th) as a comparison. */
const permuted = (gold: Values, runA: Values, runB: Values, a: number, b: number, options: Options): Outcome<Comparison> => {
  const r = Permutation.test(gold, runA, runB, { ...options, confidences: options.confidences && [options.confidences[a], options.confidences[b]] })
  return r instanceof InvalidInput ? r : fromResampling("permutation", { ...r, a, b }, r.signatureText, options)
}

/**
 * Compare two runs. `known`: the analytic tests' input when the caller has it already
 * (`Dependent.inputsAgainst`: one run against many), else `Dependent.inputFromScores`'.
 *
 * @example
 * ```ts
 * import { Compare, TestResult } from "@stseval/significance"
 *
 * // gold and two runs on the same pairs (the scoring package gives them aligned)
 * const c = Compare.two(Float64Array.of(1, 2, 3, 4, 5, 6), Float64Array.of(1, 3, 2, 4, 6, 5), Float64Array.of(2, 1, 3, 5, 4, 6))
 * if (!TestResult.isInvalid(c)) console.log(c.test, c.pValue) // Williams' t by default
 * ```
 * @since 0.1.0
 */
export const two = (
  gold: Values,
  runA: Values,
  runB: Values,
  options: Options = {},
  known?: Dependent.Input
): Outcome<Comparison> => {
  const c = chosen(options)
  if (c instanceof InvalidInput) return c
  const { test } = c
  if (test === "bootstrap") {
    const d = Bootstrap.resample(gold, [runA, runB], options)
    if (d instanceof InvalidInput) return d
    return fromResampling(test, Bootstrap.comparePairs(d, { ...options, pairs: [[0, 1]] })[0], d.signatureText, options)
  }
  if (test === "permutation") return permuted(gold, runA, runB, 0, 1, options)
  const notScores = [gold, runA, runB].findIndex((v) => !(v instanceof Float64Array))
  if (notScores >= 0) {
    return new InvalidInput({ field: ["gold", "runA", "runB"][notScores], expected: "a Float64Array of scores (the cocor tests compare Pearson correlations)", found: "something else" })
  }
  return analytic(gold as Float64Array, [runA as Float64Array, runB as Float64Array], 0, 1, test, options, known)
}

type Column = Exclude<keyof ManyResult["figures"], "a" | "b">

/**
 * Options of `many`: which pairs are compared, the correction and the marks' level.
 *
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
 * What `many` gives: the ranking, every comparison (with its adjusted p-value) and the runs tied
 * with the best.
 *
 * @since 0.1.0
 */
export interface ManyResult {
  /** Run indices, best first (by the run's correlation with the gold, or aggregate with strata). */
  readonly ranking: ReadonlyArray<number>
  readonly estimates: ReadonlyArray<number>
  /** `a` is the higher-ranked run of each pair; `adjustedP` after the correction. Made on first read: see `figures`. */
  readonly comparisons: ReadonlyArray<Comparison & { readonly adjustedP?: number }>
  /**
   * The comparisons as columns, pair p at p: its runs a[p] and b[p] and each figure, NaN where its comparison has
   * none, absent where all have none. No object per pair: 124,750 for 500 runs, whose GC cost more than their tests.
   */
  readonly figures: { readonly a: Int32Array; readonly b: Int32Array } & {
    readonly [K in "pValue" | "adjustedP" | "statistic" | "ciLow" | "ciHigh" | "log10P"]?: Float64Array
  }
  /** Runs not significantly different from the best (bold), best included. */
  readonly best: ReadonlyArray<number>
  /** with `against: "all"`, by ranking position: the group (Cluster.groups) and rank range (Cluster.rankRanges) */
  readonly groups?: ReadonlyArray<number>
  readonly rankRanges?: ReadonlyArray<{ readonly lo: number; readonly hi: number }>
  readonly signature?: string
}

/**
 * Rank many runs and compare them (two-sided by default), with optional correction and clusters.
 *
 * @example
 * ```ts
 * import { Compare, TestResult } from "@stseval/significance"
 *
 * const runs = [Float64Array.of(1, 3, 2, 4, 6, 5), Float64Array.of(2, 1, 3, 5, 4, 6)]
 * const result = Compare.many(Float64Array.of(1, 2, 3, 4, 5, 6), runs, { against: "best" })
 * if (!TestResult.isInvalid(result)) result.ranking // run indices, best first
 * ```
 * @since 0.1.0
 */
export const many = (gold: Values, runs: ReadonlyArray<Values>, options: ManyOptions = {}): Outcome<ManyResult> => {
  const c = chosen(options)
  if (c instanceof InvalidInput) return c
  const { metric, test } = c
  const stratumOf = denseStrata(options.strata, gold.length)
  const against = options.against ?? "best"
  const badAgainst = typeof against === "number" && !(Number.isInteger(against) && against >= 0 && against < runs.length)
  // the bootstrap checks the values itself (checkValues, as below): when it resamples, they are
  // good and are not read a second time; when it refuses, the checks below give the same first error
  const resampled = test === "bootstrap" && !badAgainst ? Bootstrap.resample(gold, runs, options) : undefined
  const d = resampled instanceof InvalidInput ? undefined : resampled
  const dataError = d === undefined ? checkValues(metric, gold, runs, options.strata, stratumOf, options.confidences) : undefined
  if (dataError !== undefined) return dataError
  if (badAgainst) return new InvalidInput({ field: "against", expected: `best, all or a run index below ${runs.length}`, found: String(against) })
  if (resampled instanceof InvalidInput) return resampled
  const alpha = options.alpha ?? 0.05

  // the analytic tests' sides give each run's estimate (Pearson on one dataset, the values checked)
  const cocor = !isResampling(test) ? correlations(gold as Float64Array, runs as ReadonlyArray<Float64Array>) : undefined
  // the bootstrap's own estimates, not a second layout
  const estimates =
    d?.estimates ?? cocor?.estimates ?? Figures.estimates({ metric, gold, runs, confidences: options.confidences, stratumOf, aggregate: options.aggregate ?? "weighted" })
  // best first: the highest figure, or the lowest for a metric where lower is better (MSE)
  const lower = metric.direction === "lower"
  const ranking = Array.from(estimates.keys()).sort((x, y) => (lower ? estimates[x] - estimates[y] : estimates[y] - estimates[x]) || x - y)
  const position = new Int32Array(runs.length)
  ranking.forEach((run, i) => (position[run] = i))

  // the pairs as two columns, a the higher-ranked run (no array per pair: 124,750 for 500 runs)
  const K = runs.length
  const ref = against === "all" ? -1 : against === "best" ? ranking[0] : against
  const count = against === "all" ? (K * (K - 1)) / 2 : K - 1
  const pairA = new Int32Array(count)
  const pairB = new Int32Array(count)
  let p = 0
  if (ref < 0) {
    for (let i = 0; i < K; i++) {
      for (let j = i + 1; j < K; j++, p++) {
        pairA[p] = ranking[i]
        pairB[p] = ranking[j]
      }
    }
  } else {
    // the reference and each other run, the higher-ranked first
    for (const run of ranking) {
      if (run === ref) continue
      const refFirst = position[ref] < position[run]
      pairA[p] = refFirst ? ref : run
      pairB[p++] = refFirst ? run : ref
    }
  }

  // the resampling tests' comparisons as they come; the analytic tests' only as columns, made again
  // (the same bits) if `comparisons` is read; a figure's column made when the first comparison with it comes
  const figures: { a: Int32Array; b: Int32Array } & { [K in Column]?: Float64Array } = { a: pairA, b: pairB }
  const put = (column: Column, p: number, x: number) => ((figures[column] ??= new Float64Array(count).fill(Number.NaN))[p] = x)
  const boot = d && Bootstrap.comparePairs(d, { ...options, pairs: Array.from(pairA, (a, p): [number, number] => [a, pairB[p]]) })
  // every run's side of r(gold, run) and r(A, B) computed once (the runs all have the gold's length: checkValues)
  const inputOf = cocor?.inputs(pairA, pairB, ranking, position)
  const at = (p: number): Outcome<Comparison> => {
    const a = pairA[p]
    const b = pairB[p]
    if (test === "bootstrap") return fromResampling(test, boot![p], d!.signatureText, options)
    if (test !== "permutation") return analytic(gold as Float64Array, runs as ReadonlyArray<Float64Array>, a, b, test, options, inputOf?.(p))
    return permuted(gold, runs[a], runs[b], a, b, { ...options, progress: undefined })
  }
  const kept: Array<Comparison> = []
  let signature: string | undefined
  for (let p = 0; p < count; p++) {
    const c = at(p)
    if (c instanceof InvalidInput) {
      return new InvalidInput({ field: `runs ${pairA[p]} vs ${pairB[p]}: ${c.field}`, expected: c.expected, found: c.found })
    }
    if (c.pValue !== undefined) put("pValue", p, c.pValue)
    if (c.statistic !== undefined) put("statistic", p, c.statistic)
    if (c.ci !== undefined) {
      put("ciLow", p, c.ci[0])
      put("ciHigh", p, c.ci[1])
    }
    if (c.log10P !== undefined) put("log10P", p, c.log10P)
    if (isResampling(test)) kept.push(c)
    signature = c.signature
  }
  const comparisons = isResampling(test) ? () => kept : () => Array.from(pairA, (_, p) => at(p) as Comparison)

  // every comparison has a p-value, or none has (zou2007)
  const correction = options.correction ?? "none"
  const pValues = figures.pValue
  if (pValues !== undefined) figures.adjustedP = correction === "none" ? pValues.slice() : Float64Array.from(Correction[correction](pValues))
  // the clusters' table of p-values by ranking position
  const table = new Float64Array(K * K).fill(1)
  for (let p = 0; p < count; p++) {
    // zou2007 has no p-value: "different" = interval excludes 0, expressed as p = 0 / 1 for clustering.
    const effective = figures.adjustedP !== undefined
      ? figures.adjustedP[p]
      : figures.ciLow !== undefined && (figures.ciLow[p] > 0 || figures.ciHigh![p] < 0) ? 0 : 1
    const pa = position[pairA[p]]
    const pb = position[pairB[p]]
    table[pa * K + pb] = effective
    table[pb * K + pa] = effective
  }
  const lookup: Cluster.PValue = (i, j) => table[i * K + j]
  const best = against === "best" || against === "all" ? Cluster.best(K, lookup, alpha).map((i) => ranking[i]) : []
  let made: Array<Comparison & { adjustedP?: number }> | undefined
  return {
    ranking,
    estimates: Array.from(estimates),
    get comparisons() {
      if (made !== undefined) return made
      made = comparisons()
      // adjusted p in place (a copy per comparison cost a tenth of all-pairs bootstrap for 200 runs)
      const adjustedP = figures.adjustedP
      if (adjustedP !== undefined) made.forEach((c, p) => (c.adjustedP = adjustedP[p]))
      return made
    },
    figures,
    best,
    ...(against === "all"
      ? { groups: Cluster.groups(K, lookup, alpha), rankRanges: Cluster.rankRanges(K, lookup, alpha) }
      : {}),
    ...(signature !== undefined ? { signature } : {})
  }
}
