/**
 * The one JSON shape of a scored, ranked result that every app emits (scored runs, rankings and
 * whole scoring sessions), defined as Effect Schemas; `ResultJson` turns a result into it (docs/schemas/scored-results.schema.json is generated from `ScoredResults`; see
 * docs/scoring.md).
 *
 * Conventions:
 * - numbers are full-precision JSON numbers (what `JSON.stringify` writes for a double: the
 *   shortest text that reads back to the same value); accuracy is in percent;
 * - a metric that has no value is `null`, and the object holding it has an `undefined` member
 *   mapping that field's name to the reason, e.g.
 *   `{ "pearson": null, "spearman": null, "undefined": { "pearson": "the run is constant", ... } }`;
 *   `undefined` is absent when every metric of the object has a value;
 * - every dataset is under `datasets.<name>` in the edition's order (SICK's two subtasks are the
 *   datasets `relatedness` and `entailment`), with every metric its ranking declares under
 *   `figures.<metric>` (registry names: `pearson`, `spearman`, `kendall`, `mse`, `accuracy`...);
 *   each ranking's official figure is in `official` (rule, direction, the datasets that entered) and
 *   its labelled aggregates under `aggregates.<ranking>.<rule>` (`wmean`, `mean`, `pooled`,
 *   `allnrm`); an edition ranked per dataset (SemEval-2024 Task 1) has one `official` figure per
 *   dataset (`ranking` = the dataset) and its aggregate carries `unofficial`;
 * - each run's issues are split into `errors`, `warnings` and `infos`.
 *
 * @since 0.1.0
 */
import { Issue } from "@stseval/formats"
import { Schema } from "effect"
import * as Rule from "./internal/marksRule.js"
import * as Signature from "./Signature.js"

/**
 * Version tag of the document shape; bumped on an incompatible change.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * ResultSchema.FORMAT // "stseval/scored-results@2": the `format` of every scored-results document
 * const readable = (document: { readonly format?: unknown }) => document.format === ResultSchema.FORMAT
 * ```
 * @since 0.1.0
 */
export const FORMAT = "stseval/scored-results@2"

const Figure = Schema.NullOr(Schema.Finite).annotate({ description: "the metric's value, or null when it is undefined (the reason is in `undefined`)" })
const Reasons = Schema.Record(Schema.String, Schema.String).annotate({
  description: "for each metric of this object that is null: why it has no value"
})
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * A bootstrap percentile interval on a figure (`--ci`).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * const ci: typeof ResultSchema.IntervalJson.Type = { low: 0.81, high: 0.84, level: 0.95 }
 * ```
 * @since 0.2.0
 */
export const IntervalJson = Schema.Struct({
  low: Schema.Finite,
  high: Schema.Finite,
  level: Schema.Finite.annotate({ description: "confidence level, e.g. 0.95" }),
  fewPairs: Schema.optionalKey(
    Schema.Number.annotate({
      description:
        "present when the figure rests on fewer than 100 pairs: how many. Percentile intervals there miss their level: Pearson's hold the true value less often (about 93% at 50 pairs on normal data), Spearman's more often (96-97% at 20-30 pairs); docs/significance.md, Coverage"
    })
  ),
  skewed: Schema.optionalKey(
    Schema.Number.annotate({
      description:
        "a Pearson figure on skewed data: the largest |sample skewness| of the gold and the run, when above 2. Its percentile interval is unreliable (90-93% coverage for 95% on lognormal data; docs/significance.md, Coverage)"
    })
  )
}).annotate({ identifier: "Interval", description: "percentile bootstrap interval over pairs (see docs/significance.md)" })

/**
 * What `--ci` adds to an object holding a figure (`ci`, `ciReason`, `degenerate`): its interval,
 * or why it has none; spread into a Struct's fields (the leaderboard's figures and entries too).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * // a figure of one's own that carries an interval the way every JSON output does
 * const MyFigure = Schema.Struct({ value: Schema.NullOr(Schema.Finite), ...ResultSchema.ciFields })
 * ```
 * @since 0.2.0
 */
export const ciFields = {
  ci: Schema.optionalKey(Schema.NullOr(IntervalJson).annotate({ description: "with --ci: the figure's interval, or null (see ciReason)" })),
  ciReason: Schema.optionalKey(Schema.String.annotate({ description: "why the figure has no interval" })),
  degenerate: Schema.optionalKey(Count.annotate({ description: "resamples in which a correlation entering this figure was undefined" }))
}

/**
 * A figure with its interval (`--ci`): `{ "value", "ci": { "low", "high", "level" } }`; `ci` is
 * null when there is none, and `ciReason` says why.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * const figure: typeof ResultSchema.FigureWithIntervalJson.Type = { value: 0.8264, ci: { low: 0.81, high: 0.84, level: 0.95 } }
 * ```
 * @since 0.2.0
 */
export const FigureWithIntervalJson = Schema.Struct({ value: Figure, ...ciFields }).annotate({ identifier: "FigureWithInterval" })
/** A figure: a number (or null), or with `--ci` an object holding it and its interval. */
const FigureOrInterval = Schema.Union([Figure, FigureWithIntervalJson])

/**
 * The interval of a rank, in whole ranks (`--ci`).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * const rank: typeof ResultSchema.RankIntervalJson.Type = { low: 1, high: 3 }
 * ```
 * @since 0.2.0
 */
export const RankIntervalJson = Schema.Struct({ low: Schema.Int, high: Schema.Int }).annotate({
  identifier: "RankInterval",
  description: "the run's rank in the central level share of the resamples, widened to whole ranks"
})

/**
 * The settings of the intervals, once per document (`--ci`).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * declare const text: string // the `intervals` object of a `--ci` output
 * const value = Schema.decodeUnknownSync(ResultSchema.IntervalsJson)(JSON.parse(text))
 * ```
 * @since 0.2.0
 */
export const IntervalsJson = Schema.Struct({
  method: Schema.Literal("percentile-bootstrap"),
  level: Schema.Finite,
  resamples: Schema.Int,
  seed: Schema.Int,
  signature: Schema.String.annotate({ description: "every setting that changes the intervals" }),
  notes: Schema.Array(Schema.String).annotate({ description: "figures with degenerate resamples, in words" })
}).annotate({ identifier: "Intervals" })

/**
 * A run's identity in the JSON: id, team, run number, primary flag, and its run.json's late /
 * corrected / post-deadline flags.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * declare const text: string // a run's identity in scored JSON
 * const value = Schema.decodeUnknownSync(ResultSchema.RunJson)(JSON.parse(text))
 * ```
 * @since 0.1.0
 */
export const RunJson = Schema.Struct({
  id: Schema.String,
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  late: Schema.Boolean.annotate({ description: "submitted late (run.json); published tables print *" }),
  corrected: Schema.Boolean.annotate({ description: "a corrected resubmission (run.json); published tables print *" }),
  postDeadline: Schema.Boolean.annotate({ description: "sent after the evaluation closed, scored for the record; published tables print a dagger" }),
  description: Schema.optionalKey(Schema.String),
  identityUnknown: Schema.optionalKey(
    Schema.Literal(true).annotate({
      description:
        "its run.json could not be used (bad-run-metadata), so who submitted it is unknown: id and team are its file name; it failed, counts toward no team's run limit and is never ranked"
    })
  )
}).annotate({ identifier: "Run", description: "who submitted the run (from its name or run.json)" })

/**
 * One label's precision, recall and F1 (null when undefined, the reason in `undefined`), and its
 * gold pairs (`support`).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * const neutral: typeof ResultSchema.ClassJson.Type = { precision: 0.5, recall: 0.5, f1: 0.5, support: 2 }
 * ```
 * @since 0.1.0
 */
export const ClassJson = Schema.Struct({
  precision: Figure,
  recall: Figure,
  f1: Figure,
  support: Count,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "LabelClass" })

/**
 * A labels dataset's confusion matrix and per-class figures.
 *
 * @example
 * ```ts
 * import { ResultJson, ResultSchema, ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // a SICK run
 * const labels: typeof ResultSchema.LabelsJson.Type | undefined = ResultJson.toJson(run).datasets["entailment"]?.labels
 * labels?.correct // pairs labelled as the gold labels them
 * ```
 * @since 0.3.0
 */
export const LabelsJson = Schema.Struct({
  labels: Schema.Array(Schema.String),
  confusion: Schema.Array(Schema.Array(Count)).annotate({ description: "confusion[gold][run], rows and columns in `labels` order" }),
  correct: Count,
  perClass: Schema.Record(Schema.String, ClassJson)
}).annotate({ identifier: "Labels" })

/**
 * One dataset of a scored run, under `datasets.<name>`.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * // STS 2014, a run without a file for tweet-news: every figure null, and why
 * const missing: typeof ResultSchema.DatasetJson.Type = {
 *   subtask: "similarity",
 *   status: "missing",
 *   reason: "the run has no file for dataset tweet-news",
 *   pairs: 0,
 *   weight: 750,
 *   runLines: 0,
 *   figures: { pearson: null, spearman: null },
 *   undefined: { pearson: "the run has no file for dataset tweet-news", spearman: "the run has no file for dataset tweet-news" }
 * }
 * ```
 * @since 0.1.0
 */
export const DatasetJson = Schema.Struct({
  subtask: Schema.String.annotate({ description: "the subtask (ranking) the dataset belongs to" }),
  status: Schema.Literals(["scored", "not-scored", "missing", "no-gold"]).annotate({
    description:
      "no-gold: there is no gold to score it against (never released, e.g. SemRel esp); listed with the reason, never counted against the run"
  }),
  reason: Schema.optionalKey(Schema.String).annotate({ description: "why the dataset is not scored" }),
  file: Schema.optionalKey(Schema.String),
  pairs: Count.annotate({ description: "pairs scored" }),
  weight: Count.annotate({ description: "pairs the dataset weighs in the weighted mean (its annotated gold pairs)" }),
  runLines: Count.annotate({ description: "records in the run file" }),
  linesScored: Schema.optionalKey(Schema.Tuple([Schema.Int, Schema.Int])).annotate({ description: "first and last run line scored (1-based), when matched by line" }),
  figures: Schema.Record(Schema.String, FigureOrInterval).annotate({
    description: "every metric the dataset's ranking declares, by registry name (pearson, spearman, kendall, mse, accuracy...); with --ci each with its interval"
  }),
  labels: Schema.optionalKey(LabelsJson),
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Dataset" })

/**
 * One labelled aggregate of a ranking's datasets (`wmean`, `mean`, `pooled`, `allnrm`).
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * // STS 2014, LIPN-run2 (deft-forum only, r = 0.084): the weighted mean of the datasets with a figure
 * // (its official figure, with the five others entered as r = 0, is 0.010)
 * const wmean: typeof ResultSchema.AggregateJson.Type = { metric: "pearson", value: 0.084, datasets: ["deft-forum"], zeroed: [] }
 * ```
 * @since 0.1.0
 */
export const AggregateJson = Schema.Struct({
  metric: Schema.String.annotate({ description: "the metric aggregated (the ranking's)" }),
  value: Figure,
  unofficial: Schema.optionalKey(Schema.String).annotate({
    description: "present when the edition ranks runs per dataset (SemEval-2024 Task 1): why this aggregate is not an official figure"
  }),
  datasets: Schema.Array(Schema.String).annotate({ description: "datasets whose figure entered the aggregate" }),
  zeroed: Schema.Array(Schema.Struct({ dataset: Schema.String, reason: Schema.String })).annotate({
    description: "datasets that entered as the metric's missing value (r = 0) under the edition's missing-dataset rule"
  }),
  ...ciFields,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Aggregate" })

/**
 * The labelled aggregates of a ranking, by rule.
 *
 * @example
 * ```ts
 * import { ResultJson, ResultSchema, ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS 2012 run
 * const byRule: typeof ResultSchema.AggregateJsonByName.Type | undefined = ResultJson.toJson(run).aggregates["official"]
 * byRule?.allnrm?.value // ALLnrm, beside the official ALL
 * ```
 * @since 0.2.0
 */
export const AggregateJsonByName = Schema.Struct({
  wmean: Schema.optionalKey(AggregateJson),
  mean: Schema.optionalKey(AggregateJson),
  pooled: Schema.optionalKey(AggregateJson),
  allnrm: Schema.optionalKey(AggregateJson)
})

/**
 * One official figure of a scored run in the JSON: the ranking and metric it serves, how its
 * datasets were combined, its value, and the datasets zeroed.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * declare const text: string // one official figure
 * const value = Schema.decodeUnknownSync(ResultSchema.OfficialJson)(JSON.parse(text))
 * ```
 * @since 0.1.0
 */
export const OfficialJson = Schema.Struct({
  ranking: Schema.String.annotate({ description: "official (one ranking), the subtask (SICK: relatedness, entailment), or the dataset of a ranking per dataset" }),
  metric: Schema.String.annotate({ description: "the metric of the figure (registry name)" }),
  rule: Schema.String.annotate({ description: "how the datasets were combined: wmean, mean, pooled, allnrm, single, or dataset (a ranking per dataset)" }),
  direction: Schema.Literals(["higher", "lower"]).annotate({ description: "which values are better" }),
  value: Figure,
  datasets: Schema.Array(Schema.String).annotate({ description: "datasets whose figure entered it" }),
  zeroed: Schema.Array(Schema.Struct({ dataset: Schema.String, reason: Schema.String })),
  ...ciFields,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Official" })

/**
 * One scored (or failed) run in the JSON: its identity, per-dataset figures, aggregates and
 * official figures, and the issues scoring found.
 *
 * @example
 * ```ts
 * import { ResultJson, ResultSchema, ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * const json: ResultSchema.ScoredRunJson = ResultJson.toJson(run)
 * ```
 * @since 0.1.0
 */
export const ScoredRunJson = Schema.Struct({
  edition: Schema.String,
  path: Schema.String,
  run: RunJson,
  status: Schema.Literals(["scored", "failed"]),
  failure: Schema.optionalKey(Schema.String),
  datasets: Schema.Record(Schema.String, DatasetJson),
  aggregates: Schema.Record(Schema.String, AggregateJsonByName).annotate({ description: "labelled aggregates of each ranking over several datasets, by ranking name" }),
  official: Schema.Array(OfficialJson),
  errors: Schema.Array(Issue.Issue),
  warnings: Schema.Array(Issue.Issue),
  infos: Schema.Array(Issue.Issue)
}).annotate({ identifier: "ScoredRun" })
/** @since 0.1.0 */
export type ScoredRunJson = typeof ScoredRunJson.Type

/**
 * A flag on a run in the JSON: late, corrected, post-deadline, over the team's run limit, an extra
 * primary run, or zeroed.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * Schema.is(ResultSchema.FlagJson)("over-limit") // true
 * ```
 * @since 0.2.0
 */
export const FlagJson = Schema.Literals(["late", "corrected", "post-deadline", "over-limit", "extra-primary", "zeroed"]).annotate({
  identifier: "Flag",
  description: "late / corrected (run.json, printed *), post-deadline (printed with a dagger), over-limit (beyond the team's run limit: not ranked), extra-primary (the team already has a primary run), zeroed (an official figure counts a dataset the run lacks or that failed as the metric's missing value, r = 0: ranked, printed with a superscript 0)"
})

/**
 * Who a run is, as a ranking's entries and `validate --json`'s runs name it: its id, team, run
 * number, whether it is the team's primary run, and its run.json's late / corrected /
 * post-deadline flags.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * const Named = Schema.Struct({ ...ResultSchema.runIdentityFields, path: Schema.String })
 * ```
 * @since 0.4.0
 */
export const runIdentityFields = {
  id: Schema.String,
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  postDeadline: Schema.Boolean
}

/**
 * One entry of a ranking in the JSON: the run's rank (null when not ranked, with the reason), its
 * identity, flags and figure, with its intervals under `--ci`.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * declare const text: string // one entry of a ranking
 * const value = Schema.decodeUnknownSync(ResultSchema.RankEntryJson)(JSON.parse(text))
 * ```
 * @since 0.1.0
 */
export const RankEntryJson = Schema.Struct({
  rank: Schema.NullOr(Schema.Int).annotate({ description: "null when the run is not ranked (see reason)" }),
  ...runIdentityFields,
  identityUnknown: RunJson.fields.identityUnknown,
  flags: Schema.Array(FlagJson),
  path: Schema.String,
  value: Figure,
  ...ciFields,
  rankInterval: Schema.optionalKey(RankIntervalJson),
  overlapsBest: Schema.optionalKey(Schema.Boolean.annotate({ description: "its rank interval overlaps the rank interval of a run ranked first" })),
  reason: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "RankEntry" })

/**
 * The rankings of a result in the JSON: each ranking's metric, rule, direction and entries, and
 * whether primary runs only were ranked.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson, ResultSchema } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const ranked: ResultSchema.RankedJson = ResultJson.rankedToJson(results.ranked)
 * ```
 * @since 0.1.0
 */
export const RankedJson = Schema.Struct({
  primaryOnly: Schema.Boolean,
  excluded: Count.annotate({ description: "runs left out because they are not primary" }),
  rankings: Schema.Array(
    Schema.Struct({
      ranking: Schema.String,
      metric: Schema.String.annotate({ description: "the metric of the figure ranked (registry name)" }),
      rule: Schema.optionalKey(Schema.String.annotate({ description: "how that figure combines datasets: wmean, mean, pooled, allnrm, single, or dataset" })),
      direction: Schema.Literals(["higher", "lower"]).annotate({ description: "which figures rank first" }),
      bestGroup: Schema.optionalKey(
        Schema.Array(Schema.String).annotate({ description: "with --ci: ids of the runs whose rank interval overlaps the best run's, by rank" })
      ),
      entries: Schema.Array(RankEntryJson)
    })
  )
}).annotate({ identifier: "Rankings" })
/** @since 0.1.0 */
export type RankedJson = typeof RankedJson.Type

/**
 * A scoring session: the edition, the gold's and the submissions folder's issues, every run, and
 * (for `rank`) the rankings.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { ResultSchema } from "@stseval/scoring"
 * import { Schema } from "effect"
 *
 * // what `stseval rank --json > ranked.json` wrote, read back through its Schema
 * const results: ResultSchema.ScoredResults = Schema.decodeUnknownSync(ResultSchema.ScoredResults)(JSON.parse(fs.readFileSync("ranked.json", "utf8")))
 * ```
 * @since 0.1.0
 */
export const ScoredResults = Schema.Struct({
  format: Schema.Literal(FORMAT),
  edition: Schema.String,
  signature: Signature.Signature,
  gold: Schema.Struct({ path: Schema.optionalKey(Schema.String), issues: Schema.Array(Issue.Issue) }),
  issues: Schema.Array(Issue.Issue).annotate({ description: "issues about the submissions as a whole (run limits, entries that are not runs)" }),
  runs: Schema.Array(ScoredRunJson),
  rankings: Schema.optionalKey(RankedJson),
  intervals: Schema.optionalKey(IntervalsJson),
  marks: Schema.optionalKey(
    Schema.Array(Rule.FigureMarksJson).annotate({ description: "rank --marks: the runs not significantly different from the best of each figure (the bold of report and the leaderboard, by the same rule)" })
  )
}).annotate({ identifier: "ScoredResults", title: "stseval scored results" })
/** @since 0.1.0 */
export type ScoredResults = typeof ScoredResults.Type

/**
 * The JSON Schema (draft 2020-12) of `ScoredResults`, as committed in
 * docs/schemas/scored-results.schema.json.
 *
 * @example
 * ```ts
 * import { ResultSchema } from "@stseval/scoring"
 *
 * // docs/schemas/scored-results.schema.json is this value
 * const schema = ResultSchema.jsonSchema()
 * ```
 * @since 0.1.0
 */
export const jsonSchema = (): Record<string, unknown> => {
  const doc = Schema.toJsonSchemaDocument(ScoredResults)
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "stseval scored results",
    description: `The JSON written by stseval for scored runs and rankings (format ${FORMAT}); see docs/scoring.md.`,
    ...doc.schema,
    $defs: doc.definitions
  }
}
