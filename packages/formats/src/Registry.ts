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
import { Effect, Schema } from "effect"
import type { FileSystem } from "effect"
import * as Yaml from "yaml"
import { builtinEditions } from "./editions/builtin.js"
import * as Files from "./Files.js"
import * as Issue from "./Issue.js"
import { firstProblem } from "./internal/schemaIssues.js"

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

/**
 * `sick`: one tab-separated run file matched to gold by pair_ID, two subtasks; `sts`: graded scores,
 * one run file per dataset (or one file), correlated with the gold per dataset — aligned by line
 * (STS 2012-2017, STS-B) or, for `semrel-csv` gold (SemEval-2024 Task 1), matched by pair ID.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const family: Registry.Family = Registry.get("stsb")!.family // "sts"
 * ```
 * @since 0.1.0
 */
export const Family = Schema.Literals(["sick", "sts"])
/** @since 0.1.0 */
export type Family = typeof Family.Type

/**
 * How a gold file is read: `sts-gs` one score per line (blank = not annotated), `stsb-csv` the STS
 * Benchmark csv (score in field 5), `sick` the SICK data file with relatedness and entailment,
 * `semrel-csv` a SemEval-2024 Task 1 csv (`PairID,Text,Score`, columns by name). The gold format also
 * says how a run is matched to it: by line for `sts-gs` and `stsb-csv`, by pair ID for `sick` and
 * `semrel-csv` (see `matchOf`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const format: Registry.GoldFormat = Registry.get("stsb")!.datasets[0].goldFormat // "stsb-csv"
 * ```
 * @since 0.1.0
 */
export const GoldFormat = Schema.Literals(["sts-gs", "stsb-csv", "sick", "semrel-csv"])
/** @since 0.1.0 */
export type GoldFormat = typeof GoldFormat.Type

/**
 * What is ranked. `similarity` (STS, STS-B) and `relatedness` (SICK) are correlations with graded
 * gold scores; `entailment` (SICK) is a three-way label.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const subtask: Registry.Subtask = "relatedness"
 * ```
 * @since 0.1.0
 */
export const Subtask = Schema.Literals(["similarity", "relatedness", "entailment"])
/** @since 0.1.0 */
export type Subtask = typeof Subtask.Type

/**
 * The metric that orders runs in a subtask (SemEval-2024 Task 1 ranks by Spearman).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const metric: Registry.RankingMetric = Registry.get("semrel2024-a")?.ranking[0]?.metric ?? "spearman"
 * ```
 * @since 0.1.0
 */
export const RankingMetric = Schema.Literals(["pearson", "spearman", "accuracy"])
/** @since 0.1.0 */
export type RankingMetric = typeof RankingMetric.Type

/**
 * Metrics a subtask's published tables report (the ranking metric among them). `weighted-pearson`
 * is the confidence-weighted Pearson of STS 2013-2014; `mse` is SICK's MSE on raw scores.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const reported: ReadonlyArray<Registry.Metric> = Registry.reportedMetrics(Registry.get("sick2014")!.ranking[0]) // r, rho, MSE
 * ```
 * @since 0.1.0
 */
export const Metric = Schema.Literals(["pearson", "spearman", "mse", "weighted-pearson", "accuracy"])
/** @since 0.1.0 */
export type Metric = typeof Metric.Type

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
  subtask: Subtask,
  metric: RankingMetric.annotate({ description: "the metric that orders runs" }),
  aggregate: Aggregate.annotate({ description: "the official rule combining the datasets into the ranked figure" }),
  report: Schema.optionalKey(
    Schema.Array(Metric).annotate({ description: "metrics shown in the published table, in column order (default: just the ranking metric)" })
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
  name: described("the papers' dataset / track name, e.g. headlines, track5.en-en, test"),
  gold: described("gold file name inside the gold folder (when a single gold file is given, its name may differ)"),
  goldFormat: GoldFormat.annotate({ description: "sts-gs: one score per line, blank = not annotated; stsb-csv: STS Benchmark csv; sick: SICK data file" }),
  input: Schema.optionalKey(described("input file name (the sentence pairs), when it is public")),
  run: described(
    "the run's file for this dataset inside a run folder, e.g. STS.output.headlines.txt; for a single-file edition (SICK, STS-B) a description, any name is accepted"
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
/** @since 0.1.0 */
export type DatasetSpec = typeof DatasetSpec.Type

/**
 * A score scale, inclusive at both ends.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const scale: Registry.Scale = Registry.get("sts2014-es")?.scale ?? { min: 0, max: 5 } // 0-4 for the Spanish data
 * ```
 * @since 0.1.0
 */
export const Scale = Schema.Struct({ min: Schema.Finite, max: Schema.Finite }).check(
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

/**
 * A task edition. See docs/task-registry.md for every field.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * // an edition is data: a user edition file decodes to the same type as the built-ins
 * const edition: Registry.TaskEdition = Schema.decodeUnknownSync(Registry.TaskEdition)(Registry.get("sick2014"))
 * ```
 * @since 0.1.0
 */
export const TaskEdition = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(EDITION_ID)).annotate({ description: "registry id, e.g. sts2014: lower-case letters, digits, '.', '_', '-'" }),
  title: described("a human title, e.g. the task's name"),
  family: Family.annotate({
    description:
      "sick: one tab-separated run file matched to gold by pair_ID; sts: graded scores per dataset, aligned by line (sts-gs, stsb-csv gold) or matched by pair ID (semrel-csv gold)"
  }),
  scale: Scale.annotate({ description: "the gold (and expected run) score scale, inclusive; SICK: relatedness 1-5" }),
  submission: Schema.Literals(["file", "folder"]).annotate({
    description: "file: a run is one file (SICK, STS-B); folder: a run is a folder (or zip) with one file per dataset (STS 2012-2017)"
  }),
  datasets: Schema.Array(DatasetSpec).check(Schema.isMinLength(1)),
  runLimit: PositiveInt.annotate({ description: "most runs one team may submit" }),
  ranking: Schema.Array(Ranking)
    .check(Schema.isMinLength(1))
    .annotate({ description: "one ranking per subtask; the first is the edition's headline ranking" }),
  missingDataset: Schema.Literals(["zero", "no-official-score"]).annotate({
    description:
      "a dataset a run did not submit: zero counts it as r = 0 in the aggregate (STS 2012-2016); no-official-score gives the run no aggregate, its per-dataset figures stay (STS 2017)"
  }),
  published: Schema.Struct({
    style: Schema.Literals(["r3", "r100"]).annotate({ description: "r3: r to 3 decimals (2014); r100: r x 100 with 2 decimals (2017, STS-B)" }),
    tables: Schema.optionalKey(
      Schema.Array(NonEmptyString).annotate({
        description: "the published results tables, as report layout ids (e.g. sts2017-table10); default: the generic table of the edition's family"
      })
    ),
    dev: Schema.optionalKey(
      described("the edition id of the development split shown beside this one in the published table (STS Benchmark: stsb-dev)")
    )
  }),
  description: Schema.optionalKey(Schema.String.annotate({ description: "a sentence or two for people: paper, year, notes" })),
  data: Schema.optionalKey(DataLocation.annotate({ description: "default gold location and public downloads; absent when the data is not public" }))
}).check(
  Schema.makeFilter((e) => {
    const names = new Set<string>()
    for (const d of e.datasets) {
      if (names.has(d.name)) return { path: ["datasets"], issue: `dataset name "${d.name}" is used twice` }
      names.add(d.name)
    }
    if (e.submission === "file" && e.datasets.length !== 1) {
      return { path: ["datasets"], issue: `a "file" submission scores exactly one dataset, this edition has ${e.datasets.length}` }
    }
    const subtasks = new Set<string>()
    for (const r of e.ranking) {
      if (subtasks.has(r.subtask)) return { path: ["ranking"], issue: `subtask "${r.subtask}" is ranked twice` }
      subtasks.add(r.subtask)
      if ((r.subtask === "entailment") !== (r.metric === "accuracy")) {
        return { path: ["ranking"], issue: `subtask "${r.subtask}" cannot be ranked by ${r.metric}` }
      }
    }
    if (e.family === "sts" && e.datasets.some((d) => d.goldFormat === "sick")) {
      return { path: ["datasets"], issue: `an "sts" edition cannot use "sick" gold files` }
    }
    if (e.family === "sick" && e.datasets.some((d) => d.goldFormat !== "sick")) {
      return { path: ["datasets"], issue: `a "sick" edition reads "sick" gold files only` }
    }
    return true
  })
)
/** @since 0.1.0 */
export type TaskEdition = typeof TaskEdition.Type

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
 * How a dataset's run is matched to its gold, from the gold format: `line` (score line i is pair i:
 * STS 2012-2017, STS-B) or `pair-id` (SICK's pair_ID, SemRel's PairID).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.matchOf(Registry.get("sick2014")!.datasets[0]) // "pair-id"
 * Registry.matchOf(Registry.get("sts2017")!.datasets[0]) // "line"
 * ```
 * @since 0.1.0
 */
export const matchOf = (dataset: DatasetSpec): "line" | "pair-id" =>
  dataset.goldFormat === "sick" || dataset.goldFormat === "semrel-csv" ? "pair-id" : "line"

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
    Effect.mapError((error) => toEditionError(file, error))
  )

const toEditionError = (file: string, error: Schema.SchemaError): EditionError => {
  const { field, message } = firstProblem(error)
  return new EditionError({ file, ...(field !== undefined ? { field } : {}), reason: message })
}

// An edition file is a few KiB of JSON or YAML; anything near this is not one.
const MAX_EDITION_BYTES = 4 * 1024 * 1024

/**
 * Load a user edition from a `.json`, `.yaml` or `.yml` file (other names: JSON is tried, then YAML).
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
    const bytes = yield* Files.readFile(path, { maxBytes: MAX_EDITION_BYTES, what: "the edition file" }).pipe(
      Effect.mapError((e) => new EditionError({ file: path, reason: `cannot read the file: ${Files.detail(e)}` }))
    )
    const text = new TextDecoder().decode(bytes)
    const parsed = parseEditionText(text, path)
    if (parsed._tag === "error") return yield* parsed.error
    return yield* decodeEdition(parsed.value, path)
  })

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
  const doc = Yaml.parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    const err = doc.errors[0]
    const at = err.linePos?.[0]
    return {
      _tag: "error",
      error: new EditionError({ file, reason: `not valid YAML${at !== undefined ? ` (line ${at.line}, column ${at.col})` : ""}: ${err.message.split("\n")[0].replace(/:\s*$/, "")}` })
    }
  }
  return { _tag: "ok", value: doc.toJS() }
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
  if (/\.(json|ya?ml)$/i.test(idOrPath) || idOrPath.includes("/") || idOrPath.includes("\\")) return loadEditionFile(idOrPath)
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
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: JSON_SCHEMA_ID,
    title: "stseval task edition",
    description: "A shared-task edition for stseval (see docs/task-registry.md). Written as JSON or YAML.",
    ...schema,
    ...(Object.keys(document.definitions).length > 0 ? { $defs: document.definitions } : {})
  }
}
