/**
 * The cross-field rules of an edition file (each naming the field at fault) and what decoding fills
 * in: the datasets' file names from `files` patterns, a several-column dataset as one per column.
 */
import { Metrics } from "@stseval/metrics"
import * as Format from "../Format.js"
import * as Formats from "../Formats.js"
import type { DatasetSpec, FormatReference, TaskEdition } from "./schema.js"

// A path inside the data folder: no absolute path, no backslash, no `.` / `..` segment.
export const RELATIVE_PATH = /^(?![/])(?!.*\\)(?!(?:.*\/)?\.{1,2}(?:\/|$))[^\0]+$/

/** An edition file as decoded, before `files` patterns are filled in. */
type EditionFile = typeof TaskEdition.Type

const fill = (pattern: string | undefined, name: string): string | undefined => pattern?.replaceAll("{dataset}", name)

/** The format reference of a dataset, with the edition's default and the former `goldFormat`. */
export const formatReference = (e: Pick<EditionFile, "format">, d: Pick<typeof DatasetSpec.Type, "format" | "goldFormat">): FormatReference | undefined =>
  d.format ?? d.goldFormat ?? e.format

type FileDataset = EditionFile["datasets"][number]

/**
 * The datasets of an edition file with a dataset of a several-column format given without a
 * subtask (an edition written before SICK's columns were datasets: one `test` dataset of format
 * `sick`) standing for one dataset per column its rankings rank, named by the column.
 */
const expandDatasets = (e: EditionFile): ReadonlyArray<FileDataset> =>
  e.datasets.flatMap((d) => {
    const reference = formatReference(e, d)
    const format = reference === undefined || d.subtask !== undefined ? undefined : Formats.resolve(reference)
    if (format === undefined || format.columns.length < 2) return [d]
    const ranked = format.columns.filter((c) => e.ranking.some((r) => r.subtask === c.name))
    if (ranked.length === 0) return [d]
    const alone = e.datasets.filter((x) => x.subtask === undefined && formatReference(e, x) === reference).length === 1
    return ranked.map((c) => ({ ...d, name: alone ? c.name : `${d.name}-${c.name}`, subtask: c.name }))
  })

/** The cross-field rules of an edition, each naming the field at fault. */
export const checkEdition = (file: EditionFile): true | { readonly path: ReadonlyArray<PropertyKey>; readonly issue: string } => {
  const written = new Set<string>()
  for (const d of file.datasets) {
    if (written.has(d.name)) return { path: ["datasets"], issue: `dataset name "${d.name}" is used twice` }
    written.add(d.name)
  }
  const e = { ...file, datasets: expandDatasets(file) }
  const names = new Set<string>()
  const subtasks = new Set<string>()
  for (const [i, r] of e.ranking.entries()) {
    if (subtasks.has(r.subtask)) return { path: ["ranking", i, "subtask"], issue: `subtask "${r.subtask}" is ranked twice` }
    subtasks.add(r.subtask)
    for (const [k, m] of [r.metric, ...(r.report ?? []), ...(r.metrics ?? [])].entries()) {
      if (Metrics.get(m) === undefined) {
        return { path: ["ranking", i, k === 0 ? "metric" : "report"], issue: `unknown metric "${m}" (known: ${Metrics.names.join(", ")})` }
      }
    }
  }
  const goldFiles = new Set<string>()
  for (const [i, d] of e.datasets.entries()) {
    if (names.has(d.name)) return { path: ["datasets"], issue: `dataset name "${d.name}" is used twice` }
    names.add(d.name)
    const gold = d.gold ?? fill(e.files?.gold, d.name)
    if (gold === undefined) return { path: ["datasets", i, "gold"], issue: "a dataset needs its gold file name (or the edition's files.gold pattern)" }
    goldFiles.add(gold)
    const run = d.run ?? fill(e.files?.run, d.name)
    if (run === undefined) {
      return { path: ["datasets", i, "run"], issue: "a dataset needs its run file name (or the edition's files.run pattern)" }
    }
    const outside = outsidePath(d, i, gold, run)
    if (outside !== undefined) return outside
    const reference = formatReference(e, d)
    if (reference === undefined) return { path: ["datasets", i, "format"], issue: "a dataset needs a format (or the edition's format)" }
    const format = Formats.resolve(reference)
    if (format === undefined) {
      // the field the file wrote: `format`, the former `goldFormat`, or the edition's `format`
      const path = d.format !== undefined ? ["datasets", i, "format"] : d.goldFormat !== undefined ? ["datasets", i, "goldFormat"] : ["format"]
      return { path, issue: `unknown format "${typeof reference === "string" ? reference : reference.type}" (known: ${Formats.names.join(", ")}, or a declarative format)` }
    }
    const subtask = d.subtask ?? e.ranking[0].subtask
    const ranking = e.ranking.find((r) => r.subtask === subtask)
    if (ranking === undefined) return { path: ["datasets", i, "subtask"], issue: `no ranking of subtask "${subtask}" (ranked: ${[...subtasks].join(", ")})` }
    const column = Format.columnOf(format, format.columns.length === 1 ? undefined : subtask)
    if (column === undefined) {
      return {
        path: ["datasets", i, "subtask"],
        issue: `format ${format.name} reads the columns ${format.columns.map((c) => c.name).join(", ")}: a dataset's subtask names the one it scores, "${subtask}" is none of them`
      }
    }
    for (const m of [ranking.metric, ...(ranking.report ?? []), ...(ranking.metrics ?? [])]) {
      const metric = Metrics.getOrThrow(m)
      if (metric.kind !== column.kind) {
        return {
          path: ["datasets", i],
          issue: `dataset ${d.name} holds ${column.kind === "scores" ? "graded scores" : "labels"}, which ${metric.label} (${metric.name}) of its ranking does not score`
        }
      }
    }
  }
  if (e.submission === "file" && goldFiles.size !== 1) {
    return { path: ["datasets"], issue: `a "file" submission is one run file, so every dataset must read the same gold file; this edition has ${goldFiles.size}` }
  }
  for (const [i, r] of e.ranking.entries()) {
    const own = e.datasets.filter((d) => (d.subtask ?? e.ranking[0].subtask) === r.subtask)
    if (own.length === 0) return { path: ["ranking", i, "subtask"], issue: `no dataset belongs to subtask "${r.subtask}"` }
    const metric = Metrics.getOrThrow(r.metric)
    const rules = [r.aggregate, ...(r.alsoAggregate ?? [])]
    if ((rules.includes("pooled") || rules.includes("allnrm")) && !metric.correlation) {
      return { path: ["ranking", i, "aggregate"], issue: `pooled and allnrm pool the pairs of every dataset into one correlation; ${metric.label} is not a correlation` }
    }
    if (e.missingDataset === "zero" && own.length > 1 && r.ranked !== "per-dataset" && metric.missingValue === undefined) {
      return {
        path: ["missingDataset"],
        issue: `"zero" counts a dataset a run lacks as the metric's missing value, and ${metric.label} has none (0 would be a perfect ${metric.label}); use "no-official-score"`
      }
    }
  }
  return true
}

/**
 * The first path of a dataset that would leave its folder (`gold: ../../../../etc/passwd` read a
 * file outside the gold folder and quoted its lines in errors): its gold and input inside the gold
 * folder, its run file names inside a run folder. Refused before anything is read.
 */
const outsidePath = (
  d: FileDataset,
  i: number,
  gold: string,
  run: string
): { readonly path: ReadonlyArray<PropertyKey>; readonly issue: string } | undefined => {
  const paths: ReadonlyArray<readonly [ReadonlyArray<PropertyKey>, string | undefined, string]> = [
    [d.gold !== undefined ? ["datasets", i, "gold"] : ["files", "gold"], gold, "the gold folder"],
    [["datasets", i, "input"], d.input, "the gold folder"],
    [d.run !== undefined ? ["datasets", i, "run"] : ["files", "run"], run, "a run folder"],
    ...(d.runAliases ?? []).map((a, k) => [["datasets", i, "runAliases", k], a, "a run folder"] as const)
  ]
  for (const [path, p, folder] of paths) {
    if (p !== undefined && !RELATIVE_PATH.test(p)) {
      // the path is named by its field only: what it points at is never read, nor quoted
      return { path, issue: `must be a path inside ${folder} (relative, "/"-separated, no "." or ".." segment); found "${p}"` }
    }
  }
  return undefined
}

/**
 * Fill in what a decoded edition file leaves implicit, so every dataset names its gold and run
 * files (`files` patterns) and its subtask's column (`expandDatasets`). The legacy `family` is
 * dropped: old files keep loading, and no code can branch on it.
 */
export const normalise = ({ family: _legacy, ...e }: EditionFile): TaskEdition => ({
  ...e,
  datasets: expandDatasets(e).map((d) => ({ ...d, gold: (d.gold ?? fill(e.files?.gold, d.name))!, run: (d.run ?? fill(e.files?.run, d.name))! }))
})
