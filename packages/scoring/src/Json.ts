/**
 * The JSON shape every app emits for scored runs, rankings and whole scoring sessions, defined as
 * Effect Schemas (docs/schemas/scored-results.schema.json is generated from `ScoredResults`; see
 * docs/scoring.md).
 *
 * Conventions:
 * - numbers are full-precision JSON numbers (what `JSON.stringify` writes for a double: the
 *   shortest text that reads back to the same value); accuracy is in percent;
 * - a metric that has no value is `null`, and the object holding it has an `undefined` member
 *   mapping that field's name to the reason, e.g.
 *   `{ "pearson": null, "spearman": null, "undefined": { "pearson": "the run is constant", ... } }`;
 *   `undefined` is absent when every metric of the object has a value;
 * - STS datasets are under `datasets.<name>` in the edition's order, aggregates under
 *   `aggregate.<rule>` (`wmean`, `mean`, `pooled`, `allnrm`, `official`); SICK figures under
 *   `relatedness.*` and `entailment.*`;
 * - each run's issues are split into `errors`, `warnings` and `infos`.
 *
 * @since 0.1.0
 */
import { Issue } from "@stseval/formats"
import type { MetricValue } from "@stseval/metrics"
import { Schema } from "effect"
import type { RankedResults } from "./Rank.js"
import type { AggregateScore, ScoredRun } from "./ScoredRun.js"
import type { RunInfo } from "./Validation.js"

/** Version tag of the document shape; bumped on an incompatible change. @since 0.1.0 */
export const FORMAT = "stseval/scored-results@1"

const Figure = Schema.NullOr(Schema.Finite).annotate({ description: "the metric's value, or null when it is undefined (the reason is in `undefined`)" })
const Reasons = Schema.Record(Schema.String, Schema.String).annotate({
  description: "for each metric of this object that is null: why it has no value"
})
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** @since 0.1.0 */
export const RunJson = Schema.Struct({
  id: Schema.String,
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  description: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Run", description: "who submitted the run (from its name or run.json)" })

/** @since 0.1.0 */
export const DatasetJson = Schema.Struct({
  status: Schema.Literals(["scored", "not-scored", "missing"]),
  reason: Schema.optionalKey(Schema.String).annotate({ description: "why the dataset is not scored" }),
  file: Schema.optionalKey(Schema.String),
  pairs: Count.annotate({ description: "pairs scored" }),
  weight: Count.annotate({ description: "pairs the dataset weighs in the weighted mean (its annotated gold pairs)" }),
  runLines: Count.annotate({ description: "score lines in the run file" }),
  linesScored: Schema.optionalKey(Schema.Tuple([Schema.Int, Schema.Int])).annotate({ description: "first and last run line scored (1-based)" }),
  pearson: Figure,
  spearman: Figure,
  weightedPearson: Schema.optionalKey(Figure).annotate({ description: "confidence-weighted Pearson, when the run gives confidences" }),
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Dataset" })

/** @since 0.1.0 */
export const RelatednessJson = Schema.Struct({
  status: Schema.Literals(["scored", "not-evaluated"]),
  reason: Schema.optionalKey(Schema.String),
  pairs: Count,
  pearson: Figure,
  spearman: Figure,
  mse: Figure.annotate({ description: "official MSE: mean((run - gold)^2) on the raw scores" }),
  standardisedMse: Figure.annotate({ description: "MSE on z-scores (population SD) = 2(1 - r); not official" }),
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Relatedness" })

/** @since 0.1.0 */
export const ClassJson = Schema.Struct({
  precision: Figure,
  recall: Figure,
  f1: Figure,
  support: Count,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "EntailmentClass" })

/** @since 0.1.0 */
export const EntailmentJson = Schema.Struct({
  status: Schema.Literals(["scored", "not-evaluated"]),
  reason: Schema.optionalKey(Schema.String),
  pairs: Count,
  accuracy: Figure.annotate({ description: "percent" }),
  correct: Count,
  labels: Schema.Array(Schema.String),
  confusion: Schema.Array(Schema.Array(Count)).annotate({ description: "confusion[gold][run], rows and columns in `labels` order" }),
  perClass: Schema.Record(Schema.String, ClassJson),
  macroF1: Figure,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Entailment" })

/** @since 0.1.0 */
export const AggregateJson = Schema.Struct({
  value: Figure,
  datasets: Schema.Array(Schema.String).annotate({ description: "datasets whose figure entered the aggregate" }),
  zeroed: Schema.Array(Schema.Struct({ dataset: Schema.String, reason: Schema.String })).annotate({
    description: "datasets that entered as r = 0 under the edition's missing-dataset rule"
  }),
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Aggregate" })

/** @since 0.1.0 */
export const OfficialJson = Schema.Struct({
  ranking: Schema.String.annotate({ description: "official (STS), relatedness or entailment (SICK)" }),
  metric: Schema.String,
  value: Figure,
  undefined: Schema.optionalKey(Reasons)
}).annotate({ identifier: "Official" })

/** @since 0.1.0 */
export const ScoredRunJson = Schema.Struct({
  edition: Schema.String,
  kind: Schema.Literals(["sick", "sts"]),
  path: Schema.String,
  run: RunJson,
  status: Schema.Literals(["scored", "failed"]),
  failure: Schema.optionalKey(Schema.String),
  relatedness: Schema.optionalKey(RelatednessJson),
  entailment: Schema.optionalKey(EntailmentJson),
  datasets: Schema.optionalKey(Schema.Record(Schema.String, DatasetJson)),
  aggregate: Schema.optionalKey(
    Schema.Struct({
      wmean: Schema.optionalKey(AggregateJson),
      mean: Schema.optionalKey(AggregateJson),
      pooled: Schema.optionalKey(AggregateJson),
      allnrm: Schema.optionalKey(AggregateJson),
      official: Schema.optionalKey(AggregateJson)
    })
  ),
  official: Schema.Array(OfficialJson),
  errors: Schema.Array(Issue.Issue),
  warnings: Schema.Array(Issue.Issue),
  infos: Schema.Array(Issue.Issue)
}).annotate({ identifier: "ScoredRun" })
/** @since 0.1.0 */
export type ScoredRunJson = typeof ScoredRunJson.Type

/** @since 0.1.0 */
export const RankEntryJson = Schema.Struct({
  rank: Schema.NullOr(Schema.Int).annotate({ description: "null when the run is not ranked (see reason)" }),
  id: Schema.String,
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  path: Schema.String,
  value: Figure,
  reason: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "RankEntry" })

/** @since 0.1.0 */
export const RankedJson = Schema.Struct({
  primaryOnly: Schema.Boolean,
  excluded: Count.annotate({ description: "runs left out because they are not primary" }),
  rankings: Schema.Array(
    Schema.Struct({ ranking: Schema.String, metric: Schema.String, entries: Schema.Array(RankEntryJson) })
  )
}).annotate({ identifier: "Rankings" })
/** @since 0.1.0 */
export type RankedJson = typeof RankedJson.Type

/**
 * A scoring session: the edition, the gold's and the submissions folder's issues, every run, and
 * (for `rank`) the rankings.
 *
 * @since 0.1.0
 */
export const ScoredResults = Schema.Struct({
  format: Schema.Literal(FORMAT),
  edition: Schema.String,
  gold: Schema.Struct({ path: Schema.optionalKey(Schema.String), issues: Schema.Array(Issue.Issue) }),
  issues: Schema.Array(Issue.Issue).annotate({ description: "issues about the submissions as a whole (run limits, entries that are not runs)" }),
  runs: Schema.Array(ScoredRunJson),
  rankings: Schema.optionalKey(RankedJson)
}).annotate({ identifier: "ScoredResults", title: "stseval scored results" })
/** @since 0.1.0 */
export type ScoredResults = typeof ScoredResults.Type

// ---------------------------------------------------------------------------------------------

type Figures = Record<string, number | null>

/** Put metric values into `out` (number or null) and collect reasons of undefined ones. */
const figures = (metrics: Readonly<Record<string, MetricValue.MetricValue | undefined>>): { values: Figures; undefined?: Record<string, string> } => {
  const values: Figures = {}
  const reasons: Record<string, string> = {}
  for (const [k, m] of Object.entries(metrics)) {
    if (m === undefined) continue
    if (m._tag === "Defined" && Number.isFinite(m.value)) values[k] = m.value
    else {
      values[k] = null
      reasons[k] = m._tag === "Undefined" ? m.reason : "not a finite number"
    }
  }
  return Object.keys(reasons).length > 0 ? { values, undefined: reasons } : { values }
}

const withReasons = <A extends object>(base: A, f: { values: Figures; undefined?: Record<string, string> }) => ({
  ...base,
  ...f.values,
  ...(f.undefined !== undefined ? { undefined: f.undefined } : {})
})

const runJson = (m: RunInfo): typeof RunJson.Type => ({
  id: m.id,
  team: m.team,
  run: m.run ?? null,
  primary: m.primary,
  late: m.late,
  corrected: m.corrected,
  ...(m.description !== undefined ? { description: m.description } : {})
})

const aggregateJson = (a: AggregateScore): typeof AggregateJson.Type => {
  const f = figures({ value: a.value })
  return {
    value: f.values.value ?? null,
    datasets: [...a.datasets],
    zeroed: a.zeroed.map((z) => ({ ...z })),
    ...(f.undefined !== undefined ? { undefined: f.undefined } : {})
  }
}

/**
 * The documented JSON object of one scored run (`ScoredRunJson`): every app emits this.
 *
 * @since 0.1.0
 */
export const toJson = (run: ScoredRun): ScoredRunJson => {
  const out: Record<string, unknown> = {
    edition: run.edition,
    kind: run.kind,
    path: run.path,
    run: runJson(run.meta),
    status: run.status,
    ...(run.failure !== undefined ? { failure: run.failure } : {})
  }
  if (run.kind === "sick") {
    const r = run.relatedness!
    out.relatedness = withReasons(
      { status: r.status, ...(r.reason !== undefined ? { reason: r.reason } : {}), pairs: r.pairs },
      figures({ pearson: r.pearson, spearman: r.spearman, mse: r.mse, standardisedMse: r.standardisedMse })
    )
    const e = run.entailment!
    const perClass: Record<string, unknown> = {}
    for (const [label, c] of Object.entries(e.perClass)) {
      perClass[label] = withReasons({ support: c.support }, figures({ precision: c.precision, recall: c.recall, f1: c.f1 }))
    }
    out.entailment = withReasons(
      {
        status: e.status,
        ...(e.reason !== undefined ? { reason: e.reason } : {}),
        pairs: e.pairs,
        correct: e.correct,
        labels: [...e.labels],
        confusion: e.confusion.map((row) => [...row]),
        perClass
      },
      figures({ accuracy: e.accuracy, macroF1: e.macroF1 })
    )
  } else {
    const datasets: Record<string, unknown> = {}
    for (const d of run.datasets) {
      datasets[d.dataset] = withReasons(
        {
          status: d.status,
          ...(d.reason !== undefined ? { reason: d.reason } : {}),
          ...(d.file !== undefined ? { file: d.file } : {}),
          pairs: d.pairs,
          weight: d.weight,
          runLines: d.runLines,
          ...(d.linesScored !== undefined ? { linesScored: [d.linesScored[0], d.linesScored[1]] } : {})
        },
        figures({ pearson: d.pearson, spearman: d.spearman, weightedPearson: d.weightedPearson })
      )
    }
    out.datasets = datasets
    const aggregate: Record<string, unknown> = {}
    for (const [name, a] of Object.entries(run.aggregate)) if (a !== undefined) aggregate[name] = aggregateJson(a)
    out.aggregate = aggregate
  }
  out.official = run.official.map((o) => withReasons({ ranking: o.ranking, metric: o.metric }, figures({ value: o.value })))
  out.errors = [...run.errors]
  out.warnings = [...run.warnings]
  out.infos = [...run.infos]
  return out as ScoredRunJson
}

/**
 * The documented JSON object of rankings (`RankedJson`).
 *
 * @since 0.1.0
 */
export const rankedToJson = (ranked: RankedResults<ScoredRun>): RankedJson => ({
  primaryOnly: ranked.primaryOnly,
  excluded: ranked.excluded,
  rankings: ranked.rankings.map((r) => ({
    ranking: r.ranking,
    metric: r.metric,
    entries: r.entries.map((e) => ({
      rank: e.rank ?? null,
      id: e.meta.id,
      team: e.meta.team,
      run: e.meta.run ?? null,
      primary: e.meta.primary,
      path: e.run.path,
      value: e.value._tag === "Defined" && Number.isFinite(e.value.value) ? e.value.value : null,
      ...(e.reason !== undefined ? { reason: e.reason } : {})
    }))
  }))
})

/**
 * A whole session as the documented JSON document (`ScoredResults`).
 *
 * @since 0.1.0
 */
export const resultsToJson = (session: {
  readonly edition: string
  readonly goldPath?: string | undefined
  readonly goldIssues: ReadonlyArray<Issue.Issue>
  readonly issues: ReadonlyArray<Issue.Issue>
  readonly runs: ReadonlyArray<ScoredRun>
  readonly ranked?: RankedResults<ScoredRun> | undefined
}): ScoredResults => ({
  format: FORMAT,
  edition: session.edition,
  gold: { ...(session.goldPath !== undefined ? { path: session.goldPath } : {}), issues: [...session.goldIssues] },
  issues: [...session.issues],
  runs: session.runs.map(toJson),
  ...(session.ranked !== undefined ? { rankings: rankedToJson(session.ranked) } : {})
})

/**
 * The JSON Schema (draft 2020-12) of `ScoredResults`, as committed in
 * docs/schemas/scored-results.schema.json.
 *
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
