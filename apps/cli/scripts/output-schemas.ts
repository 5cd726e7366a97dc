/**
 * Effect Schemas of the JSON documents that `compare --json`, `significance --json`,
 * `report --format json` and the watcher (`leaderboard.json`, `status.json`) print. Those commands
 * build their documents from TypeScript types, not from Effect Schemas, so these schemas are written
 * by hand from the types; the type-level checks at the end of this file make `tsc` fail when a
 * type gains, loses or retypes a field that the schema does not follow. `schemas.ts` turns them into
 * docs/schemas/*.schema.json (objects closed with `additionalProperties: false`), and
 * test/output-schemas.test.ts validates the real commands' output against those files.
 *
 * JSON.stringify writes NaN as null: fields documented "null when undefined" are correlations or
 * statistics that a constant run (or a resampling with no valid resample) leaves undefined.
 */
import { Schema } from "effect"
import { Issue as FormatsIssue } from "@stseval/formats"
import type { Json, Table } from "@stseval/tables"
import { Compare } from "@stseval/significance"
import type { McNemar } from "@stseval/significance"
import type { Leaderboard as WatcherLeaderboard, Watcher } from "@stseval/watcher"

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description })

/** A float that JSON.stringify writes as null when it is NaN. */
const Real = (description: string) => described(Schema.NullOr(Schema.Finite), `${description}; null when undefined (NaN)`)
const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const Count = (description: string) => described(NonNegativeInt, description)

const Issue = FormatsIssue.Issue.annotate({ identifier: "Issue", description: "a problem found in a file (docs/formats.md lists the codes)" })

// ---------------------------------------------------------------------------------------------
// compare / significance
// ---------------------------------------------------------------------------------------------

const TestName = described(Schema.Literals(Compare.testNames), "the test: a cocor test for two dependent correlations, bootstrap or permutation").annotate({
  identifier: "TestName"
})
const Alternative = described(Schema.Literals(["two.sided", "greater", "less"]), "alternative hypothesis; greater: run A (a) is better")

/** The fields `Compare.Comparison` has besides `a` / `b` (indices in compare, run ids in significance). */
const comparisonFields = {
  test: TestName,
  estimateA: Real("correlation of run A with the gold (or the edition's aggregate of it)"),
  estimateB: Real("correlation of run B with the gold (or the edition's aggregate of it)"),
  alternative: Alternative,
  pValue: Schema.optionalKey(described(Schema.Finite, "p-value; absent for zou2007 (interval only)")),
  statistic: Schema.optionalKey(Real("test statistic; for bootstrap / permutation the difference r(A) - r(B)")),
  df: Schema.optionalKey(described(Schema.Finite, "degrees of freedom (t tests)")),
  ci: Schema.optionalKey(
    described(
      Schema.Tuple([Real("lower bound"), Real("upper bound")]),
      "interval for r(A) - r(B) (zou2007, bootstrap) or, for meng1992, for the Fisher-z difference"
    )
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

export const CompareResults = Schema.Struct({
  format: described(Schema.Literal("stseval/compare@1"), "identifies this document"),
  edition: described(Schema.String, "task edition id"),
  gold: described(Schema.String, "gold file or folder, as given or resolved from the data store"),
  runA: described(Schema.String, "run A's id (team/runN)"),
  runB: described(Schema.String, "run B's id"),
  datasets: described(Schema.Array(CompareRow), "one row per dataset (track) both runs have scored, with the chosen test"),
  aggregate: Schema.optionalKey(
    described(CompareRow, "multi-dataset editions: the edition's aggregate, by bootstrap (or permutation) stratified by dataset")
  ),
  entailment: Schema.optionalKey(described(Entailment, "SICK, when both runs have scored entailment labels")),
  skipped: described(
    Schema.Array(Schema.Struct({ dataset: Schema.String, reason: Schema.String })),
    "datasets (SICK: relatedness / entailment) not compared, with the reason: not scored, or a run's correlation is undefined (constant run)"
  ),
  runErrors: described(Schema.Array(Issue), "the two runs' own errors (why a dataset could not be compared)"),
  errors: described(Schema.Array(Schema.String), "tests that could not be computed, as `<dataset>: <message>`")
})

const SignificanceComparison = Schema.Struct({
  ...comparisonFields,
  a: described(Schema.String, "run id of the higher-ranked run"),
  b: described(Schema.String, "run id of the lower-ranked run"),
  adjustedP: Schema.optionalKey(described(Schema.Finite, "p-value after --correction (equal to pValue with none); absent when pValue is"))
}).annotate({ identifier: "SignificanceComparison" })

export const SignificanceResults = Schema.Struct({
  format: described(Schema.Literal("stseval/significance@1"), "identifies this document"),
  edition: described(Schema.String, "task edition id"),
  gold: described(Schema.String, "gold file or folder"),
  test: TestName,
  aggregate: Schema.optionalKey(
    described(Schema.Literals(["weighted", "unweighted", "pooled"]), "multi-dataset editions: how the datasets are combined (the edition's official rule)")
  ),
  datasets: described(Schema.Array(Schema.String), "datasets (tracks) compared; SICK: relatedness"),
  against: described(Schema.String, "--against as given: best, all or a run id"),
  correction: described(Schema.Literals(["none", "holm", "bonferroni"]), "multiple-comparison correction"),
  alpha: described(Schema.Finite, "significance level"),
  signature: Schema.optionalKey(described(Schema.String, "resampling tests: the reproducibility signature")),
  ranking: described(
    Schema.Array(
      Schema.Struct({
        position: Count("1-based position, best first"),
        run: described(Schema.String, "run id"),
        estimate: Real("the run's correlation (or aggregate)"),
        bold: described(Schema.Boolean, "not significantly different from the best (--against best / all; always false against a run)"),
        group: Schema.optionalKey(Count("--against all: group of mutually indistinguishable runs, 1-based")),
        rankRange: Schema.optionalKey(described(Schema.Tuple([Schema.Int, Schema.Int]), "--against all: range of ranks the run could hold, 1-based, inclusive"))
      })
    ),
    "the compared runs, best first"
  ),
  error: Schema.optionalKey(described(Schema.String, "why nothing was tested (fewer than two comparable runs); ranking and comparisons are then empty and the exit code is 1")),
  comparisons: described(Schema.Array(SignificanceComparison), "every comparison made: each run against the best or the given run, or every pair"),
  excluded: described(
    Schema.Array(Schema.Struct({ run: Schema.String, reason: Schema.String })),
    "runs left out because they are not scored on every dataset considered, or their correlation is undefined there (a constant run)"
  )
})

// ---------------------------------------------------------------------------------------------
// report --format json
// ---------------------------------------------------------------------------------------------

const CellMark = described(Schema.Literals(["best", "tied"]), "best: best figure of the column (bullet); tied: not significantly different from the best (bold)")
const cellCommon = {
  marks: Schema.Array(CellMark),
  display: described(Schema.String, "the cell as printed, without marks (\"-\" when missing)")
}
const Cell = Schema.Union([
  Schema.Struct({
    _tag: Schema.Literal("number"),
    value: Schema.Finite,
    rank: Schema.optionalKey(described(Schema.Int, "the run's rank in this column's own ranking (SemRel: per language), printed after the value")),
    ...cellCommon
  }),
  Schema.Struct({ _tag: Schema.Literal("text"), text: Schema.String, ...cellCommon }),
  Schema.Struct({ _tag: Schema.Literal("missing"), reason: Schema.optionalKey(described(Schema.String, "why the figure is missing")), ...cellCommon })
]).annotate({ identifier: "Cell" })

const Column = Schema.Struct({
  key: described(Schema.String, "stable key: run, rank, a dataset name, wmean, primary, accuracy, pearson, spearman, mse, dev, test..."),
  header: Schema.String,
  align: Schema.Literals(["left", "right", "center"]),
  number: Schema.optionalKey(
    described(
      Schema.Struct({
        decimals: Schema.Int,
        scale: Schema.optionalKey(described(Schema.Finite, "printed value = value * scale (100 for r x 100)")),
        dropLeadingZero: Schema.optionalKey(Schema.Boolean),
        suffix: Schema.optionalKey(Schema.String)
      }),
      "how number cells are printed"
    )
  ),
  group: Schema.optionalKey(described(Schema.String, "header of a group of consecutive columns")),
  rowLabel: Schema.optionalKey(described(Schema.Boolean, "the run-name column (row marks are printed after it)")),
  description: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Column" })

const ReportTable = Schema.Struct({
  id: described(Schema.String, "layout id, e.g. sick2014-table7"),
  title: Schema.String,
  caption: Schema.String,
  label: described(Schema.String, "LaTeX label"),
  wide: described(Schema.Boolean, "LaTeX table* float"),
  columns: Schema.Array(Column),
  sections: Schema.Array(
    Schema.Struct({
      title: described(Schema.NullOr(Schema.String), "section header (e.g. Baselines); null: none"),
      rows: Schema.Array(
        Schema.Struct({
          id: described(Schema.String, "run id"),
          marks: described(Schema.Array(Schema.Literals(["late", "postDeadline"])), "late: late or corrected (*); postDeadline: dagger"),
          cells: described(Schema.Record(Schema.String, Cell), "by column key; every column has a cell")
        })
      )
    })
  ),
  footnotes: Schema.Array(Schema.String),
  scatter: described(
    Schema.Array(
      Schema.Struct({
        dataset: Schema.String,
        runId: Schema.String,
        title: Schema.String,
        gold: described(Schema.Array(Schema.Finite), "gold scores (x), possibly downsampled"),
        run: described(Schema.Array(Schema.Finite), "the run's scores (y), same length"),
        pairs: Count("pairs before downsampling"),
        pearson: Schema.optionalKey(Real("Pearson r"))
      })
    ),
    "scatter plots of the top runs per dataset"
  ),
  pValues: described(
    Schema.Array(
      Schema.Struct({
        dataset: Schema.String,
        test: described(Schema.String, "test name as printed, e.g. Williams' t"),
        alpha: Schema.Finite,
        runs: described(Schema.Array(Schema.String), "run labels, best first"),
        p: described(Schema.Array(Schema.Array(Schema.NullOr(Schema.Finite))), "p[i][j]; null where the comparison could not be made; 1 on the diagonal")
      })
    ),
    "p-value matrices between all runs, per dataset"
  )
}).annotate({ identifier: "Table", description: "one results table (Json.document with extras)" })

export const Report = Schema.Struct({
  format: Schema.Literal("stseval/report@1"),
  edition: described(Schema.String, "task edition id"),
  tables: described(Schema.Array(ReportTable), "the layouts asked for, or the edition's (SICK: tables 7 and 6)")
})

// ---------------------------------------------------------------------------------------------
// watcher: leaderboard.json, status.json
// ---------------------------------------------------------------------------------------------

const Flag = described(
  Schema.Literals(["late", "corrected", "post-deadline", "over-limit", "extra-primary"]),
  "late / corrected (run.json, printed *), post-deadline (printed dagger), over-limit (not ranked), extra-primary (ranked as an ordinary run)"
)
const RunNumber = described(Schema.NullOr(Schema.Int), "run number; null when the name has none")

const OfficialFigure = Schema.Struct({
  ranking: described(Schema.String, "official (STS); relatedness / entailment (SICK)"),
  metric: described(Schema.String, "pearson, accuracy (percent), wmean, mean..."),
  value: described(Schema.NullOr(Schema.Finite), "the figure; null when it could not be computed"),
  reason: Schema.optionalKey(described(Schema.String, "why value is null"))
}).annotate({ identifier: "OfficialFigure" })

const LeaderboardRun = Schema.Struct({
  id: described(Schema.String, "team/runN (team/<name> without a run number; ~2, ~3 on a clash)"),
  entry: described(Schema.String, "the run's name in the submissions folder"),
  kind: Schema.Literals(["file", "folder", "zip"]),
  team: Schema.String,
  run: RunNumber,
  primary: described(Schema.Boolean, "the team's primary run (after the one-primary rule)"),
  status: Schema.Literals(["scored", "failed"]),
  failure: described(Schema.NullOr(Schema.String), "why the run failed"),
  hash: described(Schema.String, "SHA-256 of the run's content"),
  flags: Schema.Array(Flag),
  official: described(Schema.Array(OfficialFigure), "empty in the hidden phase's public view"),
  errors: Schema.Array(Issue),
  warnings: described(Schema.Array(Issue), "empty in the hidden phase's public view")
}).annotate({ identifier: "LeaderboardRun" })

const LeaderboardEntry = Schema.Struct({
  rank: described(Schema.NullOr(Schema.Int), "1-based competition rank; null when not ranked (reason says why)"),
  id: Schema.String,
  team: Schema.String,
  run: RunNumber,
  primary: Schema.Boolean,
  value: Schema.NullOr(Schema.Finite),
  reason: Schema.NullOr(Schema.String),
  flags: Schema.Array(Flag)
}).annotate({ identifier: "LeaderboardEntry" })

export const Leaderboard = Schema.Struct({
  format: Schema.Literal("stseval/leaderboard@1"),
  view: described(Schema.Literals(["full", "public"]), "full: leaderboard.json; public: leaderboard.public.json"),
  hidden: described(Schema.Boolean, "hidden phase: the public view has no figures and no ranks"),
  task: described(Schema.String, "task edition id"),
  runLimit: Count("runs per team"),
  deadline: described(Schema.NullOr(Schema.String), "ISO 8601 instant, or null"),
  primaryOnly: Schema.Boolean,
  counts: Schema.Struct({ runs: NonNegativeInt, scored: NonNegativeInt, failed: NonNegativeInt, ranked: NonNegativeInt }),
  rankings: described(
    Schema.Array(
      Schema.Struct({
        ranking: Schema.String,
        metric: Schema.String,
        entries: described(Schema.Array(LeaderboardEntry), "ranked entries (best first), then the runs not ranked")
      })
    ),
    "one per official figure; empty in the hidden phase's public view"
  ),
  runs: described(Schema.Array(LeaderboardRun), "every published run, by team, run number, name")
})

const Instant = (description: string) => described(Schema.String, `ISO 8601 instant: ${description}`)

export const WatchStatus = Schema.Struct({
  format: Schema.Literal("stseval/watch-status@1"),
  phase: described(Schema.Literals(["starting", "watching", "once", "stopped"]), "starting: first scan; once: --once; stopped: clean exit"),
  idle: described(Schema.Boolean, "nothing queued or scoring"),
  pending: Count("runs queued or scoring"),
  task: Schema.String,
  startedAt: Instant("when the watcher started"),
  updatedAt: Instant("when this file was written"),
  session: described(Schema.Struct({ scored: NonNegativeInt, cacheHits: NonNegativeInt }), "runs scored and taken from the cache since this start"),
  runs: described(
    Schema.Record(
      Schema.String,
      Schema.Struct({
        status: Schema.Literals(["queued", "scoring", "scored", "failed"]),
        id: described(Schema.NullOr(Schema.String), "the run's id on the leaderboard; null before its first publication"),
        team: Schema.NullOr(Schema.String),
        run: Schema.NullOr(Schema.Int),
        hash: Schema.NullOr(Schema.String),
        failure: Schema.NullOr(Schema.String),
        errors: described(Schema.Array(Issue), "errors of the published version"),
        warnings: Count("number of warnings of the published version"),
        postDeadline: Schema.Boolean,
        submittedAt: described(Schema.NullOr(Schema.String), "ISO 8601 submission time used by the deadline rule"),
        firstSeen: Instant("when the watcher first saw this content"),
        updatedAt: Instant("last status change")
      }).annotate({ identifier: "StatusRun" })
    ),
    "by entry name in the submissions folder"
  )
})

// ---------------------------------------------------------------------------------------------
// Type-level checks: every value the code's type allows is allowed by the schema, and both have
// the same fields at every level (so a field added to a type without the schema fails tsc).
// ---------------------------------------------------------------------------------------------

type DeepKeys<T> = T extends ReadonlyArray<infer U>
  ? DeepKeys<U>
  : T extends object
    ? { readonly [K in keyof T]-?: DeepKeys<Exclude<T[K], undefined | null>> }
    : "leaf"
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Check<Code, S extends Schema.Top> = [Code] extends [S["Type"]] ? Same<DeepKeys<Code>, DeepKeys<S["Type"]>> : false
const check = <T extends true>(_ok: T): void => undefined

check<Check<WatcherLeaderboard.Leaderboard, typeof Leaderboard>>(true)
check<Check<Watcher.Status, typeof WatchStatus>>(true)
check<Check<Omit<ReturnType<typeof Json.document>, "scatter" | "pValues"> & { scatter: ReadonlyArray<Table.Scatter>; pValues: ReadonlyArray<Table.PValueMatrix> }, typeof ReportTable>>(true)
check<Check<Compare.Comparison & { a: 0; b: 1 }, typeof Comparison>>(true)
check<Check<McNemar.Result & { accuracyA: number; accuracyB: number }, typeof Entailment>>(true)
check<Check<Omit<Compare.ManyResult["comparisons"][number], "a" | "b"> & { a: string; b: string }, typeof SignificanceComparison>>(true)
