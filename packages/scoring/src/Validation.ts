/**
 * What validation of one run against an edition and its gold finds: what will and will not be
 * scored, and why. (Scoring validates each run once, inside `Engine.scoreSubmission`, the one way to
 * score a loaded run; these are the types its results carry.)
 *
 * The same for every format: each run file
 * is read with its dataset's format (`Registry.formatOf`), aligned with its gold file once (by line
 * or by pair ID, as the format says), and each dataset the file serves then takes its column and
 * its records (SICK's one run file serves relatedness and entailment; a file whose records name
 * their dataset serves them all). Every decision is recorded as an `Issue` (file, line, field,
 * expected, found) and, for what is not scored, a one-sentence reason. Nothing here branches on a
 * format's or an edition's name.
 *
 * @since 0.1.0
 */
import type { Issue, Submissions } from "@stseval/formats"
import type { MetricValue } from "@stseval/metrics"

/**
 * Who submitted a run (from its name or `run.json`).
 *
 * @since 0.1.0
 */
export type RunInfo = Submissions.RunMeta

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/**
 * What became of one dataset of a run: `scored`, `not-scored` (the file or its alignment has an
 * error), `missing` (the run has no file for it) or `no-gold` (there is no gold to score it
 * against: its gold was never released (`goldNotPublic`, SemRel's esp), or, in an edition ranked
 * per dataset, the gold was not loaded and the run has no file for it either). A `no-gold` dataset
 * is listed with the reason and never counted against the run.
 *
 * @since 0.2.0
 */
export type DatasetStatus = "scored" | "not-scored" | "missing" | "no-gold"

/**
 * The pairs a dataset's figures are computed from, aligned pair by pair with the gold (only the
 * scored pairs, in gold order): graded `scores` (with the run's confidences when every scored line
 * has one) or `labels` (with the label set, in the order tables show it). Every run of a dataset
 * shares the same `gold` array. Scores of a descending scale are already turned round (`min + max -
 * score`), so that every figure is of similarity.
 *
 * @since 0.3.0
 */
export type Aligned =
  | { readonly kind: "scores"; readonly gold: Float64Array; readonly run: Float64Array; readonly confidence?: Float64Array | undefined }
  | { readonly kind: "labels"; readonly gold: ReadonlyArray<string>; readonly run: ReadonlyArray<string>; readonly labels: ReadonlyArray<string> }

/**
 * One dataset of a run (see `DatasetStatus`). When scored, `aligned` holds its pairs.
 *
 * @since 0.3.0
 */
export interface DatasetCheck {
  readonly dataset: string
  readonly status: DatasetStatus
  /** why the dataset is not scored (a sentence), when it is not */
  readonly reason: string | undefined
  /** the run file's path, when the run has one for this dataset */
  readonly file: string | undefined
  /** pairs this dataset weighs in the weighted mean: its annotated gold pairs within the scored lines */
  readonly weight: number
  /** pairs scored (0 unless scored) */
  readonly pairs: number
  /** records in the run file (0 when missing / unreadable) */
  readonly runLines: number
  /** the run's lines that were scored, 1-based inclusive (`[1, 250]`), when matched by line and scored */
  readonly linesScored: readonly [number, number] | undefined
  readonly aligned: Aligned | undefined
  /**
   * Figures validation already computed on `aligned`, by metric name (Pearson's r of a run of 10
   * pairs or more, for the reversed-scale check): scoring takes them as they are instead of
   * computing them again on the engine's thread
   */
  readonly figures?: Readonly<Record<string, MetricValue.MetricValue>> | undefined
  /**
   * this dataset's issues; the first dataset a run file serves also carries the file's own (reading
   * and matching), so that every issue is listed once, in the edition's order
   */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * What validating one run finds: per dataset of the edition what will and will not be scored,
 * issues about the run as a whole, and whether (and why) it failed.
 *
 * @since 0.1.0
 */
export interface RunValidation {
  readonly edition: string
  readonly path: string
  readonly meta: RunInfo
  /** every dataset of the edition, in its order */
  readonly datasets: ReadonlyArray<DatasetCheck>
  /** issues about the run as a whole (loading, file names); per-file issues are on its datasets */
  readonly issues: ReadonlyArray<Issue.Issue>
  /** true when nothing at all can be scored */
  readonly failed: boolean
  /** why the run failed, when it did */
  readonly failure: string | undefined
}

/**
 * How strictly a run is read. `lenient` reads a headerless SICK run whose columns are recognised
 * from its values (with a warning); by default such a file is an error, as the official scorer
 * rejects it.
 *
 * @since 0.2.0
 */
export interface ValidateOptions {
  readonly lenient?: boolean | undefined
}
