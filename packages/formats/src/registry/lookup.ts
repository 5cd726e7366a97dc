/**
 * The built-in editions and what every caller asks of an edition: a dataset's format, column,
 * ranking and header, the edition's citation, which dataset a run file is.
 */
import { distance } from "fastest-levenshtein"
import { builtinEditions } from "../editions/builtin.js"
import * as Format from "../Format.js"
import * as Formats from "../Formats.js"
import * as Bibtex from "../internal/bibtex.js"
import { formatReference } from "./checks.js"
import type { DatasetSpec, Metric, Ranking, Subtask, TaskEdition } from "./schema.js"

/**
 * The built-in editions. Their data is code, written in `TaskEdition`'s encoded shape, which for
 * this schema is its decoded shape too (no transformations), so it is used as it is: the type
 * checker holds it to the shape, and the tests decode every built-in edition through the schema
 * (checks included) and require the result to equal it. Decoding them here instead cost every
 * start of the CLI about 10 ms, a tenth of scoring one run.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.builtin.filter((e) => e.submission === "file").map((e) => e.id) // ["sick2014", "stsb", ...]: a run is one file
 * ```
 * @since 0.1.0
 */
export const builtin: ReadonlyArray<TaskEdition> = builtinEditions

/**
 * The ids of the built-in editions.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.builtinIds.includes("sts2017") // true
 * ```
 * @since 0.1.0
 */
export const builtinIds: ReadonlyArray<string> = builtin.map((e) => e.id)

/**
 * A built-in edition by id, or `undefined`.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.get("sick2014")?.runLimit // 5
 * Registry.get("sts2099") // undefined
 * ```
 * @since 0.1.0
 */
export const get = (id: string, editions: ReadonlyArray<TaskEdition> = builtin): TaskEdition | undefined =>
  editions.find((e) => e.id === id)

/**
 * The edition's citation, when it has one: the BibTeX entry as written, its key (for `\cite`) and
 * the line printed under a report table ("Agirre et al. (2015), SemEval-2015 Task 2: ...").
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.citationOf(Registry.get("sts2017")!)?.key // "cer-etal-2017-semeval"
 * Registry.citationOf(Registry.get("sts2017")!)?.text // "Cer et al. (2017), SemEval-2017 Task 1: Semantic Textual Similarity ..."
 * ```
 * @since 0.3.0
 */
export const citationOf = (edition: Pick<TaskEdition, "citation">): { readonly key: string; readonly text: string; readonly bibtex: string } | undefined => {
  if (edition.citation === undefined) return undefined
  const parsed = Bibtex.parse(edition.citation)
  // an edition is decoded with its citation checked; one built by hand without that gets none
  return parsed._tag === "ok" ? { key: parsed.entry.key, text: Bibtex.line(parsed.entry), bibtex: edition.citation.trim() } : undefined
}

/**
 * The one display name of a dataset, for every table, page and leaderboard: its `header` (STS 2017
 * track 4b: "es-en WMT"), else its language pair when that is unique in the edition (STS 2017
 * tracks: ar-ar, ...), else its name. A name the edition does not know is shown as it is.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.datasetHeader(Registry.get("sts2017")!, "track1.ar-ar") // "ar-ar"
 * Registry.datasetHeader(Registry.get("sts2017")!, "track4b.es-en") // "es-en WMT"
 * ```
 * @since 0.3.0
 */
export const datasetHeader = (edition: TaskEdition | undefined, name: string): string => {
  const d = edition?.datasets.find((x) => x.name === name)
  if (d?.header !== undefined) return d.header
  if (d?.language === undefined || edition === undefined) return name
  // a dataset with a header of its own does not make its language ambiguous
  const same = edition.datasets.filter((x) => x.language === d.language && x.header === undefined)
  return same.length === 1 && edition.datasets.length > 1 ? d.language : name
}

/**
 * The ranking of one subtask, if the edition ranks it.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.rankingOf(Registry.get("sick2014")!, "entailment")?.metric // "accuracy"
 * ```
 * @since 0.1.0
 */
export const rankingOf = (edition: TaskEdition, subtask: Subtask): Ranking | undefined =>
  edition.ranking.find((r) => r.subtask === subtask)

/**
 * True when a ranking orders runs in each dataset on its own (`ranked: per-dataset`, SemEval-2024
 * Task 1): tables then show a rank per dataset, and the aggregate only labelled unofficial (the
 * ranking's `aggregate` is the official figure exactly when this is false).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.isRankedPerDataset(Registry.get("sts2017")!.ranking[0]) // false: ranked by the aggregate
 * ```
 * @since 0.1.0
 */
export const isRankedPerDataset = (ranking: Ranking): boolean => ranking.ranked === "per-dataset"

/**
 * The subtask a dataset belongs to (its ranking): its own `subtask`, else the headline ranking's.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sick = Registry.get("sick2014")!
 * Registry.subtaskOf(sick, sick.datasets[1]) // "entailment": SICK's run file is scored as two datasets
 * ```
 * @since 0.3.0
 */
export const subtaskOf = (edition: TaskEdition, dataset: DatasetSpec): Subtask => dataset.subtask ?? edition.ranking[0].subtask

/**
 * The ranking a dataset is scored by.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sts2014 = Registry.get("sts2014")!
 * Registry.rankingOfDataset(sts2014, sts2014.datasets[0]).metric // "pearson"
 * ```
 * @since 0.3.0
 */
export const rankingOfDataset = (edition: TaskEdition, dataset: DatasetSpec): Ranking =>
  rankingOf(edition, subtaskOf(edition, dataset)) ?? edition.ranking[0]

/**
 * The datasets a ranking orders runs on (those of its subtask), in the edition's order.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sick = Registry.get("sick2014")!
 * Registry.datasetsOf(sick, sick.ranking[1]).map((d) => d.name) // ["entailment"]
 * ```
 * @since 0.3.0
 */
export const datasetsOf = (edition: TaskEdition, ranking: Ranking): ReadonlyArray<DatasetSpec> =>
  edition.datasets.filter((d) => subtaskOf(edition, d) === ranking.subtask)

const formatCache = new WeakMap<DatasetSpec, Format.Format>()

/**
 * The format a dataset is read with: its own `format` (or the former `goldFormat`), else the
 * edition's. A decoded edition always has one (decoding checks it).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sts2017 = Registry.get("sts2017")!
 * Registry.formatOf(sts2017, sts2017.datasets[0]).name // "sts-gs": matched by line
 * ```
 * @since 0.3.0
 */
export const formatOf = (edition: TaskEdition, dataset: DatasetSpec): Format.Format => {
  let format = formatCache.get(dataset)
  if (format === undefined) {
    const reference = formatReference(edition, dataset)
    format = reference === undefined ? undefined : Formats.resolve(reference)
    // a defect: a decoded edition names only known formats (checks.ts refuses the others)
    if (format === undefined) throw new RangeError(`${edition.id}: dataset ${dataset.name} has no known format (${typeof reference === "string" ? reference : (reference?.type ?? "none")})`)
    formatCache.set(dataset, format)
  }
  return format
}

/**
 * The value column of its format a dataset scores: the format's only column, or the one named
 * like the dataset's subtask (SICK: `relatedness`, `entailment`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sick = Registry.get("sick2014")!
 * Registry.columnOf(sick, sick.datasets[1]).kind // "labels": the entailment judgments
 * ```
 * @since 0.3.0
 */
export const columnOf = (edition: TaskEdition, dataset: DatasetSpec): Format.ColumnSpec => {
  const format = formatOf(edition, dataset)
  const column = Format.columnOf(format, format.columns.length === 1 ? undefined : subtaskOf(edition, dataset))
  // a defect: checks.ts refuses a subtask its format has no column for
  if (column === undefined) throw new RangeError(`${edition.id}: dataset ${dataset.name} names no column of format ${format.name}`)
  return column
}

/**
 * Every metric computed for a ranking's datasets, in order: the ranking metric, then `metrics`
 * (else `report`), each once.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.metricsOf(Registry.get("sick2014")!.ranking[0]) // ["pearson", "spearman", "mse", "standardised-mse"]
 * ```
 * @since 0.3.0
 */
export const metricsOf = (ranking: Ranking): ReadonlyArray<Metric> => [...new Set([ranking.metric, ...(ranking.metrics ?? ranking.report ?? [])])]

/**
 * The built-in editions a name selects: the edition with that id, else every edition whose id
 * starts with `<name>-` (`semrel2024` selects `semrel2024-a`, `-b` and `-c`; `sts2014` is just
 * `sts2014`). Empty when nothing matches.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * // an id, or a family of editions by its prefix
 * Registry.select("sts2017").map((e) => e.id)
 * ```
 * @since 0.1.0
 */
export const select = (name: string, editions: ReadonlyArray<TaskEdition> = builtin): ReadonlyArray<TaskEdition> => {
  const exact = editions.filter((e) => e.id === name)
  return exact.length > 0 ? exact : editions.filter((e) => e.id.startsWith(`${name}-`))
}

/**
 * The metrics a ranking's table reports (`report`, else just the ranking metric).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.reportedMetrics(Registry.get("sick2014")!.ranking[0]) // the figures shown beside the ranking one
 * ```
 * @since 0.1.0
 */
export const reportedMetrics = (ranking: Ranking): ReadonlyArray<Metric> => ranking.report ?? [ranking.metric]

/**
 * The dataset a run file belongs to, by its base name: the dataset's `run` name or one of its
 * `runAliases`, compared case-sensitively first and then ignoring case. For a `file` edition every
 * file belongs to its single dataset.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.datasetOfRunFile(Registry.get("sts2017")!, "STS.output.track5.en-en.txt")?.name // "track5.en-en"
 * ```
 * @since 0.1.0
 */
export const datasetOfRunFile = (edition: TaskEdition, fileName: string): DatasetSpec | undefined => {
  if (edition.submission === "file") return edition.datasets[0]
  const names = (d: DatasetSpec) => [d.run, ...(d.runAliases ?? [])]
  const exact = edition.datasets.find((d) => names(d).includes(fileName))
  if (exact !== undefined) return exact
  const lower = fileName.toLowerCase()
  return edition.datasets.find((d) => names(d).some((n) => n.toLowerCase() === lower))
}

/**
 * For a run folder's file that matches no dataset, the expected run file name it was most likely
 * meant to be (`STS.output.track5.txt` -> `STS.output.track5.en-en.txt`), or undefined when none is
 * close: a name within a third of its length in edits (Levenshtein, ignoring case), or one that
 * names a dataset or starts like an expected name. Files that look like nothing expected (a
 * README) get no suggestion, unless `nearest` asks for the nearest name whatever the distance (a
 * submission that fails on any file it does not expect can always point at one).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.closestRunFile(Registry.get("sts2017")!, "STS.output.track5.txt") // "STS.output.track5.en-en.txt"
 * ```
 * @since 0.3.0
 */
export const closestRunFile = (edition: TaskEdition, fileName: string, options: { readonly nearest?: boolean } = {}): string | undefined => {
  if (edition.submission === "file") return undefined
  const lower = fileName.toLowerCase()
  const stem = lower.replace(/\.[^.]*$/, "")
  let best: { name: string; d: number } | undefined
  for (const d of edition.datasets) {
    const name = d.run
    const dist = distance(lower, name.toLowerCase())
    const related =
      dist <= Math.max(2, Math.floor(name.length / 3)) ||
      new RegExp(`(^|[^a-z0-9])${d.name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^a-z0-9])`).test(stem) ||
      name.toLowerCase().startsWith(stem) ||
      name.toLowerCase().replace(/\.[^.]*$/, "") === stem
    if ((related || options.nearest === true) && (best === undefined || dist < best.d)) best = { name, d: dist }
  }
  return best?.name
}
