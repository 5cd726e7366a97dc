/**
 * The papers' tables as layouts (SICK Tables 6 and 7, STS 2014 Table 3, STS 2017 Table 10, STS
 * Benchmark Table 14, SemEval-2024 Task 1), the generic table of any edition's ranking
 * (`generic:<subtask>`), and the lookups by layout id the report uses: which layouts an edition
 * has, which runs a layout ranks, which figures it marks bold.
 *
 * @since 0.4.0
 */
import type { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { figureOfSource, finite, rankedBy, tableRanking } from "./internal/order.js"
import type { ColumnSpec, LayoutSpec, Options } from "./Layouts.js"
import { build } from "./Layouts.js"
import { OptionError } from "./internal/optionError.js"
import type { PresetId } from "./PresetIds.js"
import type { DatasetInfo, Results } from "./Results.js"
import { figureKey, figureOf, participants, styleOf } from "./Results.js"
import type * as Table from "./Table.js"

const label: ColumnSpec = { key: "run", header: "Run", source: { _tag: "label" } }
const rank: ColumnSpec = { key: "rank", header: "Rank", source: { _tag: "rank" } }
const r3: Table.NumberStyle = { decimals: 3 }
const x100: Table.NumberStyle = { decimals: 2, scale: 100 }

/**
 * The metric a table of these datasets shows, as the results declare it: the datasets' ranked
 * metric, else their rankings'. Results with datasets and no declared metric are an error (no name
 * is assumed); without datasets no figure is shown (`runsOf` reads only a layout's `runs`).
 */
const metricOf = (results: Pick<Results, "rankings">, datasets: ReadonlyArray<DatasetInfo>): string => {
  const declared = datasets.find((d) => d.metric !== undefined)?.metric ?? results.rankings[0]?.metric
  if (declared === undefined && datasets.length > 0) {
    throw new Error(`no metric declared for ${datasets.map((d) => d.name).join(", ")}: give each dataset its metric (Results.DatasetInfo.metric) or the results a ranking`)
  }
  return declared ?? ""
}

/** A metric as people read it: its label (`Spearman`) and symbol (`rho`). */
const named = (metric: string) => {
  const m = Metrics.get(metric)
  return { label: m?.label ?? metric, symbol: m?.symbol ?? metric }
}

/** One column per dataset: its figure by its metric under the dataset's header. */
const datasetColumn = (d: DatasetInfo, metric: string, more: Partial<ColumnSpec>): ColumnSpec => ({
  key: d.name,
  header: d.header ?? d.name,
  source: { _tag: "metric", dataset: d.name, metric },
  ...more
})

/**
 * SICK Table 6: entailment accuracy (percent) of the primary runs, ranked.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SICK edition's
 * const table = Layouts.build(results, Presets.sickTable6(results)) // Table 6: entailment accuracy
 * ```
 * @since 0.1.0
 */
export const sickTable6 = (_: Results): LayoutSpec => ({
  id: "sick2014-table6",
  title: "Subtask B: entailment",
  caption: "Entailment accuracy of the {runs}, ranked.",
  label: "tab:sick-entailment",
  wide: false,
  columns: [label, { key: "accuracy", header: "Accuracy (%)", source: { _tag: "metric", dataset: "entailment", metric: "accuracy" }, number: r3, markBest: true }, rank],
  sortBy: "accuracy",
  runs: "primary"
})

/**
 * SICK Table 7: relatedness Pearson r, Spearman rho and MSE of the primary runs, ranked by r.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SICK edition's
 * const table = Layouts.build(results, Presets.sickTable7(results)) // Table 7: r, rho, MSE
 * ```
 * @since 0.1.0
 */
export const sickTable7 = (_: Results): LayoutSpec => ({
  id: "sick2014-table7",
  title: "Subtask A: relatedness",
  caption: "Relatedness results of the {runs} (r: Pearson, \u03c1: Spearman, MSE on raw scores), ranked by r.",
  label: "tab:sick-relatedness",
  wide: false,
  columns: [
    label,
    { key: "pearson", header: "r", source: { _tag: "metric", dataset: "relatedness", metric: "pearson" }, number: r3, markBest: true, markTied: true },
    { key: "spearman", header: "\u03c1", source: { _tag: "metric", dataset: "relatedness", metric: "spearman" }, number: r3, markBest: true },
    { key: "mse", header: "MSE", source: { _tag: "metric", dataset: "relatedness", metric: "mse" }, number: r3, markBest: true },
    rank
  ],
  sortBy: "pearson",
  runs: "primary"
})

/**
 * STS 2014 Table 3: per-dataset figure (Pearson), the official weighted mean (a dataset not
 * submitted counts as r = 0), rank; every run.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // an STS 2012-2016 edition's
 * const table = Layouts.build(results, Presets.sts2014Table3(results)) // per-dataset r, weighted mean, rank
 * ```
 * @since 0.1.0
 */
export const sts2014Table3 = (results: Results): LayoutSpec => {
  const metric = metricOf(results, results.datasets)
  const { label: name } = named(metric)
  return {
    id: "sts2014-table3",
    title: "English subtask results",
    caption: `${name} correlation of the {runs} on each dataset, the weighted mean (official figure) and the rank.`,
    label: "tab:sts-en-results",
    wide: true,
    columns: [
      label,
      ...results.datasets.map((d) => datasetColumn(d, d.metric ?? metric, { number: r3 })),
      { key: "wmean", header: "Weighted mean", source: { _tag: "aggregate", name: "official" }, number: r3, description: `mean of per-dataset ${name} weighted by scored pairs; a dataset not submitted counts as its missing value (r = 0)` },
      rank
    ],
    sortBy: "wmean",
    runs: "all"
  }
}

/**
 * STS 2017 Table 10: Primary (mean of all tracks), its rank, and per-track figure x 100 (Pearson), the best
 * per track with a bullet, bold = not significantly different from the best ranked run (Williams'
 * t per track; the Primary column by the stratified bootstrap of its mean), `*` late or corrected.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, section: "Baselines", datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ],
 *   // the official ranking as scoring made it (FromScoring.figuresOf: it orders by the mean of all tracks)
 *   rankings: [{ ranking: "official", metric: "pearson", direction: "higher", figures: ["aggregate:official"], entries: [{ id: "ECNU/run1", rank: 1 }, { id: "baseline/run1", rank: 2 }] }]
 * }
 * const table = Layouts.build(results, Presets.sts2017Table10(results))
 * table.columns.map((c) => c.header) // ["Run", "Primary", "Rank", "en-en"]: Primary and its rank, then r x 100 per track (85.18 and 72.78)
 * table.sections.map((s) => s.title) // ["Participants", "Baselines"]
 * ```
 * @since 0.1.0
 */
export const sts2017Table10 = (results: Results): LayoutSpec => {
  const metric = metricOf(results, results.datasets)
  const { label: name, symbol } = named(metric)
  return {
    id: "sts2017-table10",
    title: "STS 2017 results",
    caption: `${name} correlation (${symbol} \u00d7 100) of the {runs} on each track; Primary is the mean over all tracks.`,
    label: "tab:sts2017-results",
    wide: true,
    columns: [
      label,
      { key: "primary", header: "Primary", source: { _tag: "aggregate", name: "official" }, number: x100, markBest: true, markTied: true },
      // the official ranking's rank beside the figure it ranks by (and the Rank range after it, with --ci)
      rank,
      ...results.datasets.map((d) => datasetColumn(d, d.metric ?? metric, { group: "Track", number: x100, markBest: true, markTied: true }))
    ],
    sortBy: "primary",
    runs: "all",
    sectionOrder: [participants, "Baselines"]
  }
}

/**
 * STS Benchmark Table 14: dev and test figure x 100 (Pearson) per system, grouped by section; no Dev
 * column when no run has a dev figure.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // STS Benchmark test, merged with dev (FromScoring.merge)
 * const table = Layouts.build(results, Presets.stsbTable14(results)) // Dev and Test, in sections
 * ```
 * @since 0.1.0
 */
export const stsbTable14 = (results: Results): LayoutSpec => {
  const metric = metricOf(results, results.datasets)
  const { label: name, symbol } = named(metric)
  const hasDev = results.runs.some((r) => finite(figureOf(r.datasets["dev"], metric)))
  return {
    id: "stsb-table14",
    title: "STS Benchmark",
    caption: `${name} correlation (${symbol} \u00d7 100) on the STS Benchmark ${hasDev ? "dev and test sets" : "test set"}.`,
    label: "tab:stsb",
    wide: false,
    columns: [
      label,
      ...(hasDev ? [{ key: "dev", header: "Dev", source: { _tag: "metric", dataset: "dev", metric }, number: x100, markBest: true, markTied: true } as const] : []),
      { key: "test", header: "Test", source: { _tag: "metric", dataset: "test", metric }, number: x100, markBest: true, markTied: true }
    ],
    sortBy: "test",
    runs: "all"
  }
}

/**
 * SemEval-2024 Task 1 (SemRel), one table per track: a column per language with each run's
 * figure (Spearman) and its rank among the runs in that language (`0.812 (2)`), as the task ranked
 * teams per language, bold where not significantly different from the best ranked run there; the
 * mean over the languages is shown last, labelled unofficial, and orders the rows. A language
 * without a public gold (esp) has no column; a footnote says why.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SemRel 2024 track's
 * const table = Layouts.build(results, Presets.semrel2024Table(results)) // Spearman and rank per language
 * ```
 * @since 0.2.0
 */
export const semrel2024Table = (results: Results): LayoutSpec => {
  const metric = metricOf(results, results.datasets)
  const { label: name } = named(metric)
  return {
    id: "semrel2024-table",
    title: `${results.edition}: ${name} per language`,
    caption: `${name} correlation of the {runs} in each language, with the rank in that language in parentheses (runs are ranked per language).`,
    label: `tab:${results.edition}`,
    wide: true,
    columns: [
      label,
      ...results.datasets
        .filter((d) => d.noGold === undefined)
        .map((d) => datasetColumn(d, d.metric ?? metric, { group: `${name} (rank)`, number: r3, withRank: true, markTied: true })),
      {
        key: "mean",
        header: "Mean (unofficial)",
        source: { _tag: "aggregate", name: "mean" },
        number: r3,
        description: `mean of ${name} over the languages with a public gold; not an official figure (runs were ranked per language)`
      }
    ],
    sortBy: "mean",
    runs: "all",
    sectionOrder: [participants, "Baselines"],
    notes: [
      `Mean (unofficial): the mean of ${name} over the languages with a public gold, for runs that entered all of them; the task ranked runs per language only. Rows are ordered by it.`,
      ...results.datasets.filter((d) => d.noGold !== undefined).map((d) => `${d.header ?? d.name}: not scored, ${d.noGold ?? ""}.`)
    ]
  }
}

const RULES: Readonly<Record<string, string>> = { wmean: "Weighted mean", mean: "Mean", pooled: "Pooled", allnrm: "ALLnrm", single: "Official" }

/**
 * The generic table of one ranking of any edition (`generic:<subtask>`, what an edition without
 * published tables gets): per dataset every metric the ranking reports, each headed by the metric's
 * symbol, bold and bullets on the ranked metric; for a ranking over several datasets its official
 * figure (by its rule) and the rank; for a ranking per dataset (SemRel, the made-up task) the rank
 * in each dataset beside its figure and the unofficial mean last.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518 } }, aggregates: { official: 0.8518 } },
 *     { id: "Late/run1", team: "Late", run: "run1", primary: true, postDeadline: true, datasets: { "track5.en-en": { pearson: 0.9 } }, aggregates: { official: 0.9 } }
 *   ],
 *   // as Engine.Results.ranked holds them: the post-deadline run listed, never ranked
 *   rankings: [
 *     {
 *       ranking: "official",
 *       metric: "pearson",
 *       direction: "higher",
 *       figures: ["track5.en-en:pearson", "aggregate:official"],
 *       entries: [{ id: "ECNU/run1", rank: 1 }, { id: "Late/run1", rank: undefined, reason: "submitted after the deadline (listed, never ranked)" }]
 *     }
 *   ]
 * }
 *
 * const spec = Presets.genericTable(results, "similarity")
 * const table = Layouts.build(results, spec)
 * ```
 * @since 0.3.0
 */
export const genericTable = (results: Results, subtask: string): LayoutSpec => {
  const datasets = results.datasets.filter((d) => (d.subtask ?? subtask) === subtask && d.noGold === undefined)
  const metric = metricOf(results, datasets)
  const metrics = [...new Set([metric, ...(datasets[0]?.metrics ?? [metric])])]
  const perDataset = datasets.some((d) => d.rankedPerDataset === true)
  const several = metrics.length > 1
  const columns: Array<ColumnSpec> = [label]
  for (const d of datasets) {
    for (const m of metrics) {
      const { label: mLabel, symbol } = named(m)
      const main = m === (d.metric ?? metric)
      columns.push({
        key: main ? d.name : `${d.name}.${m}`,
        header: several ? symbol : (d.header ?? d.name),
        group: several ? (d.header ?? d.name) : `${mLabel}${perDataset ? " (rank)" : ""}`,
        source: { _tag: "metric", dataset: d.name, metric: m },
        number: styleOf(results, m),
        markBest: main && !perDataset ? true : undefined,
        markTied: main ? true : undefined,
        withRank: main && perDataset ? true : undefined
      })
    }
  }
  const ranking = results.rankings.find((r) => r.figures.includes(figureKey({ _tag: "aggregate", name: subtask }))) ?? results.rankings.find((r) => r.ranking === "official" || r.ranking === subtask)
  const name = ranking?.ranking ?? subtask
  const { label: mLabel, symbol } = named(metric)
  if (!perDataset && datasets.length > 1) {
    const rule = ranking?.rule ?? "official"
    columns.push({
      key: "official",
      header: `${RULES[rule] ?? rule} (official)`,
      source: { _tag: "aggregate", name },
      number: styleOf(results, metric),
      markBest: true,
      markTied: true,
      description: `the official figure: ${RULES[rule]?.toLowerCase() ?? rule} of ${mLabel} over the datasets`
    })
  }
  const mean = perDataset && results.runs.some((r) => finite(r.aggregates["mean"]))
  if (mean) {
    columns.push({ key: "mean", header: "Mean (unofficial)", source: { _tag: "aggregate", name: "mean" }, number: styleOf(results, metric), description: `mean of ${mLabel} over the datasets; not an official figure (runs are ranked per dataset)` })
  }
  if (!perDataset) columns.push(rank)
  const sortBy = perDataset ? (mean ? "mean" : (datasets[0]?.name ?? "run")) : datasets.length > 1 ? "official" : (datasets[0]?.name ?? "run")
  return {
    id: `generic:${subtask}`,
    title: `${results.edition}: ${subtask}`,
    caption: perDataset
      ? `${mLabel} (${symbol}) of the {runs} on each dataset, with the rank in that dataset in parentheses (runs are ranked per dataset).`
      : `${several ? metrics.map((m) => named(m).label).join(", ") : mLabel} of the {runs} on each dataset${datasets.length > 1 ? ", the official figure" : ""} and the rank by ${mLabel} (${symbol}).`,
    label: `tab:${results.edition}-${subtask}`,
    wide: columns.length > 6,
    columns,
    sortBy,
    runs: "all",
    ...(ranking !== undefined && !perDataset ? { ranking: ranking.ranking } : {}),
    sectionOrder: [participants, "Baselines"],
    notes: [
      ...(mean ? [`Mean (unofficial): the mean of ${mLabel} over the datasets, for runs that entered all of them; runs are ranked per dataset only. Rows are ordered by it.`] : []),
      ...results.datasets.filter((d) => (d.subtask ?? subtask) === subtask && d.noGold !== undefined).map((d) => `${d.header ?? d.name}: not scored, ${d.noGold ?? ""}.`)
    ]
  }
}

/**
 * The preset layouts by id.
 *
 * @example
 * ```ts
 * import { Presets } from "@stseval/tables"
 *
 * Object.keys(Presets.presets) // ["sick2014-table6", "sick2014-table7", "sts2014-table3", ...]
 * ```
 * @since 0.1.0
 */
export const presets: Readonly<Record<string, (results: Results) => LayoutSpec>> = {
  "sick2014-table6": sickTable6,
  "sick2014-table7": sickTable7,
  "sts2014-table3": sts2014Table3,
  "sts2017-table10": sts2017Table10,
  "stsb-table14": stsbTable14,
  "semrel2024-table": semrel2024Table
} satisfies Record<PresetId, (results: Results) => LayoutSpec>

const GENERIC = "generic:"

/** A layout by id: a preset, or the generic table of a subtask (`generic:<subtask>`). */
const specOf = (id: string, results: Results): LayoutSpec | undefined =>
  id.startsWith(GENERIC) ? genericTable(results, id.slice(GENERIC.length)) : presets[id]?.(results)

/**
 * The layouts of an edition's tables: its published ones (`published.tables`; SICK has two), else
 * the generic table of each of its rankings (`generic:<subtask>`), whatever the edition.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Presets } from "@stseval/tables"
 *
 * Presets.forEdition(Registry.get("sick2014")!) // ["sick2014-table7", "sick2014-table6"]
 * Presets.forEdition(Registry.get("sts2015")!) // ["generic:similarity"]
 * ```
 * @since 0.2.0
 */
export const forEdition = (edition: Pick<Registry.TaskEdition, "published" | "ranking">): ReadonlyArray<string> =>
  edition.published.tables ?? edition.ranking.map((r) => `${GENERIC}${r.subtask}`)

/**
 * Which runs a layout's published table ranked (`primary` or `all`), for ranking the runs before
 * the table is built.
 *
 * @example
 * ```ts
 * import { Presets } from "@stseval/tables"
 *
 * Presets.runsOf("sick2014-table7") // "primary"
 * Presets.runsOf("generic:similarity") // "all"
 * ```
 * @since 0.3.0
 */
export const runsOf = (id: string): "primary" | "all" => (id.startsWith(GENERIC) ? "all" : (presets[id]?.({ edition: "", datasets: [], runs: [], rankings: [] }).runs ?? "all"))

/**
 * Build a preset layout by id (or `generic:<subtask>`).
 *
 * @example
 * ```ts
 * import { Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518 } }, aggregates: { official: 0.8518 } },
 *     { id: "Late/run1", team: "Late", run: "run1", primary: true, postDeadline: true, datasets: { "track5.en-en": { pearson: 0.9 } }, aggregates: { official: 0.9 } }
 *   ],
 *   // as Engine.Results.ranked holds them: the post-deadline run listed, never ranked
 *   rankings: [
 *     {
 *       ranking: "official",
 *       metric: "pearson",
 *       direction: "higher",
 *       figures: ["track5.en-en:pearson", "aggregate:official"],
 *       entries: [{ id: "ECNU/run1", rank: 1 }, { id: "Late/run1", rank: undefined, reason: "submitted after the deadline (listed, never ranked)" }]
 *     }
 *   ]
 * }
 *
 * const table = Presets.preset("sts2017-table10", results, { matrix: false })
 * ```
 * @since 0.1.0
 */
export const preset = (id: string, results: Results, options: Options = {}): Table.Table => {
  const spec = specOf(id, results)
  if (spec === undefined) throw new OptionError({ option: "layout", message: `unknown layout ${id}; layouts are ${[...Object.keys(presets), `${GENERIC}<subtask>`].join(", ")}` })
  return build(results, spec, options)
}



/**
 * Ids of the runs a preset layout ranks (its ranking's ranked runs, in its order): the runs whose
 * rank intervals the table prints.
 *
 * @example
 * ```ts
 * import { Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518 } }, aggregates: { official: 0.8518 } },
 *     { id: "Late/run1", team: "Late", run: "run1", primary: true, postDeadline: true, datasets: { "track5.en-en": { pearson: 0.9 } }, aggregates: { official: 0.9 } }
 *   ],
 *   // as Engine.Results.ranked holds them: the post-deadline run listed, never ranked
 *   rankings: [
 *     {
 *       ranking: "official",
 *       metric: "pearson",
 *       direction: "higher",
 *       figures: ["track5.en-en:pearson", "aggregate:official"],
 *       entries: [{ id: "ECNU/run1", rank: 1 }, { id: "Late/run1", rank: undefined, reason: "submitted after the deadline (listed, never ranked)" }]
 *     }
 *   ]
 * }
 *
 * Presets.rankedIds("sts2017-table10", results) // ["ECNU/run1"]: the post-deadline run is not ranked
 * ```
 * @since 0.2.0
 */
export const rankedIds = (id: string, results: Results, options: Options = {}): ReadonlyArray<string> => {
  const spec = specOf(id, results)
  if (spec === undefined) return []
  const sort = spec.columns.find((c) => c.key === (options.sortBy ?? spec.sortBy))
  const ranking = tableRanking(results, spec, sort)
  return ranking !== undefined ? ranking.entries.flatMap((e) => (e.rank !== undefined ? [e.id] : [])) : [...rankedBy(results, undefined)]
}

/**
 * The figures a preset layout marks bold (`figureKey`s of its `markTied` columns): the marks a
 * report computes for it.
 *
 * @example
 * ```ts
 * import { Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518 } }, aggregates: { official: 0.8518 } },
 *     { id: "Late/run1", team: "Late", run: "run1", primary: true, postDeadline: true, datasets: { "track5.en-en": { pearson: 0.9 } }, aggregates: { official: 0.9 } }
 *   ],
 *   // as Engine.Results.ranked holds them: the post-deadline run listed, never ranked
 *   rankings: [
 *     {
 *       ranking: "official",
 *       metric: "pearson",
 *       direction: "higher",
 *       figures: ["track5.en-en:pearson", "aggregate:official"],
 *       entries: [{ id: "ECNU/run1", rank: 1 }, { id: "Late/run1", rank: undefined, reason: "submitted after the deadline (listed, never ranked)" }]
 *     }
 *   ]
 * }
 *
 * Presets.markedFigures("sts2017-table10", results) // ["aggregate:official", "track5.en-en:pearson"]
 * ```
 * @since 0.3.0
 */
export const markedFigures = (id: string, results: Results, options: Options = {}): ReadonlyArray<string> => {
  const spec = specOf(id, results)
  if (spec === undefined || options.significance === false) return []
  const shown = new Set(options.columns ?? spec.columns.map((c) => c.key))
  return spec.columns.flatMap((c) => (c.markTied === true && shown.has(c.key) ? [figureOfSource(c.source) ?? []].flat() : []))
}
