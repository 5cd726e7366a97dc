/**
 * The task registry: every shared-task edition (SICK 2014, STS 2012-2017, STS Benchmark) as data.
 *
 * An edition says which datasets it has and where their gold is, the score scale, how a run is laid
 * out, the run limit per team, what is ranked (per subtask: metric and aggregate), what happens when
 * a run lacks a dataset, and how published tables print correlations. Nothing in the scorer branches
 * on an edition's id: a user edition loaded from a JSON / YAML file (see docs/task-registry.md and
 * docs/schemas/task-edition.schema.json) works exactly like a built-in one.
 *
 * @since 0.1.0
 */
import * as NodePath from "node:path"
import { Effect, Schema } from "effect"
import type { FileSystem } from "effect"
import { distance } from "fastest-levenshtein"
import * as Yaml from "yaml"
import { Metrics } from "@stseval/metrics"
import * as Declarative from "./Declarative.js"
import { builtinEditions } from "./editions/builtin.js"
import * as Format from "./Format.js"
import * as Formats from "./Formats.js"
import * as Files from "./Files.js"
import * as Issue from "./Issue.js"
import * as Bibtex from "./internal/bibtex.js"
import * as Extend from "./internal/extend.js"
import { firstProblem } from "./internal/schemaIssues.js"

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

/**
 * What an edition names as a dataset's format: a built-in format (`sts-gs`: STS 2012-2017 files
 * aligned by line; `stsb-csv`: the STS Benchmark csv, runs by line or GLUE's `STS-B.tsv`; `sick`:
 * SICK data and run files matched by pair_ID; `semrel-csv`: SemEval-2024 Task 1 csv files matched
 * by PairID), or a declarative format described in the edition file (`Declarative.Spec`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const builtIn: Registry.FormatReference = "sts-gs"
 * // a CSV keyed by pair_id, described in the edition file
 * const described: Registry.FormatReference = { type: "delimited", id: "pair_id", score: "Overall" }
 * ```
 * @since 0.3.0
 */
export const FormatReference = Schema.Union([
  Schema.String.check(Schema.isMinLength(1)).annotate({ description: `a built-in format: ${Formats.names.join(", ")}` }),
  Declarative.Spec
]).annotate({ description: "a built-in format by name, or a delimited-text / JSON Lines format described here" })
/** @since 0.3.0 */
export type FormatReference = typeof FormatReference.Type

/**
 * What is ranked: a name for a group of datasets scored alike (`similarity` for STS, `relatedness`
 * and `entailment` for SICK's two subtasks, or any name a user edition gives).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const subtask: Registry.Subtask = Registry.get("sick2014")!.ranking[1].subtask // "entailment"
 * ```
 * @since 0.1.0
 */
export const Subtask = Schema.String.check(Schema.isMinLength(1))
/** @since 0.1.0 */
export type Subtask = typeof Subtask.Type

/**
 * A metric by its registry name (`@stseval/metrics` `Metrics`: pearson, spearman, kendall, mse,
 * weighted-pearson, accuracy...).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * Schema.is(Registry.MetricName)("kendall") // true: any non-empty name (decoding an edition checks it is a known metric)
 * ```
 * @since 0.3.0
 */
export const MetricName = Schema.String.check(Schema.isMinLength(1)).annotate({ description: "a metric of the registry, by name" })
/**
 * A metric's registry name, as an edition's rankings give it.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const metric: Registry.Metric = Registry.get("sick2014")!.ranking[1].metric // "accuracy"
 * ```
 * @since 0.1.0
 */
export type Metric = typeof MetricName.Type
/**
 * The metric a ranking orders runs by: a `Metric` by another name.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const ordersBy: Registry.RankingMetric = Registry.get("sts2017")!.ranking[0].metric // "pearson"
 * ```
 * @since 0.1.0
 */
export type RankingMetric = Metric

/**
 * How per-dataset figures become one: `wmean` mean weighted by scored pairs, `mean` unweighted mean,
 * `pooled` one Pearson over the concatenated datasets (STS 2012 "ALL"), `allnrm` pooled after fitting
 * each dataset's run scores to its gold by least squares (STS 2012 "ALLnrm"), `single` the edition has
 * one dataset and its figure is the score.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const rule: Registry.Aggregate = Registry.get("sts2014")!.ranking[0].aggregate // "wmean"
 * ```
 * @since 0.1.0
 */
export const Aggregate = Schema.Literals(["wmean", "mean", "pooled", "allnrm", "single"])
/** @since 0.1.0 */
export type Aggregate = typeof Aggregate.Type

/**
 * What a ranking orders runs by: `aggregate` the aggregate over datasets (every edition up to
 * 2017), `per-dataset` each dataset on its own, as SemEval-2024 Task 1 ranked teams per language; an
 * aggregate over the datasets of a `per-dataset` ranking is not official and is labelled so.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const rankedBy: Registry.RankedBy = "per-dataset" // SemRel: teams ranked per language
 * ```
 * @since 0.1.0
 */
export const RankedBy = Schema.Literals(["aggregate", "per-dataset"])
/** @since 0.1.0 */
export type RankedBy = typeof RankedBy.Type

/**
 * The ranking of one subtask. An edition has one per subtask (SICK: relatedness by Pearson and
 * entailment by accuracy; STS: similarity by Pearson); the first is the edition's headline ranking.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const ranking: Registry.Ranking = Registry.get("sts2017")!.ranking[0] // the mean of all seven tracks
 * ```
 * @since 0.1.0
 */
export const Ranking = Schema.Struct({
  subtask: Subtask.annotate({ description: "the datasets this ranking orders runs on: those of this subtask" }),
  metric: MetricName.annotate({ description: "the metric that orders runs (its direction says whether higher or lower is better)" }),
  aggregate: Aggregate.annotate({ description: "the official rule combining the datasets into the ranked figure" }),
  report: Schema.optionalKey(
    Schema.Array(MetricName).annotate({ description: "metrics shown in the published table, in column order (default: just the ranking metric)" })
  ),
  metrics: Schema.optionalKey(
    Schema.Array(MetricName).annotate({
      description: "every metric computed for the ranking's datasets and shown in text and JSON output (default: the ranking metric, then `report`)"
    })
  ),
  alsoAggregate: Schema.optionalKey(
    Schema.Array(Aggregate).annotate({ description: "further aggregates shown beside the official one (STS 2012: allnrm and wmean beside ALL)" })
  ),
  ranked: Schema.optionalKey(
    RankedBy.annotate({
      description:
        "aggregate (default): runs are ordered by the aggregate; per-dataset: runs are ranked in each dataset on its own (SemEval-2024 Task 1: per language) and the aggregate is shown only labelled unofficial"
    })
  )
})
/** @since 0.1.0 */
export type Ranking = typeof Ranking.Type

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))
const NonEmptyString = Schema.String.check(Schema.isMinLength(1))
const described = (description: string) => NonEmptyString.annotate({ description })
const count = (description: string) => Schema.optionalKey(PositiveInt.annotate({ description }))

/**
 * One dataset (STS: one file per dataset / track; SICK and STS-B: the single test file). Field
 * meanings are in the schema's descriptions and in docs/task-registry.md.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const track5: Registry.DatasetSpec | undefined = Registry.get("sts2017")!.datasets.find((d) => d.name === "track5.en-en")
 * ```
 * @since 0.1.0
 */
export const DatasetSpec = Schema.Struct({
  name: described("the papers' dataset / track name, e.g. headlines, track5.en-en, relatedness"),
  gold: Schema.optionalKey(
    described("gold file name inside the gold folder (when a single gold file is given, its name may differ); default: the edition's files.gold pattern")
  ),
  format: Schema.optionalKey(FormatReference.annotate({ description: "how the gold and the runs of this dataset are read and matched (default: the edition's format)" })),
  goldFormat: Schema.optionalKey(Schema.String.annotate({ description: "the former name of `format` (a built-in format name); still read" })),
  subtask: Schema.optionalKey(
    Subtask.annotate({
      description:
        "the subtask whose ranking scores this dataset (default: the first ranking's); a format with several value columns (sick) reads the column of that name"
    })
  ),
  input: Schema.optionalKey(described("input file name (the sentence pairs), when it is public")),
  run: Schema.optionalKey(
    described(
      "the run's file for this dataset inside a run folder, e.g. STS.output.headlines.txt; for a single-file edition (SICK, STS-B) a description, any name is accepted; default: the edition's files.run pattern"
    )
  ),
  runAliases: Schema.optionalKey(
    Schema.Array(NonEmptyString).annotate({ description: "other file names accepted for this dataset inside a run folder" })
  ),
  scoredLines: count(
    "only the first scoredLines lines of a run are scored (STS 2017 track 6: input 500 lines, gold 250); a run with scoredLines lines or with inputLines lines is accepted"
  ),
  inputLines: count("lines of the input (and of a complete run) when they differ from the gold's"),
  pairs: count("number of scored (annotated) pairs, as published; the gold is checked against it"),
  language: Schema.optionalKey(described("language or language pair, e.g. en, es-en")),
  goldNotPublic: Schema.optionalKey(
    described(
      "why the gold of this dataset cannot be had (e.g. the organisers did not release the test labels): without a gold file the dataset is listed as not scorable with this reason"
    )
  ),
  header: Schema.optionalKey(
    described("the dataset's column header in the published table (STS 2017 track 4b: es-en WMT); default: its language pair when that is unique in the edition, else its name")
  )
})
/**
 * A dataset of a decoded edition: its gold and run file names are always known (a file's
 * `files` patterns fill them in).
 *
 * @since 0.1.0
 */
export type DatasetSpec = Omit<typeof DatasetSpec.Type, "gold" | "run"> & { readonly gold: string; readonly run: string }

/**
 * A score scale, inclusive at both ends, and its direction: `ascending` (default) when a higher
 * score means more similar, `descending` when a lower one does (a 1-4 scale where 1 is most
 * similar). Scores of a descending scale are read as `min + max - score`, so that every figure is
 * of similarity, the right way round.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.get("sick2014")!.scale // { min: 1, max: 5 }: relatedness 1-5, higher is more similar
 * // a 1-4 scale where 1 is most similar
 * const ranks: Registry.Scale = { min: 1, max: 4, direction: "descending" }
 * ```
 * @since 0.1.0
 */
export const Scale = Schema.Struct({
  min: Schema.Finite,
  max: Schema.Finite,
  direction: Schema.optionalKey(
    Schema.Literals(["ascending", "descending"]).annotate({ description: "ascending (default): a higher score is more similar; descending: a lower one is" })
  )
}).check(
  Schema.makeFilter((s) => s.min < s.max || `the scale's min (${s.min}) must be below its max (${s.max})`)
)
/** @since 0.1.0 */
export type Scale = typeof Scale.Type

const SHA256 = /^[0-9a-f]{64}$/
// A path inside the data folder: no absolute path, no backslash, no `.` / `..` segment.
const RELATIVE_PATH = /^(?![/])(?!.*\\)(?!(?:.*\/)?\.{1,2}(?:\/|$))[^\0]+$/
const RelativePath = Schema.String.check(
  Schema.makeFilter((p) => RELATIVE_PATH.test(p) || `must be a path inside the edition's data folder (relative, "/"-separated, no "." or ".." segment), as the download is written there; found "${p}"`)
).annotate({
  description: "a relative path with forward slashes, without . or .. segments"
})
const EDITION_ID = /^[a-z0-9][a-z0-9._-]*$/

/**
 * A path relative to an edition's data folder that stays inside it: `/`-separated, no `.` or `..`
 * segment, not absolute, no backslash (SemRel keeps the release's `<lang>/<file>` layout).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.isRelativePath("input/STS.input.track5.en-en.txt") // true
 * Registry.isRelativePath("../../secret") // false
 * ```
 * @since 0.2.0
 */
export const isRelativePath = (path: string): boolean => RELATIVE_PATH.test(path)

/**
 * A plain file name: no folder separator, not `.` or `..` (the download is written in the edition's
 * folder, and nowhere else).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.isFileName("STS.gs.headlines.txt") // true
 * Registry.isFileName("../gold.txt") // false: an edition names files, never paths
 * ```
 * @since 0.2.0
 */
export const isFileName = (name: string): boolean => name !== "." && name !== ".." && !/[/\\]/.test(name) && !name.includes("\0")

/**
 * A folder relative to the data root that stays inside it: `/`-separated names, none of them `..`,
 * not absolute (no leading `/`, no drive letter, no backslash).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.isRelativeDir("sts2017/gold") // true
 * Registry.isRelativeDir("/etc") // false
 * ```
 * @since 0.2.0
 */
export const isRelativeDir = (dir: string): boolean =>
  !dir.startsWith("/") && !/^[A-Za-z]:/.test(dir) && !dir.includes("\\") && !dir.includes("\0") && dir.split("/").every((part) => part !== "..")

/**
 * One public download (see DataStore).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const sources: ReadonlyArray<Registry.DataSourceSpec> = Registry.get("sts2017")?.data?.sources ?? []
 * ```
 * @since 0.1.0
 */
export const DataSourceSpec = Schema.Struct({
  url: described("public address of the file"),
  sha256: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(SHA256)).annotate({ description: "expected SHA-256 (lower-case hex) of the download; without it the first download's is recorded" })
  ),
  file: RelativePath.annotate({
    description:
      "file name to store the download under, relative to the edition's data folder; a sub-folder keeps the release's layout (eng/eng_test_with_labels.csv); an archive is unpacked beside it"
  })
})
/** @since 0.1.0 */
export type DataSourceSpec = typeof DataSourceSpec.Type

/**
 * Where an edition's gold lives by default: `dir` relative to a data root (the CLI defaults
 * `--gold` to `<data root>/<dir>`), and the public addresses its files can be fetched from.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const data: Registry.DataLocation | undefined = Registry.get("sts2017")!.data // where the public gold is, and its sources
 * ```
 * @since 0.1.0
 */
export const DataLocation = Schema.Struct({
  dir: described("the gold folder relative to the data root, e.g. sts2014/test-en").check(
    Schema.makeFilter((d) => isRelativeDir(d) || `must be a folder relative to the data root (no "..", not absolute), as fetching writes there; found "${d}"`)
  ),
  sources: Schema.Array(DataSourceSpec).annotate({ description: "public downloads that fill the folder" })
})
/** @since 0.1.0 */
export type DataLocation = typeof DataLocation.Type

const TaskEditionStruct = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(EDITION_ID)).annotate({ description: "registry id, e.g. sts2014: lower-case letters, digits, '.', '_', '-'" }),
  title: described("a human title, e.g. the task's name"),
  family: Schema.optionalKey(
    Schema.Literals(["sick", "sts"]).annotate({ description: "read and ignored (former editions named the file family; each dataset's format now says how it is read)" })
  ),
  scale: Scale.annotate({ description: "the gold (and expected run) score scale, inclusive; SICK: relatedness 1-5" }),
  submission: Schema.Literals(["file", "folder"]).annotate({
    description:
      "file: a run is one file serving every dataset (SICK's two subtasks, STS-B, a file whose records name their dataset); folder: a run is a folder (or zip) with one file per dataset (STS 2012-2017)"
  }),
  format: Schema.optionalKey(FormatReference.annotate({ description: "the format of every dataset that does not name its own" })),
  files: Schema.optionalKey(
    Schema.Struct({
      gold: Schema.optionalKey(described("the gold file of a dataset without `gold`, with {dataset} standing for its name, e.g. {dataset}_test.csv")),
      run: Schema.optionalKey(described("the run file of a dataset without `run`, with {dataset} standing for its name, e.g. pred_{dataset}.csv"))
    }).annotate({ description: "file names of every dataset from patterns, instead of one name per dataset" })
  ),
  datasets: Schema.Array(DatasetSpec).check(Schema.isMinLength(1)),
  runLimit: PositiveInt.annotate({ description: "most runs one team may submit" }),
  ranking: Schema.Array(Ranking)
    .check(Schema.isMinLength(1))
    .annotate({ description: "one ranking per subtask; the first is the edition's headline ranking" }),
  missingDataset: Schema.Literals(["zero", "no-official-score"]).annotate({
    description:
      "a dataset a run did not submit: zero counts it as the metric's missing value (r = 0) in the aggregate (STS 2012-2016); no-official-score gives the run no aggregate, its per-dataset figures stay (STS 2017)"
  }),
  published: Schema.Struct({
    style: Schema.Literals(["r3", "r100"]).annotate({ description: "r3: r to 3 decimals (2014); r100: r x 100 with 2 decimals (2017, STS-B)" }),
    tables: Schema.optionalKey(
      Schema.Array(NonEmptyString).annotate({
        description: "the published results tables, as report layout ids (e.g. sts2017-table10); default: the generic table of every ranking"
      })
    ),
    dev: Schema.optionalKey(
      described("the edition id of the development split shown beside this one in the published table (STS Benchmark: stsb-dev)")
    )
  }),
  description: Schema.optionalKey(Schema.String.annotate({ description: "a sentence or two for people: paper, year, notes" })),
  data: Schema.optionalKey(DataLocation.annotate({ description: "default gold location and public downloads; absent when the data is not public" })),
  // Provenance, as MTEB's TaskMetadata has it (`reference`, `license`, `bibtex_citation` and
  // `dataset.revision`): embeddings-benchmark/mteb, mteb/abstasks/task_metadata.py, TaskMetadata,
  // at commit 057a7692
  reference: Schema.optionalKey(described("where the task is described: its paper's or page's address (MTEB's reference)")),
  citation: Schema.optionalKey(
    NonEmptyString.check(
      Schema.makeFilter((text) => {
        const parsed = Bibtex.parse(text)
        return parsed._tag === "ok" ? true : `not a BibTeX citation: ${parsed.reason}`
      })
    ).annotate({ description: "the paper to cite, one BibTeX entry (@inproceedings{key, author = ..., title = ..., year = ...}); printed under every report table, and written to a .bib beside LaTeX" })
  ),
  license: Schema.optionalKey(described("the licence of the data, as its release states it (e.g. CC BY-NC-SA 3.0); absent when the release states none")),
  revision: Schema.optionalKey(described("the revision of the data's source: the release, or the commit of the copy the files come from (e.g. brmson/dataset-sts@e1d3375)"))
})

/** An edition file as decoded, before `files` patterns are filled in. */
type EditionFile = typeof TaskEditionStruct.Type

/**
 * A task edition as an edition file writes it. See docs/task-registry.md for every field; the
 * cross-field rules (a format for every dataset, metrics that score its values, ...) are checked
 * here too, each naming the field at fault.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * // what an edition file decodes with; `Registry.decodeEdition` also fills in its `files` patterns
 * const encoded: typeof Registry.TaskEdition.Encoded = Schema.encodeSync(Registry.TaskEdition)(Registry.get("sts2014")!)
 * ```
 * @since 0.1.0
 */
export const TaskEdition = TaskEditionStruct.check(Schema.makeFilter((e) => checkEdition(e)))

const fill = (pattern: string | undefined, name: string): string | undefined => pattern?.replaceAll("{dataset}", name)

/** The format reference of a dataset, with the edition's default and the former `goldFormat`. */
const formatReference = (e: Pick<EditionFile, "format">, d: Pick<typeof DatasetSpec.Type, "format" | "goldFormat">): FormatReference | undefined =>
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
const checkEdition = (file: EditionFile): true | { readonly path: ReadonlyArray<PropertyKey>; readonly issue: string } => {
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
 * files (`files` patterns) and its subtask's column (`expandDatasets`).
 */
const normalise = (e: EditionFile): TaskEdition => ({
  ...e,
  datasets: expandDatasets(e).map((d) => ({ ...d, gold: (d.gold ?? fill(e.files?.gold, d.name))!, run: (d.run ?? fill(e.files?.run, d.name))! }))
})

/**
 * A decoded edition: every dataset names its gold and run files.
 *
 * @since 0.1.0
 */
export type TaskEdition = Omit<typeof TaskEdition.Type, "datasets"> & { readonly datasets: ReadonlyArray<DatasetSpec> }

// ---------------------------------------------------------------------------------------------
// Built-in editions and lookup
// ---------------------------------------------------------------------------------------------

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
 * Registry.builtin.filter((e) => e.family === "sick").map((e) => e.id) // ["sick2014", ...]
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

// ---------------------------------------------------------------------------------------------
// Decoding user editions
// ---------------------------------------------------------------------------------------------

/**
 * A user edition file that cannot be used: unreadable, not JSON / YAML, or not a valid edition.
 * `field` is the path of the first bad field (e.g. `datasets[2].goldFormat`) when known.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = Registry.resolve("my-edition.yaml").pipe(
 *   Effect.catchTag("EditionError", (e: Registry.EditionError) => Effect.fail(`${e.file}${e.field === undefined ? "" : ` ${e.field}`}: ${e.reason}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class EditionError extends Schema.TaggedError<EditionError>()("EditionError", {
  file: Schema.String,
  field: Schema.optionalKey(Schema.String),
  reason: Schema.String
}) {
  override get message() {
    return `${this.file}: ${this.field !== undefined ? `${this.field}: ` : ""}${this.reason}`
  }

  /** As an issue for reports: `unknown-task` for an id that is not built in, else `bad-task-file`. @since 0.1.0 */
  toIssue(): Issue.Issue {
    const code = this.reason.startsWith("no built-in edition") ? "unknown-task" : "bad-task-file"
    return Issue.error(code, this.file, this.message, this.field !== undefined ? { field: this.field } : {})
  }
}

/**
 * Validate an unknown value (e.g. parsed JSON) as an edition. On failure the error names the first
 * bad field and what was wrong; `file` labels the source in messages.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a copy of a built-in edition, renamed: every field checked, errors naming the field
 * const mine = await Effect.runPromise(Registry.decodeEdition({ ...Registry.get("sts2017")!, id: "sts2017-mine" }, "mine.json"))
 * ```
 * @since 0.1.0
 */
export const decodeEdition = (input: unknown, file = "<edition>"): Effect.Effect<TaskEdition, EditionError> =>
  Schema.decodeUnknownEffect(TaskEdition)(input, { onExcessProperty: "error", reportInput: true, errors: "all" }).pipe(
    Effect.map(normalise),
    Effect.mapError((error) => toEditionError(file, error))
  )

const toEditionError = (file: string, error: Schema.SchemaError): EditionError => {
  const { field, message } = firstProblem(error)
  return new EditionError({ file, ...(field !== undefined ? { field } : {}), reason: message })
}

/**
 * `decodeEdition` without Effect, for code that builds an edition from data it holds (tests, a
 * tool's own editions): throws the schema's error on a bad edition.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.decodeEditionSync({ ...Registry.get("sts2014")!, id: "mine" }).id // "mine"
 * ```
 * @since 0.3.0
 */
export const decodeEditionSync = (input: unknown): TaskEdition => normalise(Schema.decodeUnknownSync(TaskEdition)(input, { onExcessProperty: "error" }))

// An edition file is a few KiB of JSON or YAML; anything near this is not one.
const MAX_EDITION_BYTES = 4 * 1024 * 1024

// How many editions one file may stand on (`extends` of `extends`...): a chain this long is a
// mistake, and it bounds the files read for one edition whatever links or names they use.
const MAX_EXTENDS_DEPTH = 8

const looksLikePath = (idOrPath: string): boolean => /\.(json|ya?ml)$/i.test(idOrPath) || idOrPath.includes("/") || idOrPath.includes("\\")

/**
 * An edition file's value with its `extends` resolved (`internal/extend.ts` says how the fields
 * are merged): a built-in id, or a file path relative to the extending file. `chain` holds the
 * files already being read (absolute), so that a cycle is refused, naming it.
 */
const readEditionValue = (file: string, chain: ReadonlyArray<string>): Effect.Effect<unknown, EditionError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    // errors name the file the user gave (the first of the chain) and the one at fault
    const top = chain[0] ?? file
    const bytes = yield* Files.readFile(file, { maxBytes: MAX_EDITION_BYTES, what: "the edition file" }).pipe(
      Effect.mapError((e) => new EditionError({ file: top, reason: `${chain.length > 0 ? `extends ${file}: ` : ""}cannot read the file: ${Files.detail(e)}` }))
    )
    const parsed = parseEditionText(new TextDecoder().decode(bytes), file)
    if (parsed._tag === "error") return yield* parsed.error
    const value = parsed.value
    if (!Extend.isObject(value) || !("extends" in value)) return value
    const base = value.extends
    const fail = (reason: string, field = "extends") => Effect.fail(new EditionError({ file, field, reason }))
    if (typeof base !== "string" || base === "") return yield* fail("expected a built-in edition id (e.g. sts2015) or the path of an edition file")
    let baseValue: unknown
    if (looksLikePath(base)) {
      const here = NodePath.resolve(file)
      const target = NodePath.resolve(NodePath.dirname(here), base)
      const seen = [...chain, here]
      if (seen.includes(target)) return yield* fail(`extends itself through ${[...seen.slice(seen.indexOf(target)), target].map((f) => NodePath.relative(NodePath.dirname(here), f) || f).join(" -> ")}: a cycle`)
      if (seen.length >= MAX_EXTENDS_DEPTH) return yield* fail(`more than ${MAX_EXTENDS_DEPTH} editions extend one another from ${top}`)
      baseValue = yield* readEditionValue(target, seen)
    } else {
      const builtIn = get(base)
      if (builtIn === undefined) return yield* fail(`no built-in edition "${base}" (known: ${builtinIds.join(", ")}); a file path needs .json, .yaml or .yml, or a /`)
      baseValue = Schema.encodeSync(TaskEdition)(builtIn)
    }
    if (!Extend.isObject(baseValue)) return yield* fail(`${base} is not an edition (an object of fields)`)
    const merged = Extend.mergeEdition(baseValue, value)
    return merged._tag === "ok" ? merged.value : yield* fail(merged.reason, merged.field)
  })

/**
 * Load a user edition from a `.json`, `.yaml` or `.yml` file (other names: JSON is tried, then YAML).
 * A file with `extends: <edition id or file>` is that edition with the file's fields laid over it
 * (objects merged key by key, `null` removing a key, `datasets` merged by name, other lists
 * replaced; docs/task-registry.md, "Extending an edition"); a cycle of files is refused.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = await Effect.runPromise(Registry.loadEditionFile("editions/my-task.yaml").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const loadEditionFile = (path: string): Effect.Effect<TaskEdition, EditionError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const value = yield* readEditionValue(path, [])
    return yield* decodeEdition(value, path)
  })

// What an edition file's YAML may expand to through its aliases: twice the largest file. One list
// reached through 90 aliases (under yaml's alias count), a 3 MB file, took 280 s and 4.37 GB.
const MAX_EXPANDED_BYTES = 2 * MAX_EDITION_BYTES
const MAX_YAML_CHARS = 256 * 1024

/**
 * The size of a YAML document once its aliases are expanded (about its JSON length), computed
 * on the syntax tree with each anchored node measured once, so in time linear in the file: undefined
 * within `MAX_EXPANDED_BYTES`, else why not.
 */
const expandedSize = (root: unknown): "too large" | "recursive" | undefined => {
  const anchors = new Map<string, unknown>()
  const sizes = new Map<unknown, number>()
  const open = new Set<unknown>()
  let recursive = false
  const size = (node: unknown): number => {
    if (node === null || node === undefined) return 4
    const known = sizes.get(node)
    if (known !== undefined) return known
    if (Yaml.isAlias(node)) {
      const target = anchors.get(node.source)
      if (target === undefined) return 4
      if (open.has(target)) {
        recursive = true
        return Infinity
      }
      return size(target)
    }
    if (Yaml.isNode(node) && node.anchor !== undefined) anchors.set(node.anchor, node)
    open.add(node)
    let n = 2
    if (Yaml.isScalar(node)) n += String(node.value).length
    else if (Yaml.isPair(node)) n += size(node.key) + size(node.value)
    else if (Yaml.isCollection(node)) {
      for (const item of node.items) {
        n += size(item) + 1
        if (n > MAX_EXPANDED_BYTES) break
      }
    }
    open.delete(node)
    sizes.set(node, n)
    return n
  }
  try {
    const total = size(root)
    return recursive ? "recursive" : total > MAX_EXPANDED_BYTES ? "too large" : undefined
  } catch {
    // nesting deeper than the stack: no edition is written so
    return "too large"
  }
}

/**
 * Parse an edition file's text (JSON or YAML) without validating it.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const parsed = Registry.parseEditionText("id: my-sts\ntitle: Mine\n", "my-sts.yaml")
 * if (parsed._tag === "error") console.error(parsed.error.reason)
 * ```
 * @since 0.1.0
 */
export const parseEditionText = (
  text: string,
  file: string
): { readonly _tag: "ok"; readonly value: unknown } | { readonly _tag: "error"; readonly error: EditionError } => {
  const lower = file.toLowerCase()
  const json = lower.endsWith(".json") || (!lower.endsWith(".yaml") && !lower.endsWith(".yml") && /^\s*[{[]/.test(text))
  if (json) {
    try {
      return { _tag: "ok", value: JSON.parse(text) }
    } catch (e) {
      return { _tag: "error", error: new EditionError({ file, reason: `not valid JSON: ${(e as Error).message}` }) }
    }
  }
  // YAML's parser takes seconds per MB and more than linearly (3 MB: 26 s): a YAML edition is kept small
  if (text.length > MAX_YAML_CHARS) {
    return {
      _tag: "error",
      error: new EditionError({
        file,
        reason: `a YAML edition file is at most ${MAX_YAML_CHARS / 1024} KiB (an edition is a few KiB), found ${text.length} characters; write a larger one as JSON`
      })
    }
  }
  const doc = Yaml.parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    const err = doc.errors[0]
    const at = err.linePos?.[0]
    return {
      _tag: "error",
      error: new EditionError({ file, reason: `not valid YAML${at !== undefined ? ` (line ${at.line}, column ${at.col})` : ""}: ${err.message.split("\n")[0].replace(/:\s*$/, "")}` })
    }
  }
  const expanded = expandedSize(doc.contents)
  if (expanded !== undefined) {
    return {
      _tag: "error",
      error: new EditionError({
        file,
        reason: `not usable YAML: ${expanded === "recursive" ? "an alias inside its own anchor" : `its aliases expand it past ${MAX_EXPANDED_BYTES / 1024 / 1024} MiB`} (an edition file is a few KiB)`
      })
    }
  }
  // yaml refuses a document whose aliases expand too far (a "billion laughs") by throwing
  try {
    return { _tag: "ok", value: doc.toJS({ maxAliasCount: 100 }) }
  } catch (e) {
    return { _tag: "error", error: new EditionError({ file, reason: `not usable YAML: ${(e as Error).message} (its aliases expand to too many values)` }) }
  }
}

/**
 * An edition by id among the built-ins, or loaded from a file when `idOrPath` looks like one
 * (ends in `.json` / `.yaml` / `.yml` or contains a path separator).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a built-in id, or the path of an edition file (JSON or YAML)
 * const edition = await Effect.runPromise(Registry.resolve("sts2017").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const resolve = (idOrPath: string): Effect.Effect<TaskEdition, EditionError, FileSystem.FileSystem> => {
  if (looksLikePath(idOrPath)) return loadEditionFile(idOrPath)
  const found = get(idOrPath)
  return found !== undefined
    ? Effect.succeed(found)
    : Effect.fail(new EditionError({ file: idOrPath, reason: `no built-in edition "${idOrPath}"; known: ${builtinIds.join(", ")}` }))
}

// ---------------------------------------------------------------------------------------------
// JSON Schema for user edition files
// ---------------------------------------------------------------------------------------------

type JsonObject = { [key: string]: unknown }
const at = (object: JsonObject, path: ReadonlyArray<string>): JsonObject =>
  path.reduce<JsonObject>((o, key) => {
    const next = o[key]
    if (typeof next !== "object" || next === null) throw new Error(`JSON Schema: no object at ${path.join(".")}`)
    return next as JsonObject
  }, object)

/**
 * The `$id` of docs/schemas/task-edition.schema.json.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * // an edition file can name its schema, for editors' completion
 * const header = `# yaml-language-server: $schema=${Registry.JSON_SCHEMA_ID}`
 * ```
 * @since 0.1.0
 */
export const JSON_SCHEMA_ID = "https://stseval.dev/schemas/task-edition.schema.json"

/**
 * The JSON Schema (draft 2020-12) of an edition file, generated from `TaskEdition`; the file
 * docs/schemas/task-edition.schema.json is this value (a test keeps them equal). Effect does not
 * emit `pattern` for regular-expression checks, so the patterns are added here; the cross-field
 * rules (unique dataset names, one dataset for a `file` submission, ...) are only in the decoder.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * // docs/schemas/task-edition.schema.json is this value
 * const schema = Registry.jsonSchema()
 * ```
 * @since 0.1.0
 */
export const jsonSchema = (): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(TaskEdition, { onExcessProperty: "error" })
  const schema = structuredClone<JsonObject>(document.schema)
  at(schema, ["properties", "id"])["pattern"] = EDITION_ID.source
  at(schema, ["properties", "data", "properties", "sources", "items", "properties", "sha256"])["pattern"] = SHA256.source
  at(schema, ["properties", "data", "properties", "sources", "items", "properties", "file"])["pattern"] = RELATIVE_PATH.source
  // The same rule as isRelativeDir, for editors that check edition files.
  at(schema, ["properties", "data", "properties", "dir"])["pattern"] = "^(?!/)(?![A-Za-z]:)(?!(?:.*/)?\\.\\.(?:/|$))[^\\\\\\u0000]+$"
  // `extends` is resolved before decoding (loadEditionFile): a file with it gives only what differs
  at(schema, ["properties"])["extends"] = {
    type: "string",
    minLength: 1,
    description: "a built-in edition id (sts2015) or an edition file (relative to this one) whose fields this file's are laid over: objects merged, null removes a key, datasets merged by name ({ name, remove: true } drops one), other lists replaced"
  }
  const required = schema["required"]
  delete schema["required"]
  if (required !== undefined) {
    schema["if"] = { required: ["extends"] }
    schema["else"] = { required }
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: JSON_SCHEMA_ID,
    title: "stseval task edition",
    description: "A shared-task edition for stseval (see docs/task-registry.md). Written as JSON or YAML.",
    ...schema,
    ...(Object.keys(document.definitions).length > 0 ? { $defs: document.definitions } : {})
  }
}
