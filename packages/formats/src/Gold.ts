/**
 * An edition's gold: each gold file read once with its dataset's format (`Registry.formatOf`), and
 * each dataset's view of it: its column (SICK's relatedness or entailment) and its records (all of
 * them, or those whose dataset field names it). A missing or unreadable gold file is an issue naming
 * the file and the dataset (that dataset cannot be scored), never a failure; a dataset whose gold
 * is not public (`goldNotPublic`) says why.
 *
 * @since 0.1.0
 */
import { Effect, FileSystem, Path } from "effect"
import * as Files from "./Files.js"
import type * as Format from "./Format.js"
import * as Issue from "./Issue.js"
import * as Registry from "./Registry.js"
import type { DatasetSpec, TaskEdition } from "./Registry.js"
import * as Text from "./Text.js"

interface Base {
  readonly name: string
  readonly file: string
  /** the whole gold file as its format read it (shared by every dataset of the file) */
  readonly table: Format.GoldTable
  /** the column of the table this dataset scores */
  readonly column: Format.ColumnSpec
  /** this dataset's records of the table, in file order; undefined: every record */
  readonly rows: Int32Array | undefined
  /** the pair ID of each of this dataset's records, when its format matches runs by pair ID */
  readonly pairIds?: ReadonlyArray<string> | undefined
  /** number of annotated (scored) pairs */
  readonly annotated: number
  /** the file's issues (decoding and parsing) and this dataset's; an error means it must not be scored */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * One dataset's gold: graded `scores` (one per record of the dataset, NaN = not annotated) or
 * `labels` ("" = not annotated).
 *
 * @since 0.1.0
 */
export type GoldDataset =
  | (Base & { readonly kind: "scores"; readonly scores: Float64Array })
  | (Base & { readonly kind: "labels"; readonly labels: ReadonlyArray<string> })

/**
 * An edition's gold as loaded: each dataset's pairs and scores.
 *
 * @since 0.1.0
 */
export interface Gold {
  readonly edition: string
  /** the datasets whose gold was read, in the edition's order */
  readonly datasets: ReadonlyArray<GoldDataset>
  /** datasets of the edition whose gold is missing or unreadable: they cannot be scored */
  readonly missing: ReadonlyArray<string>
  /** every issue: missing files, and each file's and dataset's own issues (each once) */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * The bytes (or text) of one dataset's gold file.
 *
 * @since 0.1.0
 */
export interface GoldText {
  readonly dataset: string
  /** path for messages */
  readonly file: string
  readonly content: Uint8Array | string
}

/** A gold file read with its format: the table and the file's issues. */
interface ReadFile {
  readonly table: Format.GoldTable
  readonly issues: ReadonlyArray<Issue.Issue>
}

const readFile = (format: Format.Format, file: string, content: Uint8Array | string): ReadFile => {
  const decoded = typeof content === "string" ? Text.fromString(content, file) : Text.decode(content, file)
  const parsed = format.readGold(decoded.value)
  return { table: parsed.value, issues: [...decoded.issues, ...parsed.issues] }
}

const sliceTable = (table: Format.GoldTable, end: number): Format.GoldTable => ({
  ...table,
  length: end,
  ...(table.ids !== undefined ? { ids: table.ids.slice(0, end) } : {}),
  ...(table.datasets !== undefined ? { datasets: table.datasets.slice(0, end) } : {}),
  columns: Object.fromEntries(
    Object.entries(table.columns).map(([k, c]) => [k, c.kind === "scores" ? { ...c, values: c.values.slice(0, end) } : c.kind === "labels" ? { ...c, values: c.values.slice(0, end) } : c])
  )
})

/**
 * One dataset's view of a gold file read with its format: its column and its records, with
 * `scoredLines` applied (only the first lines are scored: STS 2017 track 6) and the annotated pairs
 * checked against the edition's `pairs`.
 */
const view = (edition: TaskEdition, spec: DatasetSpec, file: string, read: ReadFile): GoldDataset => {
  const issues: Array<Issue.Issue> = [...read.issues]
  const column = Registry.columnOf(edition, spec)
  let table = read.table
  if (spec.scoredLines !== undefined && table.length > spec.scoredLines) {
    table = sliceTable(table, spec.scoredLines)
    issues.push(
      Issue.info("lines-scored", file, `only lines 1-${spec.scoredLines} of the ${read.table.length} gold lines of ${spec.name} are scored`, {
        expected: `${spec.scoredLines} scored lines`,
        found: `${read.table.length} lines`
      })
    )
  }
  let rows: Int32Array | undefined
  if (table.datasets !== undefined) {
    const own: Array<number> = []
    table.datasets.forEach((d, i) => d === spec.name && own.push(i))
    rows = Int32Array.from(own)
    if (own.length === 0 && !Issue.hasErrors(issues)) {
      issues.push(
        Issue.error("missing-dataset", file, `the gold file has no record of dataset ${spec.name} (no record names it in its dataset field)`, {
          field: spec.name,
          expected: `records of ${spec.name}`,
          found: `datasets ${[...new Set(table.datasets)].slice(0, 10).join(", ")}`
        })
      )
    }
  }
  const pick = <A>(values: ArrayLike<A>, make: (n: number, at: (k: number) => A) => ArrayLike<A>) =>
    rows === undefined ? values : make(rows.length, (k) => values[rows[k]])
  const pairIds = table.ids === undefined ? undefined : (pick(table.ids, (n, at) => Array.from({ length: n }, (_, k) => at(k))) as ReadonlyArray<string>)
  const data = table.columns[column.name] ?? { kind: "absent" }
  const base = { name: spec.name, file, table, column, rows, ...(pairIds !== undefined ? { pairIds } : {}) }
  if (data.kind !== column.kind) {
    if (!Issue.hasErrors(issues)) {
      issues.push(
        Issue.error("missing-header", file, `the gold file has no ${column.field} values, so dataset ${spec.name} cannot be scored`, {
          field: column.field,
          expected: `a ${column.field} column`,
          found: "no such column"
        })
      )
    }
    return column.kind === "scores"
      ? { ...base, kind: "scores", scores: new Float64Array(0), annotated: 0, issues }
      : { ...base, kind: "labels", labels: [], annotated: 0, issues }
  }
  if (data.kind === "scores") {
    const scores = pick(data.values, (n, at) => Float64Array.from({ length: n }, (_, k) => at(k))) as Float64Array
    let annotated = 0
    for (let i = 0; i < scores.length; i++) if (!Number.isNaN(scores[i])) annotated++
    checkPairs(spec, file, annotated, issues)
    return { ...base, kind: "scores", scores, annotated, issues }
  }
  const labels = pick(data.values, (n, at) => Array.from({ length: n }, (_, k) => at(k))) as ReadonlyArray<string>
  const annotated = labels.filter((l) => l !== "").length
  checkPairs(spec, file, annotated, issues)
  return { ...base, kind: "labels", labels, annotated, issues }
}

/**
 * Read one dataset's gold from its content, pure: the file read with the dataset's format, and
 * the dataset's view of it.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 *
 * const sts2017 = Registry.get("sts2017")!
 * const track5 = sts2017.datasets.find((d) => d.name === "track5.en-en")!
 * const gold = Gold.parseDataset(sts2017, track5, "STS.gs.track5.en-en.txt", "4.2\n\n1.0\n")
 * gold.kind === "scores" && gold.scores // Float64Array [4.2, NaN, 1]: the blank line is a pair not annotated
 * gold.annotated // 2 (a warning says the edition expects 250)
 * ```
 * @since 0.1.0
 */
export const parseDataset = (edition: TaskEdition, spec: DatasetSpec, file: string, content: Uint8Array | string): GoldDataset =>
  view(edition, spec, file, readFile(Registry.formatOf(edition, spec), file, content))

// The published pair counts catch a wrong or truncated gold file early; a user edition without
// `pairs` skips the check.
const checkPairs = (spec: DatasetSpec, file: string, found: number, issues: Array<Issue.Issue>) => {
  if (spec.pairs !== undefined && found !== spec.pairs && !Issue.hasErrors(issues)) {
    issues.push(
      Issue.warning("length-mismatch", file, `the gold of ${spec.name} has ${found} annotated pairs; the edition expects ${spec.pairs}`, {
        field: spec.name,
        expected: `${spec.pairs} pairs`,
        found: `${found} pairs`
      })
    )
  }
}

// A dataset whose gold was never released is expected to be missing: a warning with the reason.
const missingIssue = (spec: DatasetSpec, file: string, why: string, code: "file-unreadable" | "too-large" = "file-unreadable") =>
  spec.goldNotPublic !== undefined
    ? Issue.warning("not-public", file, `dataset ${spec.name} cannot be scored: ${spec.goldNotPublic}`, {
        field: spec.name,
        expected: spec.gold,
        found: "no gold file"
      })
    : Issue.error(code, file, `the gold file of dataset ${spec.name} ${why}; ${spec.name} cannot be scored`, {
        field: spec.name,
        expected: spec.gold
      })

type Entry =
  | { readonly spec: DatasetSpec; readonly file: string; readonly content: Uint8Array | string }
  | { readonly spec: DatasetSpec; readonly file: string; readonly table: Format.GoldTable }
  | { readonly spec: DatasetSpec; readonly missing: Issue.Issue }

const assemble = (edition: TaskEdition, entries: ReadonlyArray<Entry>, extra: ReadonlyArray<Issue.Issue> = []): Gold => {
  const datasets: Array<GoldDataset> = []
  const issues: Array<Issue.Issue> = [...extra]
  // Each file is read once, whatever number of datasets it serves (SICK: relatedness and
  // entailment), and its issues are listed once.
  const files = new Map<string, ReadFile>()
  for (const entry of entries) {
    if ("missing" in entry) {
      if (!issues.includes(entry.missing) && !issues.some((i) => i.file === entry.missing.file && i.message === entry.missing.message)) issues.push(entry.missing)
      continue
    }
    const format = Registry.formatOf(edition, entry.spec)
    const key = `${format.name}\u0000${entry.file}`
    let read = files.get(key)
    const first = read === undefined
    if (read === undefined) files.set(key, (read = "table" in entry ? { table: entry.table, issues: [] } : readFile(format, entry.file, entry.content)))
    const dataset = view(edition, entry.spec, entry.file, read)
    datasets.push(dataset)
    issues.push(...(first ? dataset.issues : dataset.issues.slice(read.issues.length)))
  }
  const read = new Set(datasets.map((d) => d.name))
  return { edition: edition.id, datasets, missing: edition.datasets.filter((d) => !read.has(d.name)).map((d) => d.name), issues }
}

/**
 * Build an edition's gold from file contents held in memory (no file system). A dataset without
 * an entry in `texts` takes the entry of a dataset read from the same gold file (SICK's one file
 * serves relatedness and entailment), else it is reported missing.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 *
 * // gold from texts at hand (a Codabench reference folder, a test) instead of a folder on disk
 * const gold = Gold.goldFromTexts(Registry.get("sts2017")!, [{ dataset: "track5.en-en", file: "STS.gs.track5.en-en.txt", content: "4.2\n1.0\n" }])
 * ```
 * @since 0.1.0
 */
export const goldFromTexts = (edition: TaskEdition, texts: ReadonlyArray<GoldText>): Gold =>
  assemble(
    edition,
    edition.datasets.map((spec): Entry => {
      // a dataset without a text of its own shares that of a dataset read from the same gold file
      const text = texts.find((t) => t.dataset === spec.name) ?? texts.find((t) => edition.datasets.some((d) => d.name === t.dataset && d.gold === spec.gold))
      return text === undefined ? { spec, missing: missingIssue(spec, spec.gold, "was not given") } : { spec, file: text.file, content: text.content }
    })
  )

/**
 * Build an edition's gold from tables already read (`Format.GoldTable`, one per gold file), each
 * dataset viewed as `loadGold` views it (its column, its records, `scoredLines`): what a scorer
 * holding only the gold's shape (a sealed Codabench test phase: pair IDs and line counts, no
 * values) validates runs against. A dataset without a table is reported missing.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 *
 * const sts2017 = Registry.get("sts2017")!
 * const table = { file: "STS.gs.track5.en-en.txt", length: 2, columns: { score: { kind: "scores" as const, values: Float64Array.of(0, 1) } } }
 * const gold = Gold.goldFromTables(sts2017, [{ dataset: "track5.en-en", file: table.file, table }])
 * ```
 * @since 0.3.0
 */
export const goldFromTables = (
  edition: TaskEdition,
  tables: ReadonlyArray<{ readonly dataset: string; readonly file: string; readonly table: Format.GoldTable }>
): Gold =>
  assemble(
    edition,
    edition.datasets.map((spec): Entry => {
      const t = tables.find((x) => x.dataset === spec.name)
      return t === undefined ? { spec, missing: missingIssue(spec, spec.gold, "was not given") } : { spec, file: t.file, table: t.table }
    })
  )

/**
 * Load an edition's gold from a folder (each dataset's `gold` file inside it) or a file. A file is
 * the gold of a single-dataset edition (SICK, STS-B); for an edition with several datasets it is
 * the gold of the dataset whose `gold` name it has (its base name: `eng_test_with_labels.csv` for
 * `eng/eng_test_with_labels.csv`), and only that dataset is loaded (the others are listed in
 * `missing`, with an info issue). In a folder, a `gold` path with a sub-folder
 * (`eng/eng_test_with_labels.csv`, the SemRel release's layout) is also looked for by its base name
 * directly in the folder (a flat folder of gold files, as a scoring site holds them).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a folder of the edition's gold files, or (SICK, STS-B) the one gold file
 * const gold = await Effect.runPromise(Gold.loadGold(Registry.get("sick2014")!, "SICK_test_annotated.txt").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const loadGold = (
  edition: TaskEdition,
  goldPath: string
): Effect.Effect<Gold, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const exists = (p: string) => fs.exists(p).pipe(Effect.orElseSucceed(() => false))
    const nothing = (issue: Issue.Issue) => assemble(edition, [], [issue])
    const info = yield* fs.stat(goldPath).pipe(Effect.option)
    if (info._tag === "None") {
      return nothing(
        Issue.error("file-unreadable", goldPath, `the gold of ${edition.id} was not found at ${goldPath}${pathApi.isAbsolute(goldPath) ? "" : ` (resolved from ${pathApi.resolve(".")})`}; no dataset can be scored`, {
          expected: edition.datasets.length === 1 ? edition.datasets[0].gold : "a folder with the gold files"
        })
      )
    }
    let wanted: ReadonlyArray<{ spec: DatasetSpec; file: string }>
    const extra: Array<Issue.Issue> = []
    if (info.value.type === "Directory") {
      const located: Array<{ spec: DatasetSpec; file: string }> = []
      for (const spec of edition.datasets) {
        const nested = pathApi.join(goldPath, spec.gold)
        const flat = pathApi.join(goldPath, pathApi.basename(spec.gold))
        const useFlat = nested !== flat && !(yield* exists(nested)) && (yield* exists(flat))
        located.push({ spec, file: useFlat ? flat : nested })
      }
      wanted = located
    } else if (new Set(edition.datasets.map((d) => d.gold)).size === 1) {
      // one gold file serves every dataset (SICK's two subtasks, STS-B): any name will do
      wanted = edition.datasets.map((spec) => ({ spec, file: goldPath }))
    } else {
      const base = pathApi.basename(goldPath)
      const first = edition.datasets.find((d) => d.gold === base) ?? edition.datasets.find((d) => pathApi.basename(d.gold) === base)
      if (first === undefined) {
        return nothing(
          Issue.error("unknown-file", goldPath, `${base} is not a gold file of ${edition.id}; give the gold folder or one of: ${edition.datasets.map((d) => d.gold).join(", ")}`, {
            expected: "a gold folder",
            found: base
          })
        )
      }
      const served = edition.datasets.filter((d) => d.gold === first.gold)
      wanted = served.map((spec) => ({ spec, file: goldPath }))
      extra.push(
        Issue.info("missing-dataset", goldPath, `only the gold of ${served.map((d) => d.name).join(", ")} was given; the other datasets of ${edition.id} are not loaded`)
      )
    }
    const entries: Array<Entry> = []
    // a file serving several datasets (SICK) is read once
    const contents = new Map<string, Uint8Array | Files.ReadError>()
    for (const { spec, file } of wanted) {
      let bytes = contents.get(file)
      if (bytes === undefined) {
        const result = yield* Files.readFile(file, { what: "the gold file" }).pipe(Effect.result)
        bytes = result._tag === "Success" ? result.success : result.failure
        contents.set(file, bytes)
      }
      if (bytes instanceof Uint8Array) entries.push({ spec, file, content: bytes })
      else {
        const why = bytes.reason === "missing" ? "is missing" : `cannot be read (${Files.detail(bytes)})`
        entries.push({ spec, missing: missingIssue(spec, file, why, bytes.reason === "too-large" ? "too-large" : "file-unreadable") })
      }
    }
    return assemble(edition, entries, extra)
  })
