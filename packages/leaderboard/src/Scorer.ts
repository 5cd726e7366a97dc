/**
 * What the live leaderboard needs from a scoring engine, injected as an Effect service so that it
 * can be tested with a fake engine and wired to `@stseval/scoring` by `ScoringAdapter`.
 *
 * The engine scores one loaded run (read and hashed by the watcher, so score and cache key
 * describe the same bytes) and answers a `RunOutcome`, the part of scoring's JSON the board reads,
 * an Effect Schema the cache is read back through.
 *
 * @since 0.1.0
 */
import { Context, Schema, Struct } from "effect"
import type { Effect } from "effect"
import type { Registry, Submissions } from "@stseval/formats"
import { ResultSchema } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"

/**
 * One official figure of a run as `leaderboard.json` lists it, e.g. `{ ranking: "official", metric: "wmean", value: 0.761 }`.
 * `value` is `null` when it could not be computed; `reason` then says why.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 *
 * const figure: Scorer.OfficialFigure = { ranking: "primary", metric: "mean", value: null, reason: "track 6 not submitted" }
 * ```
 * @since 0.1.0
 */
export const OfficialFigure = Schema.Struct({
  ranking: Schema.String.annotate({ description: "official (STS); relatedness / entailment (SICK)" }),
  metric: Schema.String.annotate({ description: "the metric of the figure (registry name: pearson, spearman, accuracy (percent), kendall...)" }),
  direction: Schema.optionalKey(Schema.Literals(["higher", "lower"]).annotate({ description: "which values are better (default higher)" })),
  value: Schema.NullOr(Schema.Finite).annotate({ description: "the figure; null when it could not be computed" }),
  reason: Schema.optionalKey(Schema.String.annotate({ description: "why value is null" })),
  zeroed: Schema.optionalKey(
    Schema.Array(Schema.Struct({ dataset: Schema.String, reason: Schema.String })).annotate({
      description: "datasets the figure counts as the metric's missing value (r = 0) under missingDataset: zero, each with why it has no figure"
    })
  )
}).annotate({ identifier: "OfficialFigure" })
/** @since 0.1.0 */
export type OfficialFigure = typeof OfficialFigure.Type

/**
 * One dataset's figure of a run on `leaderboard.json`, by the metric its ranking orders by (STS: Pearson; SemRel:
 * Spearman), for the leaderboard's per-dataset columns.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 * import { Schema } from "effect"
 *
 * const eng = Schema.decodeUnknownSync(Scorer.DatasetFigure)({ dataset: "eng", metric: "spearman", value: 0.812 })
 * ```
 * @since 0.2.0
 */
export const DatasetFigure = Schema.Struct({
  dataset: Schema.String,
  metric: Schema.String.annotate({ description: "the metric of the figure: the dataset's ranked metric (registry name: pearson, spearman, kendall...)" }),
  value: Schema.NullOr(Schema.Finite).annotate({ description: "the dataset's figure by `metric`; null when not scored" }),
  status: Schema.optionalKey(
    Schema.Literals(["scored", "not-scored", "missing", "no-gold"]).annotate({
      description: "scored (a null value: the figure is undefined), not-scored (the run's file for it has errors), missing (not submitted), no-gold (nothing to score against)"
    })
  )
}).annotate({ identifier: "DatasetFigure" })
/** @since 0.2.0 */
export type DatasetFigure = typeof DatasetFigure.Type

/**
 * A dataset of a run as the cache keeps it: scoring's `DatasetJson` with its name beside it.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 *
 * const eng: Scorer.DatasetOutcome = { dataset: "eng", status: "scored", figures: { spearman: 0.812 } }
 * ```
 * @since 0.5.0
 */
export const DatasetOutcome = Schema.Struct({
  dataset: Schema.String,
  ...Struct.pick(ResultSchema.DatasetJson.fields, ["status", "figures"])
}).annotate({ identifier: "DatasetOutcome" })
/** @since 0.5.0 */
export type DatasetOutcome = typeof DatasetOutcome.Type

/**
 * A scored (or failed) run as the engine reports it and the cache keeps it: the part of scoring's
 * `ResultSchema.ScoredRunJson` the board reads, its datasets in the edition's order.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 *
 * const outcome: Scorer.RunOutcome = { status: "failed", failure: "no dataset could be scored", official: [], errors: [], warnings: [] }
 * ```
 * @since 0.1.0
 */
export const RunOutcome = Schema.Struct({
  ...Struct.pick(ResultSchema.ScoredRunJson.fields, ["status", "failure", "official", "errors", "warnings"]),
  /** per-dataset figures, in the edition's dataset order (absent for an edition of one dataset) */
  datasets: Schema.optionalKey(Schema.Array(DatasetOutcome))
}).annotate({ identifier: "RunOutcome" })
/** @since 0.1.0 */
export type RunOutcome = typeof RunOutcome.Type

/**
 * A run's official figures as `leaderboard.json` lists them (`OfficialFigure`): a figure's reason
 * when it has none, the datasets counted as the metric's missing value when it has one.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 *
 * declare const outcome: Scorer.RunOutcome
 * const figures = Scorer.officialFigures(outcome)
 * ```
 * @since 0.5.0
 */
export const officialFigures = (outcome: RunOutcome): Array<OfficialFigure> =>
  outcome.official.map((o) =>
    o.value !== null
      ? { ranking: o.ranking, metric: o.metric, direction: o.direction, value: o.value, ...(o.zeroed.length > 0 ? { zeroed: o.zeroed } : {}) }
      : { ranking: o.ranking, metric: o.metric, direction: o.direction, value: null, reason: o.undefined?.value ?? "not computed" }
  )

/**
 * A run's datasets as `leaderboard.json` lists them (`DatasetFigure`): each one's figure by the
 * metric its ranking orders by, null unless it was scored.
 *
 * @example
 * ```ts
 * import { Scorer } from "@stseval/leaderboard"
 *
 * declare const outcome: Scorer.RunOutcome
 * const columns = Scorer.datasetFigures(outcome)
 * ```
 * @since 0.5.0
 */
export const datasetFigures = (outcome: RunOutcome): Array<DatasetFigure> =>
  (outcome.datasets ?? []).map((d) => {
    const [metric, figure] = Object.entries(d.figures)[0] ?? ["", null]
    const value = typeof figure === "number" || figure === null ? figure : figure.value
    return { dataset: d.dataset, metric, value: d.status === "scored" ? value : null, status: d.status }
  })

/**
 * The scoring engine as the leaderboard sees it.
 *
 * - `edition`: the task edition;
 * - `signature`: what the engine scores with: part of the cache key, so a new gold or engine re-scores;
 * - `score`: score one run; never fails (a defect is reported as a failed run, not cached);
 * - `scoreBatch` (optional): score runs together, each as `score` would, in order (the first scan's
 *   runs a batch at a time); a defect fails every run of the call, uncached;
 * - `scoreRun` (optional): the engine's `ScoredRun` with aligned scores, for intervals and marks;
 *   without it, none;
 * - `reads` (optional): folders the scorer reads besides the runs, never named in the outputs;
 * - `isolated` (optional): each run is scored apart from the watcher, so a watcher that stopped
 *   mid-run was stopped from outside and the run is scored again after a restart instead of being
 *   failed as "crashed the scorer" (`Cache.MAX_SCORING_ATTEMPTS`).
 *
 * @since 0.1.0
 */
export interface ScorerShape {
  readonly edition: Registry.TaskEdition
  readonly signature: string
  /** @since 0.2.0 */
  readonly reads?: ReadonlyArray<string> | undefined
  /** @since 0.3.0 */
  readonly isolated?: boolean | undefined
  readonly score: (submission: Submissions.Submission) => Effect.Effect<RunOutcome>
  /** @since 0.5.0 */
  readonly scoreBatch?: ((submissions: ReadonlyArray<Submissions.Submission>) => Effect.Effect<ReadonlyArray<RunOutcome>>) | undefined
  /** @since 0.2.0 */
  readonly scoreRun?: ((submission: Submissions.Submission) => Effect.Effect<ScoredRun.ScoredRun>) | undefined
}

/**
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scorer, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const shape: Scorer.ScorerShape
 * const watched = Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(Effect.provideService(Scorer.Scorer, shape))
 * ```
 * @since 0.1.0
 */
export class Scorer extends Context.Service<Scorer, ScorerShape>()("@stseval/leaderboard/Scorer") {}
