/**
 * `scores.json`: what the scoring program hands to Codabench, one number per leaderboard column.
 *
 * The columns come from the edition alone (nothing here branches on an edition's id), in the order
 * and style of the edition's published tables:
 *
 * - SICK (a ranking per subtask): `relatedness_pearson`, `relatedness_spearman`, `relatedness_mse`,
 *   `entailment_accuracy` — each ranking's reported metrics, in the edition's order. Correlations
 *   and MSE to 3 decimals, accuracy in percent to 2 decimals (`Style.of`); MSE sorts ascending.
 * - STS with several datasets: one column per dataset (its Pearson; the key is the dataset name in
 *   lower case with every run of other characters turned into `_`: `track5.en-en` -> `track5_en_en`,
 *   `OnWN` -> `onwn`), then `official` (the edition's official aggregate: weighted mean, mean or
 *   pooled) and any aggregate the edition reports beside it (`allnrm`, `wmean`, ...). With the
 *   `r100` style (STS 2017) the official column comes first, as in the paper's Table 10, and every
 *   correlation is r x 100 to 2 decimals; with `r3` (2012-2016) the datasets come first and r has 3
 *   decimals.
 * - STS with one dataset (STS Benchmark): `pearson` (the official figure), then the other reported
 *   metrics (`spearman`); the keys name the metric, not the split, so that a development phase on
 *   another split writes the same keys.
 *
 * A figure that cannot be computed (a dataset not submitted, a constant run, no official score
 * because a track is missing) is left out of `scores.json` and its reason kept for the detailed
 * results: Codabench stores each score as a decimal (20 digits, 10 after the point,
 * `leaderboards/models.py`), so NaN, Infinity and numbers of 10^10 or more are never written.
 *
 * @since 0.1.0
 */
import { Registry } from "@stseval/formats"
import { Style } from "@stseval/scoring"

/**
 * The metrics a column can show.
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * const metric: Scores.Metric = "accuracy"
 * ```
 * @since 0.1.0
 */
export type Metric = "pearson" | "spearman" | "mse" | "accuracy"

/**
 * Which figure of a scored run a column shows: a SICK subtask's metric, an STS dataset's metric,
 * or an STS aggregate (`official` is the edition's official figure).
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * const ref: Scores.FigureRef = { _tag: "dataset", dataset: "track5.en-en", metric: "pearson" }
 * ```
 * @since 0.1.0
 */
export type FigureRef =
  | { readonly _tag: "subtask"; readonly subtask: "relatedness" | "entailment"; readonly metric: Metric }
  | { readonly _tag: "dataset"; readonly dataset: string; readonly metric: "pearson" | "spearman" }
  | { readonly _tag: "aggregate"; readonly name: "official" | "wmean" | "mean" | "pooled" | "allnrm" }

/**
 * A figure's value, or why there is none.
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * const none: Scores.Figure = { _tag: "none", reason: "track 6 not submitted" } // never NaN in scores.json
 * ```
 * @since 0.1.0
 */
export type Figure = { readonly _tag: "value"; readonly value: number } | { readonly _tag: "none"; readonly reason: string }

/**
 * One leaderboard column and the figure it shows, in the edition's number style (`Style.of`, the
 * style of every stseval output): `scale` is 100 for correlations in the `r100` style, `precision`
 * the style's decimals; `official` marks the official figure of a ranking (the first is the
 * leaderboard's primary column).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const official: Scores.Column | undefined = Scores.columns(Registry.get("sts2017")!).find((c) => c.official)
 * ```
 * @since 0.1.0
 */
export interface Column {
  readonly key: string
  readonly title: string
  readonly figure: FigureRef
  readonly scale: number
  readonly precision: number
  readonly sorting: "desc" | "asc"
  readonly official: boolean
}

/**
 * Codabench's column keys and titles are at most 36 characters (`leaderboards/models.py`).
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * const limit: number = Scores.MAX_KEY // Codabench's longest column key
 * ```
 * @since 0.1.0
 */
export const MAX_KEY = 36

/**
 * Scores must stay below 10^10: the score field has 20 digits, 10 of them after the point.
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * const limit: number = Scores.MAX_ABS // a larger number would not fit Codabench's score field
 * ```
 * @since 0.1.0
 */
export const MAX_ABS = 1e10

const AGGREGATE_TITLE: Readonly<Record<string, string>> = {
  wmean: "Weighted mean",
  mean: "Mean",
  pooled: "ALL (pooled)",
  allnrm: "ALLnrm"
}
const METRIC_TITLE: Readonly<Record<Metric, string>> = { pearson: "r", spearman: "rho", mse: "MSE", accuracy: "accuracy (%)" }

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "dataset"

const clip = (s: string, n = MAX_KEY): string => (s.length <= n ? s : `${s.slice(0, n - 3)}...`)

/** Make keys unique and short enough: a clash gets `_2`, `_3`, ... */
const uniqueKeys = (columns: ReadonlyArray<Column>): ReadonlyArray<Column> => {
  const used = new Set<string>()
  return columns.map((c) => {
    const base = c.key.slice(0, MAX_KEY)
    let key = base
    for (let k = 2; used.has(key); k++) key = `${base.slice(0, MAX_KEY - String(k).length - 1)}_${k}`
    used.add(key)
    return { ...c, key, title: clip(c.title) }
  })
}

/**
 * The leaderboard columns of an edition, in published order. The keys are exactly those
 * `fromRun` writes.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * // one leaderboard column per figure the edition publishes, the official one first
 * Scores.columns(Registry.get("sick2014")!).map((c) => c.key)
 * ```
 * @since 0.1.0
 */
export const columns = (edition: Registry.TaskEdition): ReadonlyArray<Column> => {
  const r100 = edition.published.style === "r100"
  const styled = (kind: Style.Kind) => {
    const style = Style.of(edition, kind)
    return { scale: style.scale ?? 1, precision: style.decimals }
  }
  const correlation = styled("correlation")
  const out: Array<Column> = []
  if (edition.family === "sick") {
    for (const ranking of edition.ranking) {
      const subtask = ranking.subtask === "entailment" ? "entailment" : "relatedness"
      for (const metric of Registry.reportedMetrics(ranking)) {
        if (metric === "weighted-pearson") continue
        const isCorrelation = metric === "pearson" || metric === "spearman"
        out.push({
          key: `${subtask}_${metric}`,
          title: `${subtask === "relatedness" ? "Relatedness" : "Entailment"} ${METRIC_TITLE[metric]}`,
          figure: { _tag: "subtask", subtask, metric },
          ...(isCorrelation ? correlation : styled(Style.kindOf(metric))),
          sorting: metric === "mse" ? "asc" : "desc",
          official: metric === ranking.metric
        })
      }
    }
    return uniqueKeys(out)
  }
  const ranking = edition.ranking[0]
  // The ranked metric first (Pearson for STS, Spearman for SemEval-2024 Task 1), then the other
  // reported correlations.
  const main: "pearson" | "spearman" = ranking.metric === "spearman" ? "spearman" : "pearson"
  const reported = Registry.reportedMetrics(ranking).filter((m): m is "pearson" | "spearman" => m === "pearson" || m === "spearman")
  const metrics: ReadonlyArray<"pearson" | "spearman"> = [main, ...reported.filter((m) => m !== main)]
  const perDatasetRanked = Registry.isRankedPerDataset(ranking)
  const datasetColumn = (d: Registry.DatasetSpec, metric: "pearson" | "spearman", official: boolean): Column => ({
    key: metric === main ? slug(d.name) : `${slug(d.name)}_${metric}`,
    title: metric === main ? d.name : `${d.name} ${METRIC_TITLE[metric]}`,
    figure: { _tag: "dataset", dataset: d.name, metric },
    ...correlation,
    sorting: "desc",
    official
  })
  if (ranking.aggregate === "single" || edition.datasets.length === 1) {
    // The one dataset is the edition: keys name the metric, so a development phase scoring another
    // split of the same data writes the same keys.
    const d = edition.datasets[0]
    return uniqueKeys(
      metrics.map((m) => ({ ...datasetColumn(d, m, m === main), key: m, title: m === "pearson" ? "Pearson r" : "Spearman rho" }))
    )
  }
  // Ranked per dataset (SemEval-2024 Task 1: per language), each dataset's ranked figure is official
  // and the aggregate is shown labelled unofficial.
  const perDataset = edition.datasets.flatMap((d) => metrics.map((m) => datasetColumn(d, m, perDatasetRanked && m === main)))
  const aggregateTitle = AGGREGATE_TITLE[ranking.aggregate] ?? ranking.aggregate
  const aggregates: Array<Column> = [
    {
      key: perDatasetRanked ? ranking.aggregate : "official",
      title: perDatasetRanked ? `${aggregateTitle} (unofficial)` : `Official: ${aggregateTitle}`,
      // ranked per dataset, the engine labels the aggregate by its rule (`mean`), not `official`
      figure: { _tag: "aggregate", name: perDatasetRanked ? ranking.aggregate : "official" },
      ...correlation,
      sorting: "desc",
      official: !perDatasetRanked
    },
    ...(ranking.alsoAggregate ?? [])
      .filter((a): a is "wmean" | "mean" | "pooled" | "allnrm" => a !== "single" && a !== ranking.aggregate)
      .map(
        (a): Column => ({ key: a, title: AGGREGATE_TITLE[a] ?? a, figure: { _tag: "aggregate", name: a }, ...correlation, sorting: "desc", official: false })
      )
  ]
  // Keys are made unique in priority order (aggregates first), so a dataset whose name slugs to
  // `official` gets the clash suffix and the aggregate keeps its documented key; then the columns
  // are laid out in published order.
  const keyed = uniqueKeys([...aggregates, ...perDataset])
  const agg = keyed.slice(0, aggregates.length)
  const data = keyed.slice(aggregates.length)
  return r100 ? [...agg, ...data] : [...data, ...agg]
}

/**
 * The index (in `columns`) of the leaderboard's primary column: the headline ranking's official figure.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const cols = Scores.columns(Registry.get("sts2017")!)
 * const primary = cols[Scores.primaryIndex(cols)] // the column Codabench ranks by
 * ```
 * @since 0.1.0
 */
export const primaryIndex = (cols: ReadonlyArray<Column>): number => Math.max(0, cols.findIndex((c) => c.official))

/**
 * A column left out of `scores.json`, and why.
 *
 * @example
 * ```ts
 * import { Scores } from "@stseval/codabench"
 *
 * declare const scores: Scores.Scores
 * const omitted: ReadonlyArray<Scores.Omitted> = scores.omitted // columns left out of scores.json, and why
 * ```
 * @since 0.1.0
 */
export interface Omitted {
  readonly key: string
  readonly title: string
  readonly reason: string
}

/**
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const scores: Scores.Scores = Scores.fromRun(Scores.columns(Registry.get("sick2014")!), () => ({ _tag: "value", value: 0.8264 }))
 * JSON.stringify(scores.scores) // scores.json
 * ```
 * @since 0.1.0
 */
export interface Scores {
  /** the `scores.json` object: column key -> number, in column order */
  readonly scores: Readonly<Record<string, number>>
  readonly omitted: ReadonlyArray<Omitted>
}

/**
 * The `scores.json` of a scored run: each column's figure (scaled for the published style), or
 * the column left out with its reason.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const cols = Scores.columns(Registry.get("sick2014")!)
 * // a figure a run does not have is left out (and said why), never written as NaN
 * const scores = Scores.fromRun(cols, (ref) => (ref._tag === "subtask" && ref.metric === "pearson" ? { _tag: "value", value: 0.8264 } : { _tag: "none", reason: "not evaluated" }))
 * ```
 * @since 0.1.0
 */
export const fromRun = (cols: ReadonlyArray<Column>, figureOf: (ref: FigureRef) => Figure): Scores => {
  const scores: Record<string, number> = {}
  const omitted: Array<Omitted> = []
  for (const c of cols) {
    const f = figureOf(c.figure)
    if (f._tag === "none") {
      omitted.push({ key: c.key, title: c.title, reason: f.reason })
      continue
    }
    const value = f.value * c.scale
    if (!Number.isFinite(value)) omitted.push({ key: c.key, title: c.title, reason: "the figure is not a finite number" })
    else if (Math.abs(value) >= MAX_ABS) omitted.push({ key: c.key, title: c.title, reason: `the figure ${value} is too large for Codabench's score field (below 10^10)` })
    else scores[c.key] = value
  }
  return { scores, omitted }
}
