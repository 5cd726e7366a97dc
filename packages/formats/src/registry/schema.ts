/**
 * The schema of an edition file: its fields, with the descriptions docs/schemas/task-edition.schema.json
 * is generated from; the cross-field rules are in `checks.ts`, the lookup in `lookup.ts`.
 */
import { Schema } from "effect"
import * as Declarative from "../Declarative.js"
import * as Formats from "../Formats.js"
import * as Bibtex from "../internal/bibtex.js"
import { checkEdition, RELATIVE_PATH } from "./checks.js"


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
 * @since 0.1.0
 */
export type Metric = typeof MetricName.Type
/**
 * The metric a ranking orders runs by: a `Metric` by another name.
 *
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

/**
 * A decoded edition: every dataset names its gold and run files.
 *
 * @since 0.1.0
 */
export type TaskEdition = Omit<typeof TaskEdition.Type, "datasets" | "family"> & { readonly datasets: ReadonlyArray<DatasetSpec> }

type JsonObject = { [key: string]: unknown }
const at = (object: JsonObject, path: ReadonlyArray<string>): JsonObject =>
  path.reduce<JsonObject>((o, key) => {
    const next = o[key]
    // a defect: the paths below are this schema's own
    if (typeof next !== "object" || next === null) throw new Error(`JSON Schema: no object at ${path.join(".")}`)
    return next as JsonObject
  }, object)

/**
 * The `$id` of docs/schemas/task-edition.schema.json.
 *
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
