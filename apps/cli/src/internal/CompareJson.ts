/**
 * The `--json` documents of `stseval compare` and `stseval significance`, as Effect Schemas
 * (docs/schemas/compare.schema.json and significance.schema.json are generated from them) and the
 * functions that build them from the significance package's results.
 *
 * JSON has no NaN: a correlation or statistic a constant run (or a resampling with no valid
 * resample) leaves undefined is written as null.
 */
import { Schema } from "effect"
import { Issue } from "@stseval/formats"
import { ResultSchema, Signature } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import type { Compare, McNemar } from "@stseval/significance"
import { testNames } from "./Lazy.js"

export const COMPARE_FORMAT = "stseval/compare@1"
export const SIGNIFICANCE_FORMAT = "stseval/significance@2"

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description })
/** A float that may be undefined (NaN), written as null. */
const Real = (description: string) => described(Schema.NullOr(Schema.Finite), `${description}; null when undefined`)
const Count = (description: string) => described(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), description)
/** What both documents open with: their format, the edition, the gold and what the runs were scored with. */
const headFields = <F extends string>(format: F, gold: string) => ({
  format: described(Schema.Literal(format), "identifies this document"),
  edition: described(Schema.String, "task edition id"),
  gold: described(Schema.String, gold),
  scoring: described(Signature.Signature, "what the runs were scored with (edition, gold, rule, engine)")
})

/** A document's head (`headFields`) from the command's edition, gold and scoring signature. */
export const head = <F extends string>(format: F, edition: string, gold: string, scoring: Signature.Signature) => ({ format, edition, gold, scoring })

const IssueJson = Issue.Issue.annotate({ identifier: "Issue", description: "a problem found in a file (docs/formats.md lists the codes)" })

const TestName = described(Schema.Literals(testNames), "the test: a cocor test for two dependent correlations, bootstrap or permutation").annotate({
  identifier: "TestName"
})
const Alternative = described(Schema.Literals(["two.sided", "greater", "less"]), "alternative hypothesis; greater: run A (a) is better")

/** The fields `Compare.Comparison` has besides `a` / `b`. */
const comparisonFields = {
  test: TestName,
  estimateA: Real("correlation of run A with the gold (or the edition's aggregate of it)"),
  estimateB: Real("correlation of run B with the gold (or the edition's aggregate of it)"),
  alternative: Alternative,
  pValue: Schema.optionalKey(described(Schema.Finite, "p-value; absent for zou2007 (interval only); below 1e-300 see log10P (text prints < 1e-300)")),
  log10P: Schema.optionalKey(described(Schema.Finite, "log10 of the p-value when it is below 1e-300, where a double loses it (Williams' t = 92.8 on 1,379 pairs: -593.9)")),
  pMethod: Schema.optionalKey(
    described(Schema.Literal("normal"), "bootstrap: its p by the normal approximation with the bootstrap standard error (the marks' rule; not floored at 1 / (resamples + 1)); absent: the shift method's (count + 1) / (valid + 1)")
  ),
  statistic: Schema.optionalKey(Real("test statistic; for bootstrap / permutation the difference r(A) - r(B)")),
  df: Schema.optionalKey(described(Schema.Finite, "degrees of freedom (t tests)")),
  ci: Schema.optionalKey(
    described(Schema.Tuple([Real("lower bound"), Real("upper bound")]), "interval for r(A) - r(B) (zou2007, bootstrap) or, for meng1992, for the Fisher-z difference")
  ),
  confLevel: Schema.optionalKey(described(Schema.Finite, "confidence level of ci")),
  signature: Schema.optionalKey(described(Schema.String, "resampling: the reproducibility signature (method, resamples, seed, metric, strata, rng, version)")),
  valid: Schema.optionalKey(Count("resampling: resamples used")),
  degenerate: Schema.optionalKey(Count("resampling: resamples left out because a correlation was undefined"))
}

const Comparison = Schema.Struct({
  ...comparisonFields,
  a: described(Schema.Literal(0), "run A"),
  b: described(Schema.Literal(1), "run B")
}).annotate({ identifier: "Comparison", description: "run A against run B (Compare.Comparison)" })

const CompareRow = Schema.Struct({
  dataset: described(Schema.String, "dataset (track) name, `relatedness` for SICK, or `aggregate (<weighted|unweighted|pooled>)`"),
  pairs: Count("pairs compared"),
  comparison: Comparison
})
type CompareRow = typeof CompareRow.Type

const Entailment = Schema.Struct({
  method: described(Schema.Literals(["exact", "chisq"]), "exact binomial when b + c < 25, else chi-square with continuity correction"),
  b: Count("pairs run A labelled right and run B wrong"),
  c: Count("pairs run B labelled right and run A wrong"),
  statistic: described(Schema.Finite, "chi-square statistic (chisq) or b (exact)"),
  df: Schema.optionalKey(described(Schema.Finite, "1 (chisq only)")),
  pValue: described(Schema.Finite, "two-sided p-value"),
  accuracyA: described(Schema.Finite, "run A's entailment accuracy in percent, as `score` gives it"),
  accuracyB: described(Schema.Finite, "run B's entailment accuracy in percent")
}).annotate({ identifier: "Entailment", description: "SICK entailment: McNemar's test on the discordant pairs" })

const Skipped = Schema.Struct({ dataset: Schema.String, reason: Schema.String })

const OfficialSide = Schema.Struct({
  value: Real("the run's official figure"),
  reason: Schema.optionalKey(described(Schema.String, "why it has none")),
  zeroed: described(Schema.Array(Schema.String), "datasets that entered it as the metric's missing value (0 under the zero rule)")
})

export const CompareResults = Schema.Struct({
  ...headFields(COMPARE_FORMAT, "gold file or folder, as given or resolved from the data store"),
  runA: described(Schema.String, "run A's id (team/runN)"),
  runB: described(Schema.String, "run B's id"),
  metric: described(Schema.String, "the metric compared (a registry name: pearson, spearman, kendall, mse...): --metric, else the one the edition ranks by"),
  runs: described(Schema.Array(ResultSchema.RunJson), "runs A and B: who submitted them, primary, late, corrected, post-deadline"),
  datasets: described(Schema.Array(CompareRow), "one row per dataset (track) both runs have scored, with the chosen test"),
  official: Schema.optionalKey(
    described(
      Schema.Struct({
        ranking: Schema.String,
        rule: described(Schema.Literals(["weighted", "unweighted", "pooled"]), "how the datasets are combined (the ranking's rule)"),
        complete: described(Schema.Boolean, "both runs have every dataset of the ranking: `aggregate` tests the official figure"),
        a: OfficialSide,
        b: OfficialSide,
        reason: Schema.optionalKey(described(Schema.String, "why the official figure is not tested"))
      }),
      "multi-dataset editions: the two runs' official figures by the edition's rule, as rank ranks them"
    )
  ),
  aggregate: Schema.optionalKey(
    described(CompareRow, "multi-dataset editions, both runs with every dataset: the official figure, by bootstrap (or permutation) stratified by dataset")
  ),
  shared: Schema.optionalKey(
    described(CompareRow, "a run lacks a dataset: the datasets both runs have, combined by the ranking's rule (not the official figure), by bootstrap stratified by dataset")
  ),
  entailment: Schema.optionalKey(described(Entailment, "SICK, when both runs have scored entailment labels")),
  skipped: described(
    Schema.Array(Skipped),
    "datasets (SICK: relatedness / entailment) not compared, with the reason: not scored, or a run's correlation is undefined (constant run)"
  ),
  runErrors: described(Schema.Array(IssueJson), "the two runs' own errors (why a dataset could not be compared)"),
  errors: described(Schema.Array(Schema.String), "tests that could not be computed, as `<dataset>: <message>`")
}).annotate({ identifier: "CompareResults", title: "stseval compare --json" })
export type CompareResults = typeof CompareResults.Type

const SignificanceComparison = Schema.Struct({
  ...comparisonFields,
  a: described(Schema.String, "run id of the higher-ranked run"),
  b: described(Schema.String, "run id of the lower-ranked run"),
  adjustedP: Schema.optionalKey(described(Schema.Finite, "p-value after --correction (equal to pValue with none); absent when pValue is"))
}).annotate({ identifier: "SignificanceComparison" })

const RankingEntry = Schema.Struct({
  position: Count("1-based position, best first"),
  run: described(Schema.String, "run id"),
  team: Schema.String,
  primary: Schema.Boolean,
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  postDeadline: Schema.Boolean,
  estimate: Real("the run's figure of the metric compared (or its aggregate)"),
  bold: described(Schema.Boolean, "not significantly different from the best (--against best / all; always false against a run)"),
  group: Schema.optionalKey(Count("--against all: group of mutually indistinguishable runs, 1-based")),
  rankRange: Schema.optionalKey(described(Schema.Tuple([Schema.Int, Schema.Int]), "--against all: range of ranks the run could hold, 1-based, inclusive"))
})

/** Rows of the upper triangle of the runs x runs matrix: row i holds runs[i] against each run below it. */
const Rows = (description: string) => described(Schema.Array(Schema.Array(Schema.NullOr(Schema.Finite))), `${description}; null when undefined`)

const SignificanceMatrix = Schema.Struct({
  pValue: Schema.optionalKey(Rows("p-value of runs[i] (a, the higher-ranked run) against runs[i + 1 + k] (b) at [i][k]; absent for zou2007 (interval only)")),
  adjustedP: Schema.optionalKey(Rows("p-value after --correction, at the same places; absent with --correction none")),
  statistic: Schema.optionalKey(Rows("test statistic at the same places; for bootstrap / permutation the difference r(a) - r(b)")),
  ciLow: Schema.optionalKey(Rows("lower bound of the interval for r(a) - r(b) (zou2007, bootstrap; meng1992: of the Fisher-z difference)")),
  ciHigh: Schema.optionalKey(Rows("upper bound of that interval")),
  log10P: Schema.optionalKey(
    Rows("log10 of the p-value where it is below 1e-300 (a double loses it there, down to 0), null elsewhere; present only when some pair's p is that small")
  )
}).annotate({
  identifier: "SignificanceMatrix",
  description:
    "--against all without --records: every pair, compactly: the upper triangle of the runs x runs matrix in `runs` order (best first), one row per run but the last, row i holding runs[i] against each run below it, so that the pair (runs[i], runs[j]), i < j, is at [i][j - i - 1]; each field a matrix of one figure of the comparisons"
})

const SignificanceTest = Schema.Struct({
  ranking: described(
    Schema.String,
    "the ranking tested, as rank names it: official (one ranking), relatedness (SICK), or a dataset of an edition ranked per dataset (SemRel's languages)"
  ),
  test: TestName,
  metric: described(Schema.String, "the metric compared (a registry name): --metric, else the one the ranking orders runs by"),
  aggregate: Schema.optionalKey(
    described(Schema.Literals(["weighted", "unweighted", "pooled"]), "a ranking over several datasets: how they are combined (its official rule)")
  ),
  datasets: described(Schema.Array(Schema.String), "datasets (tracks) compared"),
  signature: Schema.optionalKey(described(Schema.String, "resampling tests: the reproducibility signature")),
  resamples: Schema.optionalKey(Count("resampling tests: the resamples")),
  rule: Schema.optionalKey(described(Schema.String, "the test, resamples, p-value, correction and alpha as the text prints them (as report's footnotes)")),
  error: Schema.optionalKey(described(Schema.String, "why nothing was tested in this ranking (fewer than two comparable runs); runs and comparisons are then empty")),
  runs: described(Schema.Array(RankingEntry), "the runs the ranking ranks that could be compared, best first"),
  comparisons: described(
    Schema.Array(SignificanceComparison),
    "every comparison made as a record: each run against the best or the given run, or (--against all, with --records) every pair; empty with --against all without --records (see matrix)"
  ),
  matrix: Schema.optionalKey(SignificanceMatrix),
  excluded: described(
    Schema.Array(Schema.Struct({ run: Schema.String, reason: Schema.String })),
    "runs of the folder not tested in this ranking, with the reason: not ranked (post-deadline, failed, not primary; as rank says), not scored on every dataset considered, or their figure undefined there"
  )
}).annotate({ identifier: "SignificanceTest" })

export const SignificanceResults = Schema.Struct({
  ...headFields(SIGNIFICANCE_FORMAT, "gold file or folder"),
  against: described(Schema.String, "--against as given: best, all or a run id"),
  correction: described(Schema.Literals(["none", "holm", "bonferroni"]), "multiple-comparison correction (within each ranking)"),
  alpha: described(Schema.Finite, "significance level"),
  tests: described(
    Schema.Array(SignificanceTest),
    "one per ranking of graded scores, in rank's order (with --dataset: that dataset's); the exit code is 1 when any has an error"
  ),
  skipped: described(
    Schema.Array(Schema.Struct({ ranking: Schema.String, reason: Schema.String })),
    "rankings not tested, with the reason (a ranking of labels: compare two runs with McNemar's test instead)"
  )
}).annotate({ identifier: "SignificanceResults", title: "stseval significance --json" })
export type SignificanceResults = typeof SignificanceResults.Type

// ---------------------------------------------------------------------------------------------

const real = (x: number): number | null => (Number.isFinite(x) ? x : null)

type ComparisonFields = Schema.Struct<typeof comparisonFields>["Type"]

/**
 * A comparison's fields as JSON (NaN as null), without `a` / `b`, in the schema's key order. Built
 * key by key rather than with conditional spreads: `significance --against all` writes one per pair
 * of runs (19,900 for 200 runs), where the spreads cost about a third of the JSON output's time.
 */
export const comparisonJson = (c: Compare.Comparison): ComparisonFields => {
  const o: { -readonly [K in keyof ComparisonFields]: ComparisonFields[K] } = {
    test: c.test,
    estimateA: real(c.estimateA),
    estimateB: real(c.estimateB),
    alternative: c.alternative
  }
  if (c.pValue !== undefined) o.pValue = c.pValue
  if (c.log10P !== undefined) o.log10P = c.log10P
  if (c.pMethod !== undefined) o.pMethod = c.pMethod
  if (c.statistic !== undefined) o.statistic = real(c.statistic)
  if (c.df !== undefined) o.df = c.df
  if (c.ci !== undefined) o.ci = [real(c.ci[0]), real(c.ci[1])]
  if (c.confLevel !== undefined) o.confLevel = c.confLevel
  if (c.signature !== undefined) o.signature = c.signature
  if (c.valid !== undefined) o.valid = c.valid
  if (c.degenerate !== undefined) o.degenerate = c.degenerate
  return o
}

export const compareRow = (dataset: string, pairs: number, c: Compare.Comparison): CompareRow => ({
  dataset,
  pairs,
  comparison: { ...comparisonJson(c), a: 0, b: 1 }
})

export const entailmentJson = (m: McNemar.Result, accuracyA: number, accuracyB: number): typeof Entailment.Type => ({
  method: m.method,
  b: m.b,
  c: m.c,
  statistic: m.statistic,
  ...(m.df !== undefined ? { df: m.df } : {}),
  pValue: m.pValue,
  accuracyA,
  accuracyB
})

/** A ranked run of `significance --json`. */
export const rankingEntry = (
  run: ScoredRun.ScoredRun,
  position: number,
  estimate: number,
  bold: boolean,
  clusters: { readonly group?: number; readonly rankRange?: readonly [number, number] }
): typeof RankingEntry.Type => ({
  position,
  run: run.meta.id,
  team: run.meta.team,
  primary: run.meta.primary,
  late: run.meta.late,
  corrected: run.meta.corrected,
  postDeadline: run.meta.postDeadline,
  estimate: real(estimate),
  bold,
  ...(clusters.group !== undefined ? { group: clusters.group } : {}),
  ...(clusters.rankRange !== undefined ? { rankRange: clusters.rankRange } : {})
})

/** A matrix of the comparisons' rows (`SignificanceMatrix`). */
type Rows = Array<Array<number | null>>

/**
 * `--against all`'s comparisons (`Compare.ManyResult`'s figures) as `SignificanceMatrix`: `position[run]` is
 * the run's place in the test's `runs` (best first, K runs); every comparison's higher-ranked run `a` comes first.
 */
export const significanceMatrix = (
  figures: Compare.ManyResult["figures"],
  position: ArrayLike<number>,
  K: number,
  correction: string
): typeof SignificanceMatrix.Type => {
  // Each row an array of doubles, NaN where the schema has null (JSON.stringify writes a non-finite
  // number as null, as `real` does): V8 keeps such an array unboxed (a row of `number | null` holds
  // each number as an object of its own: 374,250 for Williams' t on 500 runs) and stringifies it
  // on its fast path. Pushed, not `new Array(n)`: a preallocated array stays holey, off that path.
  const rows = (column: Float64Array | undefined): Rows => {
    const m: Array<Array<number>> = []
    for (let i = 0; i < K - 1; i++) {
      const row: Array<number> = []
      for (let k = i + 1; k < K; k++) row.push(Number.NaN)
      m.push(row)
    }
    for (let p = 0; column !== undefined && p < figures.a.length; p++) {
      const pa = position[figures.a[p]]
      const pb = position[figures.b[p]]
      const i = pa < pb ? pa : pb
      m[i][(pa < pb ? pb : pa) - i - 1] = column[p]
    }
    return m
  }
  // where a p is past a double's range, its logarithm (the p itself prints 0 or a denormal)
  const { pValue, adjustedP, statistic, ciLow, ciHigh, log10P } = figures
  return {
    ...(pValue !== undefined ? { pValue: rows(pValue) } : {}),
    ...(pValue !== undefined && correction !== "none" ? { adjustedP: rows(adjustedP) } : {}),
    ...(statistic !== undefined ? { statistic: rows(statistic) } : {}),
    ...(ciLow !== undefined && ciHigh !== undefined ? { ciLow: rows(ciLow), ciHigh: rows(ciHigh) } : {}),
    ...(log10P !== undefined ? { log10P: rows(log10P) } : {})
  }
}

/**
 * The document as `JSON.stringify(document, null, 2)` writes it, but each row of a `matrix` on one
 * line: the pretty form puts every number on a line of its own, which for the 124,750 pairs of 500
 * runs is most of the output (and of its writing time).
 */
export const significanceText = (document: SignificanceResults): string => {
  const token = `\u0000row${Math.random().toString(36).slice(2)}:`
  const rows: Array<string> = []
  const compact = (m: Rows | undefined) => m?.map((row) => {
    rows.push(JSON.stringify(row))
    return `${token}${rows.length - 1}`
  })
  const withPlaceholders: SignificanceResults = {
    ...document,
    tests: document.tests.map((t) => {
      if (t.matrix === undefined) return t
      const m = t.matrix
      return {
        ...t,
        matrix: Object.fromEntries(Object.entries(m).map(([key, value]) => [key, compact(value as Rows)]))
      }
    })
  }
  // a placeholder is a JSON string holding a NUL (escaped as \u0000, which no other string of the
  // document can hold: ids and paths come from file names) and a random token
  const escaped = JSON.stringify(token).slice(1, -1)
  return JSON.stringify(withPlaceholders, null, 2).replace(new RegExp(`"${escaped.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}(\\d+)"`, "g"), (_, i: string) => rows[Number(i)])
}

export const significanceComparison = (c: Compare.Comparison & { readonly adjustedP?: number }, ids: ReadonlyArray<string>): typeof SignificanceComparison.Type => {
  const o: { -readonly [K in keyof typeof SignificanceComparison.Type]: (typeof SignificanceComparison.Type)[K] } = Object.assign(comparisonJson(c), { a: ids[c.a], b: ids[c.b] })
  if (c.adjustedP !== undefined) o.adjustedP = c.adjustedP
  return o
}
