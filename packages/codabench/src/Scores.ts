/**
 * `scores.json`: what the scoring program hands to Codabench, one number per leaderboard column.
 * The columns come from the edition alone, in the order and number style of its published tables
 * (`columns`; the boards an organiser may choose, `boards`). A dataset whose gold was never
 * released (SemRel's `esp`) gets no column.
 *
 * Codabench orders a leaderboard by its primary column (`LeaderboardPhaseSerializer.get_submissions`
 * in `src/apps/api/serializers/leaderboards.py`, c7dbc756: `order_by('-primary_col', ...)` for a
 * `desc` column, the other columns by index as tie-breakers, then `created_when`), and PostgreSQL
 * puts NULLs FIRST in a descending order: a submission without the primary figure would top the
 * board. So the primary column is a figure the edition ranks, and the scoring program fails a
 * submission that lacks it (a failed submission is not on the leaderboard and does not count
 * against the limit).
 *
 * A figure that cannot be computed is left out of `scores.json` and its reason kept for the
 * detailed results: Codabench stores each score as a decimal (20 digits, 10 after the point,
 * `leaderboards/models.py`), so NaN, Infinity and numbers of 10^10 or more are never written.
 *
 * @since 0.1.0
 */
import { Registry } from "@stseval/formats"
import { Metric, Metrics } from "@stseval/metrics"
import { Style } from "@stseval/scoring"

/**
 * Which figure of a scored run a column shows: a dataset's figure by a metric (registry name), a
 * ranking's official figure, or a labelled aggregate of a ranking (`wmean`, `mean`, `pooled`,
 * `allnrm`).
 *
 * @since 0.1.0
 */
export type FigureRef =
  | { readonly _tag: "dataset"; readonly dataset: string; readonly metric: string }
  /** how many of the board's other columns have a figure (`COMPUTED`) @since 0.3.0 */
  | { readonly _tag: "computed" }
  | { readonly _tag: "official"; readonly ranking: string }
  | { readonly _tag: "aggregate"; readonly ranking: string; readonly name: "wmean" | "mean" | "pooled" | "allnrm" }

/**
 * A figure's value, or why there is none.
 *
 * @since 0.1.0
 */
export type Figure = { readonly _tag: "value"; readonly value: number } | { readonly _tag: "none"; readonly reason: string }

/**
 * One leaderboard column and the figure it shows, in the edition's number style (`Style.forMetric`, the
 * style of every stseval output): `scale` is 100 for correlations in the `r100` style, `precision`
 * the style's decimals; `official` marks the official figure of a ranking (the first is the
 * leaderboard's primary column).
 *
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
 * @since 0.1.0
 */
export const MAX_KEY = 36

/**
 * Scores must stay below 10^10: the score field has 20 digits, 10 of them after the point.
 *
 * @since 0.1.0
 */
export const MAX_ABS = 1e10

const AGGREGATE_TITLE: Readonly<Record<string, string>> = {
  wmean: "Weighted mean",
  mean: "Mean",
  pooled: "ALL (pooled)",
  allnrm: "ALLnrm"
}
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
 * The leaderboard columns of an edition, in published order; the keys are those `fromRun` writes.
 * A ranking per subtask (SICK): each ranking's reported metrics (`relatedness_pearson`, ...). Several
 * datasets: one column per dataset (`track5.en-en` -> `track5_en_en`), then `official` and the
 * aggregates reported beside it (`r100`, STS 2017: `official` first, as Table 10). One dataset
 * (STS-B): keys by metric (`pearson`, `spearman`), so a development phase writes the same keys.
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
  const styled = (metric: string) => {
    const style = Style.forMetric(edition, metric)
    return { scale: style.scale ?? 1, precision: style.decimals }
  }
  const out: Array<Column> = []
  const several = edition.ranking.length > 1
  for (const ranking of edition.ranking) {
    const name = several ? ranking.subtask : "official"
    const main = Metrics.getOrThrow(ranking.metric)
    // the ranked metric first, then the others the ranking reports (a confidence-weighted figure
    // has no column: most runs give no confidence)
    const metrics = [main, ...Registry.reportedMetrics(ranking).flatMap((m) => (m === main.name ? [] : [Metrics.getOrThrow(m)]))].filter(
      (m) => !Metric.needsConfidence(m)
    )
    const sorting = (m: Metric.Metric): "asc" | "desc" => (m.direction === "lower" ? "asc" : "desc")
    const datasets = Registry.datasetsOf(edition, ranking).filter((d) => d.goldNotPublic === undefined)
    const perDatasetRanked = Registry.isRankedPerDataset(ranking)
    if (ranking.aggregate === "single" || datasets.length === 1) {
      // One dataset is the ranking: keys name the metric (with the subtask when the edition ranks
      // several), so a development phase scoring another split of the same data writes the same keys.
      const d = datasets[0] ?? Registry.datasetsOf(edition, ranking)[0]
      const title = several ? `${ranking.subtask.charAt(0).toUpperCase()}${ranking.subtask.slice(1)} ` : ""
      for (const m of metrics) {
        out.push({
          key: several ? `${slug(ranking.subtask)}_${m.name.replace(/-/g, "_")}` : m.name.replace(/-/g, "_"),
          title: several ? `${title}${m.symbol}` : `${m.label} ${m.symbol}`,
          figure: { _tag: "dataset", dataset: d.name, metric: m.name },
          ...styled(m.name),
          sorting: sorting(m),
          official: m === main
        })
      }
      continue
    }
    const datasetColumn = (d: Registry.DatasetSpec, m: Metric.Metric, official: boolean): Column => ({
      key: m === main ? slug(d.name) : `${slug(d.name)}_${m.name.replace(/-/g, "_")}`,
      title: m === main ? d.name : `${d.name} ${m.symbol}`,
      figure: { _tag: "dataset", dataset: d.name, metric: m.name },
      ...styled(m.name),
      sorting: sorting(m),
      official
    })
    // Ranked per dataset (SemEval-2024 Task 1: per language), each dataset's ranked figure is
    // official and the aggregate is shown labelled unofficial.
    const perDataset = datasets.flatMap((d) => metrics.map((m) => datasetColumn(d, m, perDatasetRanked && m === main)))
    const aggregateTitle = AGGREGATE_TITLE[ranking.aggregate] ?? ranking.aggregate
    const rule = ranking.aggregate
    const aggregates: Array<Column> = [
      {
        key: perDatasetRanked ? rule : "official",
        title: perDatasetRanked ? `${aggregateTitle} (unofficial)` : `Official: ${aggregateTitle}`,
        // ranked per dataset, the engine labels the aggregate by its rule (`mean`), not `official`
        figure: perDatasetRanked ? { _tag: "aggregate", ranking: name, name: rule } : { _tag: "official", ranking: name },
        ...styled(main.name),
        sorting: sorting(main),
        official: !perDatasetRanked
      },
      ...(ranking.alsoAggregate ?? [])
        .filter((a): a is "wmean" | "mean" | "pooled" | "allnrm" => a !== "single" && a !== ranking.aggregate)
        .map(
          (a): Column => ({ key: a, title: AGGREGATE_TITLE[a] ?? a, figure: { _tag: "aggregate", ranking: name, name: a }, ...styled(main.name), sorting: sorting(main), official: false })
        )
    ]
    // Keys are made unique in priority order (aggregates first), so a dataset whose name slugs to
    // `official` gets the clash suffix and the aggregate keeps its documented key; then the columns
    // are laid out in published order.
    const keyed = uniqueKeys([...aggregates, ...perDataset])
    const agg = keyed.slice(0, aggregates.length)
    const data = keyed.slice(aggregates.length)
    out.push(...(r100 ? [...agg, ...data] : [...data, ...agg]))
  }
  return uniqueKeys(out)
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
 * @since 0.1.0
 */
export interface Omitted {
  readonly key: string
  readonly title: string
  readonly reason: string
}

/**
 * The figures of one run as Codabench reads them from `scores.json`, by column key.
 *
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
 * const scores = Scores.fromRun(cols, (ref) => (ref._tag === "dataset" && ref.metric === "pearson" ? { _tag: "value", value: 0.8264 } : { _tag: "none", reason: "not evaluated" }))
 * // scores.scores: { relatedness_pearson: 0.8264 }; scores.omitted: relatedness_spearman, relatedness_mse, entailment_accuracy
 * ```
 * @since 0.1.0
 */
export const fromRun = (cols: ReadonlyArray<Column>, figureOf: (ref: FigureRef) => Figure): Scores => {
  const scores: Record<string, number> = {}
  const omitted: Array<Omitted> = []
  // the count of figures is known once the others are
  const values = new Map<Column, Figure>()
  for (const c of cols) if (c.figure._tag !== "computed") values.set(c, figureOf(c.figure))
  const count = [...values.values()].filter((f) => f._tag === "value" && Number.isFinite(f.value) && Math.abs(f.value) < MAX_ABS).length
  for (const c of cols) {
    const f = values.get(c) ?? { _tag: "value", value: count }
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

/**
 * A leaderboard an organiser can give a competition: its columns (a subset of `columns`, with the
 * same keys) and its primary column, which orders it.
 *
 * @since 0.3.0
 */
export interface Board {
  /** what `--leaderboard` calls it: `official`, a ranking's subtask (`entailment`), a dataset (`eng`), an aggregate (`mean`) */
  readonly name: string
  /** what the primary column ranks, in a few words for people (`eng ranked on its own, ...`) */
  readonly description: string
  readonly columns: ReadonlyArray<Column>
  /** the index in `columns` of the primary column */
  readonly primary: number
}

/**
 * `--leaderboard each`: one competition (bundle) per board the edition ranks (`Boards.each`).
 *
 * @since 0.3.0
 */
export const EACH = "each"

/**
 * The boards of an edition (`boards`): every board it may have, the ones `each` writes, the default.
 *
 * @since 0.3.0
 */
export interface Boards {
  readonly boards: ReadonlyArray<Board>
  /** the boards `each` writes, one competition each: the datasets an edition ranked separately; else `official` */
  readonly each: ReadonlyArray<Board>
  /** a board's name, or `each` */
  readonly default: string
}

/**
 * The leaderboard column that keeps a complete submission above an incomplete one on a tie:
 * `Figures computed`, how many of the board's other columns have a figure, descending.
 *
 * Codabench orders a leaderboard by its primary column, then by every other visible column in index
 * order, each in its own direction, then by `created_when`
 * (`LeaderboardPhaseSerializer.get_submissions`, `src/apps/api/serializers/leaderboards.py`,
 * codalab/codabench c7dbc756), and PostgreSQL sorts NULL above every value in a descending order.
 * So on a tie of the primary figure, a submission without a figure another column needs — SICK's
 * relatedness-only run on the relatedness board (no entailment accuracy), an STS 2014 run without
 * a dataset (its official mean counts it as r = 0) — would be listed first. A board where that can
 * happen gets this column, always filled, just before the first column that can be empty: on a
 * tie, more figures come first, and the columns after it are reached only between submissions with
 * as many figures.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const board = Scores.board(Registry.get("sick2014")!)
 * if (!("problem" in board)) board.columns.map((c) => c.key) // [..., "figures", "entailment_accuracy"]
 * ```
 * @since 0.3.0
 */
export const COMPUTED: Column = {
  key: "figures",
  title: "Figures computed",
  figure: { _tag: "computed" },
  scale: 1,
  precision: 0,
  sorting: "desc",
  official: false
}

/** The datasets a figure needs (a ranking's figure: its datasets). */
const needs = (edition: Registry.TaskEdition, ref: FigureRef): ReadonlyArray<string> => {
  if (ref._tag === "dataset") return [ref.dataset]
  if (ref._tag === "computed") return []
  const ranking = edition.ranking.find((r) => (edition.ranking.length === 1 ? "official" : r.subtask) === ref.ranking) ?? edition.ranking[0]
  return Registry.datasetsOf(edition, ranking).filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
}

const boardOf = (edition: Registry.TaskEdition, name: string, description: string, cols: ReadonlyArray<Column>, primaryKey: string): Board => {
  const primary = cols.find((c) => c.key === primaryKey)!
  // What a submission with the primary figure surely has: its dataset, or every dataset of an
  // aggregate that has no figure without them all (`no-official-score`); a dataset's other metrics
  // come from the same pairs.
  const sure = new Set(primary.figure._tag === "dataset" || edition.missingDataset !== "zero" ? needs(edition, primary.figure) : [])
  const first = cols.findIndex((c) => c !== primary && needs(edition, c.figure).some((d) => !sure.has(d)))
  const withCount = first === -1 ? cols : uniqueKeys([...cols.slice(0, first), COMPUTED, ...cols.slice(first)])
  return { name, description, columns: withCount, primary: withCount.findIndex((c) => c.key === primaryKey) }
}

/**
 * The leaderboards an organiser may choose for an edition, and the default.
 *
 * - An edition ranked on one figure (STS, STS-B): `official`, every column, the official figure
 *   primary. The default.
 * - An edition with a ranking per subtask (SICK 2014): `official` (every column, the headline
 *   ranking's figure primary: relatedness; the default) and a board ordered by each other ranking's
 *   figure, every column shown (`entailment`): a competition for entailment-only teams.
 * - An edition ranked per dataset (SemEval-2024 Task 1: per language): one board per dataset with a
 *   public gold, its columns only (`eng`: Spearman primary, then Pearson), and the edition's
 *   aggregate when it has one (`mean`: the mean first and primary, then every dataset; it needs a
 *   run for every dataset, and the paper did not rank by it). The default is `each`: one
 *   competition per language, as the paper ranked — never one language picked as the primary
 *   column of a board of all.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const semrel = Scores.boards(Registry.get("semrel2024-a")!)
 * semrel.default // "each"
 * semrel.each.map((b) => b.name) // ["amh", "arq", "ary", "eng", "hau", "kin", "mar", "tel"]: no esp, its gold was never released
 * semrel.boards.map((b) => b.name) // the same, then "mean"
 * ```
 * @since 0.3.0
 */
export const boards = (edition: Registry.TaskEdition): Boards => {
  const all = columns(edition)
  const headline = edition.ranking[0]
  if (Registry.isRankedPerDataset(headline)) {
    const perDataset = edition.datasets
      .filter((d) => d.goldNotPublic === undefined)
      .map((d) => {
        const cols = all.filter((c) => c.figure._tag === "dataset" && c.figure.dataset === d.name)
        const primary = cols.find((c) => c.official) ?? cols[0]
        const what = d.language !== undefined ? "language" : "dataset"
        return boardOf(edition, d.name, `${d.name}${d.language !== undefined && d.language !== d.name ? ` (${d.language})` : ""} ranked on its own, as the task ranked each ${what}`, cols, primary.key)
      })
      .filter((b) => b.columns.length > 0)
    const aggregate = all.find((c) => c.figure._tag === "aggregate" && c.figure.name === headline.aggregate)
    const mean =
      aggregate !== undefined
        ? [
            boardOf(
              edition,
              headline.aggregate,
              `the ${(AGGREGATE_TITLE[headline.aggregate] ?? headline.aggregate).toLowerCase()} over every dataset (not the task's official ranking, which is per dataset; a run must cover every dataset to have it)`,
              [aggregate, ...all.filter((c) => c !== aggregate)],
              aggregate.key
            )
          ]
        : []
    return { boards: [...perDataset, ...mean], each: perDataset, default: EACH }
  }
  const official = boardOf(edition, "official", "the edition's official figure", all, all[primaryIndex(all)].key)
  // SICK: a board ordered by each further ranking's figure (entailment accuracy), with every column
  // (one run file holds both subtasks, so one competition shows both).
  const perSubtask = edition.ranking.slice(1).flatMap((r) => {
    const own = new Set(Registry.datasetsOf(edition, r).map((d) => d.name))
    const primary = all.find(
      (c) => c.official && ((c.figure._tag === "official" && c.figure.ranking === r.subtask) || (c.figure._tag === "dataset" && own.has(c.figure.dataset)))
    )
    return primary === undefined ? [] : [boardOf(edition, r.subtask, `the ${r.subtask} subtask`, all, primary.key)]
  })
  return { boards: [official, ...perSubtask], each: [official], default: "official" }
}

/**
 * The board called `name` (`boards`), or why there is none. Without a name, the default board;
 * when the default is `each`, there is no one board and the reason says to choose.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Scores } from "@stseval/codabench"
 *
 * const eng = Scores.board(Registry.get("semrel2024-a")!, "eng")
 * if (!("problem" in eng)) eng.columns.map((c) => c.key) // ["eng", "eng_pearson"]: Spearman (primary), then Pearson
 * const none = Scores.board(Registry.get("semrel2024-a")!)
 * // no name, and the default is each: the problem reads `"each" is several leaderboards (one competition each); name one of amh, arq, ...`
 * const why = "problem" in none ? none.problem : undefined
 * ```
 * @since 0.3.0
 */
export const board = (edition: Registry.TaskEdition, name?: string): Board | { readonly problem: string } => {
  const { boards: all, default: fallback } = boards(edition)
  const wanted = name ?? fallback
  const found = all.find((b) => b.name === wanted)
  if (found !== undefined) return found
  const names = [...all.map((b) => b.name), EACH].join(", ")
  return { problem: wanted === EACH ? `"${EACH}" is several leaderboards (one competition each); name one of ${names}` : `${edition.id} has no leaderboard "${wanted}"; choose one of ${names}` }
}
