/**
 * A file format as data: how a gold file is read, how a run file is read, and how a run is matched
 * to its gold (`line`: record i of the run is record i of the gold, as STS scores line by line;
 * `id`: by pair ID, as SICK and SemRel do). An edition names a format per dataset (`format: sts-gs`)
 * or describes one without code (`Declarative`); everything downstream works on the tables a format
 * reads, never on a format's name.
 *
 * One file may feed several datasets (SICK's relatedness and entailment columns; a file of every
 * language pair, split by a field): a run is aligned to its gold once per file (`align`), then each
 * dataset takes its column and its records.
 *
 * @since 0.3.0
 */
import * as Issue from "./Issue.js"
import * as Text from "./Text.js"
import type { TextFile } from "./Text.js"

/**
 * One value column of a table: graded `scores` (NaN where a gold pair is not annotated or a run's
 * value is bad), `labels` ("" where not annotated), `na` (the column is there but holds NA: a team
 * that did not take part in the subtask) or `absent` (no such column).
 *
 * @since 0.3.0
 */
export type Column =
  | { readonly kind: "scores"; readonly values: Float64Array }
  | { readonly kind: "labels"; readonly values: ReadonlyArray<string> }
  | { readonly kind: "na" }
  | { readonly kind: "absent" }

/**
 * A gold file as a format reads it: `length` records in file order, each with its value in every
 * column, its pair ID (`ids`, for `id` matching) and its dataset (`datasets`, when the file holds
 * several).
 *
 * @since 0.3.0
 */
export interface GoldTable {
  readonly file: string
  readonly length: number
  readonly ids?: ReadonlyArray<string> | undefined
  readonly datasets?: ReadonlyArray<string> | undefined
  readonly columns: Readonly<Record<string, Column>>
}

/**
 * A run file as a format reads it: `length` records with the physical line of each (`lines`, for
 * messages), pair IDs (`ids`) when matched by ID, the value columns, and the run's confidence per
 * record (0-100, STS 2013-2014) when every record gives one.
 *
 * @since 0.3.0
 */
export interface RunTable {
  readonly file: string
  readonly length: number
  readonly lines: Int32Array
  readonly ids?: ReadonlyArray<string> | undefined
  readonly columns: Readonly<Record<string, Column>>
  readonly confidence?: Float64Array | undefined
}

/**
 * A value column a format reads: its name (what an edition's dataset scores: `score`, or SICK's
 * `relatedness` and `entailment`), what it holds, and the field name issues use for it (an error
 * whose `field` is this one concerns this column only; an error without a field concerns the file).
 *
 * @since 0.3.0
 */
export interface ColumnSpec {
  readonly name: string
  readonly kind: "scores" | "labels"
  readonly field: string
  /** the labels, in the order tables and confusion matrices use (a `labels` column) */
  readonly labels?: ReadonlyArray<string> | undefined
}

/**
 * What reading and aligning a run needs to know of the dataset(s) a file serves.
 *
 * @since 0.3.0
 */
export interface Context {
  /** the dataset(s) the file serves, for messages: `headlines`, `relatedness and entailment` */
  readonly label: string
  /** read a headerless run whose columns can be recognised (SICK), with a warning; default strict */
  readonly lenient?: boolean | undefined
  /** the gold's records: a reader that places records by index (GLUE) needs it */
  readonly goldLength: number
  /** only the first `scoredLines` records of the gold are scored (STS 2017 track 6) */
  readonly scoredLines?: number | undefined
  /** records of the input (and of a complete run) when they differ from the gold's */
  readonly inputLines?: number | undefined
}

/**
 * How a run lines up with its gold: gold record i (for i < `end`) is run record `runIndex[i]`
 * (`undefined`: record i itself, as when matched by line or listed in the gold's order), and the run
 * lines that were scored when matched by line.
 *
 * @since 0.3.0
 */
export interface Alignment {
  readonly end: number
  readonly runIndex?: Int32Array | undefined
  readonly linesScored?: readonly [number, number] | undefined
  /**
   * Gold records the run has no record for, when they are not an error of the file: a gold file
   * whose records name their dataset, where a run enters any of its datasets (the caller says, per
   * dataset, whether it was not entered or entered in part)
   */
  readonly missing?: Int32Array | undefined
}

/**
 * One way of reading a run file. `sniff` recognises a file in this layout when a format accepts
 * several (an STS-B run, or GLUE's `index<TAB>prediction` file); the first reader is the default.
 *
 * @since 0.3.0
 */
export interface RunReader {
  readonly name: string
  /** recognises this layout by the file's first line */
  readonly sniff?: ((text: TextFile) => boolean) | undefined
  readonly read: (text: TextFile, context: Context) => Issue.Parsed<RunTable>
  /**
   * `read` straight from the file's bytes, for the plainest files of this layout only (undefined
   * for any other, which `read` then reads from their text): what `Text.decode` and `read` give
   * together, issues included, to the bit. Readers of many small runs save the text and its line
   * strings (`readRun`).
   */
  readonly readPlain?: ((bytes: Uint8Array, file: string, context: Context) => Issue.Parsed<RunTable> | undefined) | undefined
}

/**
 * A format: its name, how its runs are matched (`line` or `id`), its value columns, its gold reader
 * and run readers, and, when its official scorer checks pairs in its own way (SemRel's
 * `evaluation.py`), its own `align`; otherwise `alignByLine` or `alignById` does.
 *
 * @since 0.3.0
 */
export interface Format {
  readonly name: string
  readonly description: string
  readonly match: "line" | "id"
  readonly columns: ReadonlyArray<ColumnSpec>
  /** how a run file of this format is written, in a sentence or two for participants (a competition's Submitting page) */
  readonly runLayout: string
  /**
   * The extensions (with the dot) a run file of this format is usually written with (JSON Lines:
   * `.jsonl`, `.json`): a run named `Team_run1primary.jsonl` is team `Team`'s primary run 1.
   */
  readonly runExtensions?: ReadonlyArray<string> | undefined
  readonly readGold: (text: TextFile) => Issue.Parsed<GoldTable>
  readonly runReaders: ReadonlyArray<RunReader>
  readonly align?: ((gold: GoldTable, run: RunTable, context: Context) => Issue.Parsed<Alignment>) | undefined
  /**
   * A run file of one graded column, as the format's default reader reads it (baselines and
   * imports write runs with it); `ids` are the gold's pair IDs when runs are matched by ID. Absent
   * when the format has several columns (SICK writes its own).
   */
  readonly writeRun?: ((run: { readonly ids?: ReadonlyArray<string> | undefined; readonly scores: ArrayLike<number> }) => string) | undefined
  /**
   * The run a baseline writes for this format, so that baselines ask the descriptor, not its name:
   * `sick` a SICK run file (both subtasks), `stsb` the STS Benchmark's one file, `semrel` SemRel's
   * `pred_<lang>.csv` matched by pair ID; absent, a file per dataset with one score per line (STS).
   */
  readonly baselineRun?: "sick" | "stsb" | "semrel" | undefined
}

/**
 * The run reader for a file: the first whose `sniff` recognises it, else the default (first).
 *
 * @example
 * ```ts
 * import { Format, Formats, Text } from "@stseval/formats"
 *
 * const stsb = Formats.get("stsb-csv")!
 * Format.readerFor(stsb, Text.fromString("index\tprediction\n0\t2.5\n", "STS-B.tsv").value).name // "glue-stsb": GLUE's header
 * Format.readerFor(stsb, Text.fromString("2.5\n", "sts-test.output.txt").value).name // "sts-output"
 * ```
 * @since 0.3.0
 */
export const readerFor = (format: Format, text: TextFile): RunReader =>
  format.runReaders.find((r) => r.sniff !== undefined && r.sniff(text)) ?? format.runReaders[0]

/**
 * Read a run file of `format`: the issues of its decoding (`Text.decode`) then its reader's
 * (`readerFor`). A file the default reader reads plainly (`RunReader.readPlain`: an STS run of
 * plain scores, one per line) is read from its bytes, when no other reader of the format claims
 * its first line.
 *
 * @example
 * ```ts
 * import { Format, Formats } from "@stseval/formats"
 *
 * const bytes = new TextEncoder().encode("4.6\n3.9\n")
 * const run = Format.readRun(Formats.get("sts-gs")!, bytes, "STS.output.headlines.txt", { label: "headlines", goldLength: 2 })
 * run.value.columns.score // { kind: "scores", values: Float64Array [4.6, 3.9] }
 * ```
 * @since 0.3.0
 */
export const readRun = (format: Format, bytes: Uint8Array, file: string, context: Context): Issue.Parsed<RunTable> => {
  const [first, ...others] = format.runReaders
  const plain = first.readPlain?.(bytes, file, context)
  if (plain !== undefined && (others.every((r) => r.sniff === undefined) || !claimed(others, bytes, file))) return plain
  const decoded = Text.decode(bytes, file)
  const read = readerFor(format, decoded.value).read(decoded.value, context)
  return { value: read.value, issues: [...decoded.issues, ...read.issues] }
}

const firstLineDecoder = new TextDecoder()

/**
 * Whether a reader of `readers` recognises a file its default reader read plainly by its first
 * line (`RunReader.sniff`), shown to them as a file of that line alone.
 */
const claimed = (readers: ReadonlyArray<RunReader>, bytes: Uint8Array, file: string): boolean => {
  const end = bytes.indexOf(10)
  const line = firstLineDecoder.decode(bytes.subarray(0, end === -1 ? bytes.length : end))
  const first: TextFile = { file, lines: [line], bom: false, lineEnding: "lf", finalNewline: true }
  return readers.some((r) => r.sniff !== undefined && r.sniff(first))
}

/**
 * The column of a format a dataset scores: the only one, or the one named `column`.
 *
 * @example
 * ```ts
 * import { Format, Formats } from "@stseval/formats"
 *
 * Format.columnOf(Formats.get("sts-gs")!, undefined)?.name // "score": the only column
 * Format.columnOf(Formats.get("sick")!, "entailment")?.kind // "labels"
 * Format.columnOf(Formats.get("sick")!, "similarity") // undefined: SICK has no such column
 * ```
 * @since 0.3.0
 */
export const columnOf = (format: Format, column: string | undefined): ColumnSpec | undefined =>
  format.columns.length === 1 && column === undefined ? format.columns[0] : format.columns.find((c) => c.name === (column ?? format.columns[0].name))

/**
 * Align a run to its gold: the format's own `align`, else by line or by ID.
 *
 * @example
 * ```ts
 * import { Format, Formats, Text } from "@stseval/formats"
 *
 * const sts = Formats.get("sts-gs")!
 * const gold = sts.readGold(Text.fromString("4.2\n1.0\n", "STS.gs.headlines.txt").value).value
 * const text = Text.fromString("4.6\n3.9\n", "STS.output.headlines.txt").value
 * const context: Format.Context = { label: "headlines", goldLength: gold.length }
 * const run = Format.readerFor(sts, text).read(text, context).value
 * Format.align(sts, gold, run, context).value // { end: 2, linesScored: [1, 2] }: matched by line
 * ```
 * @since 0.3.0
 */
export const align = (format: Format, gold: GoldTable, run: RunTable, context: Context): Issue.Parsed<Alignment> =>
  format.align !== undefined ? format.align(gold, run, context) : format.match === "line" ? alignByLine(gold, run, context) : alignById(gold, run)

// ---------------------------------------------------------------------------------------------
// Alignment by line

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** True when a gold record has a value in some column (a blank STS gold line has none). */
const annotatedAt = (gold: GoldTable, i: number): boolean => {
  for (const c of Object.values(gold.columns)) {
    if (c.kind === "scores" && !Number.isNaN(c.values[i])) return true
    if (c.kind === "labels" && c.values[i] !== "") return true
  }
  return false
}

const anyAnnotated = (gold: GoldTable, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (annotatedAt(gold, i)) return true
  return false
}

/**
 * Align by line, as the STS scorers do: run record i is gold record i. The run must have as many
 * records as the gold, or the edition's scored lines, or its input lines (STS 2017 track 6: a 250-
 * or a 500-line run against 250 gold lines, only lines 1-250 scored); a run that stops before gold
 * lines that are all blank (not annotated) loses nothing. Anything else is a `length-mismatch` error.
 *
 * @example
 * ```ts
 * import { Format, Sts, Text } from "@stseval/formats"
 *
 * const gold = Sts.format.readGold(Text.fromString("4.2\n1.0\n", "STS.gs.headlines.txt").value).value
 * const context: Format.Context = { label: "headlines", goldLength: 2 }
 * const run = Sts.outputReader.read(Text.fromString("4.6\n", "STS.output.headlines.txt").value, context).value
 * Format.alignByLine(gold, run, context).issues[0].code // "length-mismatch": one score for two pairs
 * ```
 * @since 0.3.0
 */
export const alignByLine = (gold: GoldTable, run: RunTable, context: Context): Issue.Parsed<Alignment> => {
  const name = context.label
  const path = run.file
  const goldLines = gold.length
  const scoredEnd = context.scoredLines !== undefined ? Math.min(context.scoredLines, goldLines) : goldLines
  const runLines = run.length
  const issues: Array<Issue.Issue> = []
  const accepted = new Set<number>([goldLines])
  if (context.scoredLines !== undefined) {
    accepted.add(scoredEnd)
    if (context.inputLines !== undefined) accepted.add(context.inputLines)
  }
  // A gold whose last lines are blank (unannotated pairs at the end) against a run that stops
  // before them: nothing would be scored on those lines anyway.
  const tailUnannotated = runLines < goldLines && runLines > 0 && !anyAnnotated(gold, runLines, goldLines)
  if (!accepted.has(runLines) && !tailUnannotated) {
    const want = [...accepted].sort((a, b) => a - b).join(" or ")
    issues.push(
      Issue.error(
        "length-mismatch",
        path,
        `the run has ${plural(runLines, "score line")} but dataset ${name} has ${want} pairs (one score per input line, aligned by line number); the dataset is not scored`,
        {
          ...(runLines > 0 && runLines < goldLines ? { line: run.lines[runLines - 1] + 1 } : {}),
          expected: `${want} score lines`,
          found: `${runLines} score lines`
        }
      )
    )
    return { value: { end: 0 }, issues }
  }
  if (tailUnannotated) {
    issues.push(
      Issue.info(
        "lines-scored",
        path,
        `the run has ${runLines} score lines, the gold ${goldLines}; gold lines ${runLines + 1}-${goldLines} are blank (not annotated), so nothing is lost`,
        { expected: `${goldLines} score lines`, found: `${runLines} score lines` }
      )
    )
  }
  const end = Math.min(scoredEnd, runLines)
  if (context.scoredLines !== undefined) {
    issues.push(
      Issue.info(
        "lines-scored",
        path,
        runLines > end
          ? `lines 1-${end} of the run's ${runLines} are scored: the gold of ${name} covers input lines 1-${end} only`
          : `the run has ${runLines} lines, all scored (input lines 1-${end}, the part of ${name} that has gold)`,
        { expected: `${end} or ${context.inputLines ?? runLines} score lines`, found: `${runLines} score lines` }
      )
    )
  }
  return { value: { end, linesScored: [1, end] }, issues }
}

// ---------------------------------------------------------------------------------------------
// Alignment by pair ID

/** Pair-level alignment issues kept one by one before they are summed up (a run for the wrong set
 * would otherwise list every one of 4,927 pair IDs). */
const PAIR_ISSUE_LIMIT = 20

/**
 * Same-kind issues capped while they are found: the first `limit` are made and kept, the rest only
 * counted, then one closing issue stands for the rest (its `count`, so that `Issue.count` gives the
 * true total).
 *
 * @example
 * ```ts
 * import { Format, Issue } from "@stseval/formats"
 *
 * const unknown = Format.capped(2)
 * for (const id of ["x1", "x2", "x3"]) unknown.add(() => Issue.error("unknown-pair", "run.csv", `pair ID ${id} is not a pair of the gold`))
 * const issues = unknown.done((more, total) => Issue.error("unknown-pair", "run.csv", `... and ${more} more (${total} in all)`, { count: more }))
 * issues.length // 3: two kept, one for the rest
 * Issue.count(issues) // 3: the last one counts the finding it stands for
 * ```
 * @since 0.3.0
 */
export const capped = (limit = PAIR_ISSUE_LIMIT) => {
  const kept: Array<Issue.Issue> = []
  let total = 0
  return {
    /** one more finding; `make` runs only for those kept */
    add: (make: () => Issue.Issue): void => {
      total++
      if (kept.length < limit) kept.push(make())
    },
    get total() {
      return total
    },
    /** the kept issues, then `summary(more, total)` when some were only counted */
    done: (summary: (more: number, total: number) => Issue.Issue): ReadonlyArray<Issue.Issue> =>
      total <= kept.length ? kept : [...kept, summary(total - kept.length, total)]
  }
}

/**
 * Whether every one of a gold's IDs is distinct, found once per gold: a scorer aligns each of its
 * runs with the same gold, and a set of 4,927 IDs per SICK run was a tenth of reading it.
 */
const distinctIds = new WeakMap<ReadonlyArray<string>, boolean>()

const sameOrder = (gold: ReadonlyArray<string>, run: ReadonlyArray<string>): boolean => {
  if (gold.length !== run.length) return false
  for (let i = 0; i < gold.length; i++) if (gold[i] !== run[i]) return false
  // the run's IDs are the gold's, in order: it repeats one exactly when the gold does
  let distinct = distinctIds.get(gold)
  if (distinct === undefined) distinctIds.set(gold, (distinct = new Set(gold).size === gold.length))
  return distinct
}

/**
 * Align by pair ID, as the SICK scorer does: every gold pair must have a run record with its ID,
 * and every run record an ID of the gold (`missing-pair`, `unknown-pair`, capped per kind; a
 * repeated ID is the reader's `duplicate-pair`, its first record kept). A run listing the gold's
 * pairs in the gold's order, each once, is aligned record by record without an index (the common
 * case: two maps of 4,927 IDs were a few milliseconds of a single run's score). When the gold's
 * records name their datasets, the gold pairs without a run record are returned (`missing`), not
 * reported: which dataset they belong to decides what they mean.
 *
 * @example
 * ```ts
 * import { Declarative, Format, Text } from "@stseval/formats"
 *
 * const csv = Declarative.make({ type: "delimited", id: "pair_id", score: "Overall" })
 * const gold = csv.readGold(Text.fromString("pair_id,Overall\na,1\nb,2\nc,3\n", "gold.csv").value).value
 * const run = csv.runReaders[0].read(Text.fromString("pair_id,Overall\nb,2\na,1\nz,3\n", "run.csv").value, { label: "test", goldLength: 3 }).value
 * const { value, issues } = Format.alignById(gold, run)
 * value.runIndex // Int32Array [1, 0, -1]: c has no record in the run
 * issues.map((i) => i.code) // ["unknown-pair", "missing-pair"]
 * ```
 * @since 0.3.0
 */
export const alignById = (gold: GoldTable, run: RunTable): Issue.Parsed<Alignment> => {
  const path = run.file
  // the gold by its file name only: messages reach participants, and the folder is the server's
  const goldName = gold.file.slice(Math.max(gold.file.lastIndexOf("/"), gold.file.lastIndexOf("\\")) + 1)
  const goldIds = gold.ids ?? []
  const runIds = run.ids ?? []
  if (gold.ids === undefined) {
    return { value: { end: 0 }, issues: [Issue.error("unknown-pair", path, `the gold (${goldName}) has no pair IDs to match the run by`, { expected: "a gold with pair IDs" })] }
  }
  if (sameOrder(goldIds, runIds)) return { value: { end: gold.length }, issues: [] }
  const issues: Array<Issue.Issue> = []
  const goldIndex = new Map<string, number>()
  goldIds.forEach((id, i) => goldIndex.set(id, i))
  const runIndex = new Int32Array(gold.length).fill(-1)
  const unknown = capped()
  for (let k = 0; k < runIds.length; k++) {
    const id = runIds[k]
    if (id === "") continue // the reader reported it
    const i = goldIndex.get(id)
    if (i === undefined) {
      const line = run.lines[k]
      unknown.add(() =>
        Issue.error("unknown-pair", path, `pair ID ${Issue.excerpt(id)} on line ${line} is not a pair of the gold (${goldName})`, {
          line,
          expected: `a pair ID of ${goldName}`,
          found: Issue.excerpt(id)
        })
      )
    } else if (runIndex[i] === -1) runIndex[i] = k
  }
  issues.push(
    ...unknown.done((more, total) =>
      Issue.error("unknown-pair", path, `... and ${more} more unknown pair IDs (${total} in all)`, { found: `${total} unknown pair IDs`, count: more })
    )
  )
  if (gold.datasets !== undefined) {
    const absent: Array<number> = []
    for (let i = 0; i < gold.length; i++) if (runIndex[i] === -1) absent.push(i)
    return { value: { end: gold.length, runIndex, missing: Int32Array.from(absent) }, issues }
  }
  const missing = capped()
  for (let i = 0; i < gold.length; i++) {
    if (runIndex[i] === -1) {
      missing.add(() =>
        Issue.error("missing-pair", path, `pair ID ${Issue.excerpt(goldIds[i])} of the gold has no line in the run`, {
          expected: `a line for pair ID ${Issue.excerpt(goldIds[i])}`,
          found: "no such line"
        })
      )
    }
  }
  issues.push(
    ...missing.done((more, total) =>
      Issue.error("missing-pair", path, `... and ${more} more pair IDs of the gold have no line in the run (${total} of ${gold.length} missing)`, {
        found: `${total} of ${gold.length} pair IDs missing`,
        count: more
      })
    )
  )
  return { value: { end: gold.length, runIndex }, issues }
}
