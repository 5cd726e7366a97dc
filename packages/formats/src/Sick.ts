/**
 * SemEval-2014 Task 1 (SICK) files: data files (train / trial / test, with or without gold, and the
 * 12-column full `SICK.txt`) and run files (`pair_ID`, `entailment_judgment`, `relatedness_score` in
 * any order; `NA` for a subtask not taken part in).
 *
 * Convention: an issue whose `field` is `relatedness_score` or `entailment_judgment` affects only
 * that subtask; an issue with no field affects the whole file.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { Collector } from "./internal/collect.js"
import { decimalHint, separatorHint } from "./internal/hints.js"
import { formatNumber, parseNumber } from "./internal/number.js"
import { contentEnd, isBlank } from "./Text.js"
import type { TextFile } from "./Text.js"
import type { Format } from "./Format.js"

/**
 * Case-sensitive, as in the final official scorer.
 *
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * Sick.ENTAILMENT_LABELS // ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
 * ```
 * @since 0.1.0
 */
export const ENTAILMENT_LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const label: Sick.EntailmentLabel = "NEUTRAL"
 * ```
 * @since 0.1.0
 */
export type EntailmentLabel = (typeof ENTAILMENT_LABELS)[number]

/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const column: "relatedness_score" = Sick.RELATEDNESS
 * ```
 * @since 0.1.0
 */
export const RELATEDNESS = "relatedness_score"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const column: "entailment_judgment" = Sick.ENTAILMENT
 * ```
 * @since 0.1.0
 */
export const ENTAILMENT = "entailment_judgment"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const header = [Sick.PAIR_ID, Sick.ENTAILMENT, Sick.RELATEDNESS].join("\t") // a run file's header line
 * ```
 * @since 0.1.0
 */
export const PAIR_ID = "pair_ID"

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const data = Sick.parseData(Text.fromString("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\tA man sings\tA man sings\t5\tENTAILMENT\n", "SICK_trial.txt").value)
 * const pair: Sick.SickPair = data.value.pairs[0] // { pairId: "1", relatedness: 5, entailment: "ENTAILMENT", ... }
 * ```
 * @since 0.1.0
 */
export interface SickPair {
  readonly pairId: string
  readonly sentenceA: string
  readonly sentenceB: string
  /** gold relatedness 1-5, absent in a test input file */
  readonly relatedness: number | undefined
  /** gold entailment label, absent in a test input file */
  readonly entailment: EntailmentLabel | undefined
  /** `SemEval_set` of the full release (TRAIN / TRIAL / TEST) */
  readonly set: string | undefined
  /** 1-based physical line */
  readonly line: number
}

/**
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Sick, Text } from "@stseval/formats"
 *
 * const data: Sick.SickData = Sick.parseData(Text.decode(fs.readFileSync("SICK_test_annotated.txt"), "SICK_test_annotated.txt").value).value
 * data.hasRelatedness && data.hasEntailment // true: it is its own gold
 * ```
 * @since 0.1.0
 */
export interface SickData {
  readonly file: string
  readonly pairs: ReadonlyArray<SickPair>
  readonly hasRelatedness: boolean
  readonly hasEntailment: boolean
  /** the 12-column full release (`SICK.txt`) */
  readonly fullRelease: boolean
}

/**
 * What a run file holds for one subtask.
 *
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run = Sick.parseRun(Text.fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNA\t2.94\n", "Insight_run1.txt").value)
 * const entailment: Sick.SubtaskColumn = run.value.entailment // "na": the team did not take part
 * ```
 * @since 0.1.0
 */
export type SubtaskColumn =
  | "present" // a value in every row (individual bad values are issues with the line)
  | "na" // the literal NA (or empty) in the column: the team did not take part
  | "absent" // no such column

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run = Sick.parseRun(Text.fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNEUTRAL\t2.94\n", "Team_run1.txt").value)
 * const row: Sick.SickRunRow = run.value.rows[0] // { pairId: "6", entailment: "NEUTRAL", relatedness: 2.94, line: 2 }
 * ```
 * @since 0.1.0
 */
export interface SickRunRow {
  readonly pairId: string
  /** the label exactly as written (validated against ENTAILMENT_LABELS by the parser) */
  readonly entailment: string | undefined
  /** NaN when not a number (an issue says so) */
  readonly relatedness: number | undefined
  readonly line: number
}

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run: Sick.SickRun = Sick.parseRun(Text.fromString("relatedness_score\tpair_ID\tentailment_judgment\n2.94\t6\tNEUTRAL\n", "Team_run1.txt").value).value
 * run.columns // the header's columns, in the file's order (any order is allowed)
 * ```
 * @since 0.1.0
 */
export interface SickRun {
  readonly file: string
  /** `inferred`: no header line; columns were recognised from the values (a warning says so) */
  readonly header: "present" | "inferred"
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<SickRunRow>
  readonly relatedness: SubtaskColumn
  readonly entailment: SubtaskColumn
}

/** The full release (`SICK.txt`) calls the entailment column `entailment_label`. */
const ENTAILMENT_ALIASES = [ENTAILMENT, "entailment_label"] as const
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const columns = [Sick.PAIR_ID, Sick.SENTENCE_A, Sick.SENTENCE_B] // the data files' first columns
 * ```
 * @since 0.1.0
 */
export const SENTENCE_A = "sentence_A"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const second: "sentence_B" = Sick.SENTENCE_B
 * ```
 * @since 0.1.0
 */
export const SENTENCE_B = "sentence_B"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * // SICK.txt (the full release) says which split each pair is in
 * const column: "SemEval_set" = Sick.SEMEVAL_SET
 * ```
 * @since 0.1.0
 */
export const SEMEVAL_SET = "SemEval_set"

const LABEL_LIST = ENTAILMENT_LABELS.join(", ")

/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * Sick.isEntailmentLabel("NEUTRAL") // true
 * Sick.isEntailmentLabel("neutral") // false: case-sensitive, as the final official scorer
 * ```
 * @since 0.1.0
 */
export const isEntailmentLabel = (s: string): s is EntailmentLabel => (ENTAILMENT_LABELS as ReadonlyArray<string>).includes(s)

const CANONICAL_LABEL = new Map<string, EntailmentLabel>(ENTAILMENT_LABELS.map((l) => [l, l]))

/**
 * The label as the constant of `ENTAILMENT_LABELS`, not the substring of the line it was read
 * from: V8 keeps a substring of 13 characters or more ("CONTRADICTION") as a view into the whole
 * decoded file, so every label kept in a scored run would hold the run's text in memory.
 */
const canonicalLabel = (s: string): string => CANONICAL_LABEL.get(s) ?? s

const unknownLabel = (file: string, line: number, found: string) =>
  Issue.error(
    "unknown-label",
    file,
    isEntailmentLabel(found.toUpperCase())
      ? `the entailment label "${Issue.excerpt(found)}" on line ${line} is not one of ${LABEL_LIST}: labels are case-sensitive (the official scorer compares them exactly)`
      : `the entailment label "${Issue.excerpt(found)}" on line ${line} is not one of ${LABEL_LIST}`,
    { line, field: ENTAILMENT, expected: LABEL_LIST, found }
  )

/**
 * Read a SICK data file. Columns are found by header name (`pair_ID`, `sentence_A`, `sentence_B`,
 * and when present `relatedness_score`, `entailment_judgment` or the full release's
 * `entailment_label`, and `SemEval_set`). The test input's header names the gold columns although
 * its rows stop after `sentence_B`: when the first row has just the columns before the gold ones,
 * the file is read as having no gold. Errors carry the line and field: wrong header, a row whose
 * field count differs from the header, a duplicate pair ID, a relatedness that is not a number,
 * an unknown entailment label.
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Sick, Text } from "@stseval/formats"
 *
 * const { value, issues } = Sick.parseData(Text.decode(fs.readFileSync("SICK_test_annotated.txt"), "SICK_test_annotated.txt").value)
 * value.pairs.length // 4927
 * ```
 * @since 0.1.0
 */
export const parseData = (text: TextFile): Parsed<SickData> => {
  const { file, lines } = text
  const issues = new Collector()
  const end = contentEnd(lines)
  const empty: SickData = { file, pairs: [], hasRelatedness: false, hasEntailment: false, fullRelease: false }
  if (end === 0) return { value: empty, issues: [] }
  const headerAt = skipBlank(lines, 0, end, issues, file)
  const header = lines[headerAt].split("\t").map((h) => h.trim())
  const col = (...names: ReadonlyArray<string>) => header.findIndex((h) => names.includes(h))
  const id = col(PAIR_ID)
  const a = col(SENTENCE_A)
  const b = col(SENTENCE_B)
  let rel = col(RELATEDNESS)
  let ent = col(...ENTAILMENT_ALIASES)
  const set = col(SEMEVAL_SET)
  const missing = ([[PAIR_ID, id], [SENTENCE_A, a], [SENTENCE_B, b]] as const).filter(([, i]) => i === -1).map(([n]) => n)
  if (missing.length > 0) {
    issues.add(
      Issue.error("bad-header", file, `the header does not name ${list(missing)}; a SICK data file starts with a header line`, {
        line: headerAt + 1,
        expected: `${PAIR_ID} TAB ${SENTENCE_A} TAB ${SENTENCE_B} TAB ${RELATEDNESS} TAB ${ENTAILMENT}`,
        found: lines[headerAt]
      })
    )
    return { value: empty, issues: issues.done() }
  }
  const duplicated = repeated(header.filter((h) => h !== ""))
  if (duplicated.length > 0) {
    issues.add(
      Issue.error("bad-header", file, `the header names ${list(duplicated)} more than once`, { line: headerAt + 1, expected: "each column named once", found: lines[headerAt] })
    )
  }
  let expected = header.length
  // Test input: the header names the gold columns, the rows stop before them.
  const goldFrom = Math.min(...[rel, ent].filter((i) => i !== -1))
  let firstData = headerAt + 1
  while (firstData < end && lines[firstData] === "") firstData++
  if (Number.isFinite(goldFrom) && firstData < end) {
    const goldAtEnd = header.every((_, i) => i < goldFrom || i === rel || i === ent)
    const firstRow = lines[firstData].split("\t").length
    if (goldAtEnd && firstRow === goldFrom && goldFrom > Math.max(id, a, b)) {
      expected = goldFrom
      rel = -1
      ent = -1
    }
  }
  const pairs: Array<SickPair> = []
  const firstLine = new Map<string, number>()
  for (let i = headerAt + 1; i < end; i++) {
    const line = i + 1
    if (lines[i] === "") {
      issues.add(blankLine(file, line))
      continue
    }
    const fields = lines[i].split("\t")
    if (fields.length !== expected) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} fields, the header has ${expected}${separatorHint(lines[i], "\t", "a TAB")}`, {
          line,
          expected: `${expected} TAB-separated fields`,
          found: `${fields.length} fields`
        })
      )
    }
    const pairId = (fields[id] ?? "").trim()
    if (pairId === "") {
      issues.add(Issue.error("empty-value", file, `line ${line} has no pair ID`, { line, field: PAIR_ID, expected: "a pair ID", found: lines[i] }))
    } else {
      const seen = firstLine.get(pairId)
      if (seen !== undefined) {
        issues.add(
          Issue.error("duplicate-pair", file, `pair ID ${Issue.excerpt(pairId)} on line ${line} was already given on line ${seen}`, {
            line,
            field: PAIR_ID,
            expected: "each pair ID once",
            found: pairId
          })
        )
      } else firstLine.set(pairId, line)
    }
    let relatedness: number | undefined
    if (rel !== -1) {
      const raw = fields[rel] ?? ""
      const parsed = parseNumber(raw)
      if (parsed._tag === "number") relatedness = parsed.value
      else {
        relatedness = NaN
        issues.add(
          Issue.error(
            parsed._tag === "non-finite" ? "non-finite" : "not-a-number",
            file,
            `the relatedness score on line ${line} is ${parsed._tag === "missing" ? "missing" : parsed._tag === "non-finite" ? "not a finite number" : `not a number${decimalHint(raw)}`}`,
            { line, field: RELATEDNESS, expected: "a number (1-5)", found: raw }
          )
        )
      }
    }
    let entailment: EntailmentLabel | undefined
    if (ent !== -1) {
      const raw = fields[ent] ?? ""
      if (isEntailmentLabel(raw)) entailment = CANONICAL_LABEL.get(raw)
      else issues.add(unknownLabel(file, line, raw))
    }
    pairs.push({
      pairId,
      sentenceA: fields[a] ?? "",
      sentenceB: fields[b] ?? "",
      relatedness,
      entailment,
      set: set !== -1 ? fields[set] : undefined,
      line
    })
  }
  return {
    value: { file, pairs, hasRelatedness: rel !== -1, hasEntailment: ent !== -1, fullRelease: set !== -1 },
    issues: issues.done()
  }
}

/**
 * Write a SICK data file (TAB-separated, header first). Gold columns are written when `gold` is
 * true, left out when false, and by default when any pair has that value; a `SemEval_set` column
 * when any pair has a set. Undefined values in a written column are left empty.
 *
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * declare const pairs: ReadonlyArray<Sick.SickPair>
 * const testInput = Sick.writeData(pairs, { gold: false }) // the test input: the gold columns left out
 * ```
 * @since 0.1.0
 */
export const writeData = (pairs: ReadonlyArray<SickPair>, options?: { readonly gold?: boolean }): string => {
  const withRelatedness = options?.gold ?? pairs.some((p) => p.relatedness !== undefined)
  const withEntailment = options?.gold ?? pairs.some((p) => p.entailment !== undefined)
  const withSet = pairs.some((p) => p.set !== undefined)
  const header = [PAIR_ID, SENTENCE_A, SENTENCE_B]
  if (withRelatedness) header.push(RELATEDNESS)
  if (withEntailment) header.push(ENTAILMENT)
  if (withSet) header.push(SEMEVAL_SET)
  const rows = pairs.map((p) => {
    const row = [p.pairId, p.sentenceA, p.sentenceB]
    if (withRelatedness) row.push(p.relatedness === undefined ? "" : formatNumber(p.relatedness))
    if (withEntailment) row.push(p.entailment ?? "")
    if (withSet) row.push(p.set ?? "")
    return `${row.join("\t")}\n`
  })
  return `${header.join("\t")}\n${rows.join("")}`
}

/** Names given more than once (each listed once), in linear time: a hostile header may be huge. */
const repeated = (names: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const n of names) (seen.has(n) ? twice : seen).add(n)
  return [...twice]
}

/** A short list for a message (a hostile header may name a million columns). */
const list = (names: ReadonlyArray<string>): string =>
  names.length <= 5 ? names.join(", ") : `${names.slice(0, 5).join(", ")}, ... (${names.length} in all)`

const RUN_COLUMNS = [PAIR_ID, ENTAILMENT, RELATEDNESS] as const

/**
 * The official SICK scorer reads files with R's `read.delim`, whose `blank.lines.skip = TRUE` skips
 * empty lines (before the header too): the papers rank a primary run with an empty CRLF line in its
 * middle. Only an empty line is blank to R with a TAB separator; a line of spaces is a row.
 */
const blankLine = (file: string, line: number) =>
  Issue.warning("blank-line", file, `line ${line} is blank; it was skipped, as the official scorer (R's read.delim) skips blank lines`, {
    line,
    expected: "a row",
    found: "an empty line"
  })

/** The index of the first non-empty line at or after `from`, with a warning for each empty one. */
const skipBlank = (lines: ReadonlyArray<string>, from: number, end: number, issues: Collector, file: string): number => {
  let i = from
  while (i < end && lines[i] === "") issues.add(blankLine(file, ++i))
  return i
}
// Lengths first: a hostile header may be one 250 MB field, and lower-casing it would copy it.
const sameName = (column: string, h: string) => column.length === h.length && column.toLowerCase() === h.toLowerCase()
const isNa = (raw: string) => raw.trim() === "" || raw.trim() === "NA"

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * // a file without its header line: an error, as the official scorer; leniently read, a warning
 * const options: Sick.RunOptions = { lenient: true }
 * Sick.parseRun(Text.fromString("6\tNEUTRAL\t2.94\n", "Team_run2.txt").value, options)
 * ```
 * @since 0.2.0
 */
export interface RunOptions {
  /**
   * Read a headerless run (which the official scorer rejects) when its columns can be recognised
   * from the values of its first line, with a warning instead of an error. Default false.
   */
  readonly lenient?: boolean
}

/**
 * Read a run file. The header must name exactly `pair_ID`, `entailment_judgment` and
 * `relatedness_score`, in any order; rows may come in any order. A column holding `NA` (or nothing)
 * on every row is a subtask the team did not take part in (`"na"`, info `na-column`). A headerless
 * file (seen in real runs: `id TAB LABEL`) is rejected by the official scorer, so it is an error
 * (`missing-header`, whose message gives the header line to add); with `lenient: true` it is read
 * with columns recognised from the first row's values — the first value is the pair ID, a number is
 * the relatedness, anything else the entailment label — and a `missing-header` warning, provided
 * every column is recognised; a subtask with no column is `"absent"`. Empty lines are skipped with
 * a `blank-line` warning, as the official scorer (R's `read.delim`) skips them.
 *
 * Errors without a `field` make the whole file unusable (bad header, a row whose field count
 * differs from the header, missing or duplicate pair IDs); errors with `field` set to
 * `relatedness_score` / `entailment_judgment` concern that subtask only (unknown label, a score that
 * is not a finite number, a missing column). Values outside 1-5 are not this parser's concern.
 *
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const { value, issues } = Sick.parseRun(Text.fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNEUTRAL\t2.94\n7\tENTAILMENT\t4.1\n", "Team_run1primary.txt").value)
 * value.rows.length // 2; matched to the gold by pair ID later
 * ```
 * @since 0.1.0
 */
export const parseRun = (text: TextFile, options?: RunOptions): Parsed<SickRun> => {
  const { file, lines } = text
  const issues = new Collector()
  const end = contentEnd(lines)
  const empty: SickRun = { file, header: "present", columns: [], rows: [], relatedness: "absent", entailment: "absent" }
  if (end === 0) return { value: empty, issues: [] }
  const headerAt = skipBlank(lines, 0, end, issues, file)
  const first = lines[headerAt].split("\t").map((h) => h.trim())
  const named = first.some((h) => RUN_COLUMNS.some((c) => sameName(c, h)))
  let headerKind: SickRun["header"] = "present"
  let columns: Array<string>
  let from = headerAt + 1
  if (named) {
    columns = first.map((h) => RUN_COLUMNS.find((c) => c === h) ?? RUN_COLUMNS.find((c) => sameName(c, h)) ?? h)
    const wrongCase = first.filter((h, i) => columns[i] !== h && RUN_COLUMNS.includes(columns[i] as (typeof RUN_COLUMNS)[number]))
    if (wrongCase.length > 0) {
      issues.add(
        Issue.warning("bad-header", file, `the header writes ${list(wrongCase)} in a different case from the official column names`, {
          line: headerAt + 1,
          expected: RUN_COLUMNS.join(", "),
          found: lines[headerAt]
        })
      )
    }
    const others = columns.filter((c) => !RUN_COLUMNS.includes(c as (typeof RUN_COLUMNS)[number]))
    const duplicated = repeated(columns)
    if (others.length > 0 || duplicated.length > 0 || !columns.includes(PAIR_ID)) {
      issues.add(
        Issue.error(
          "bad-header",
          file,
          `the header must name exactly ${RUN_COLUMNS.join(", ")} (in any order)${others.length > 0 ? `; it also names ${list(others.map((o) => `"${o}"`))}` : ""}${duplicated.length > 0 ? `; it repeats ${list(duplicated)}` : ""}${!columns.includes(PAIR_ID) ? `; it has no ${PAIR_ID}` : ""}`,
          { line: headerAt + 1, expected: RUN_COLUMNS.join(" TAB "), found: lines[headerAt] }
        )
      )
    }
    for (const subtask of [ENTAILMENT, RELATEDNESS]) {
      if (!columns.includes(subtask)) {
        issues.add(
          Issue.error("bad-header", file, `the header has no ${subtask} column, so that subtask cannot be evaluated`, {
            line: headerAt + 1,
            field: subtask,
            expected: RUN_COLUMNS.join(" TAB "),
            found: lines[headerAt]
          })
        )
      }
    }
  } else if (parseNumber(first[0] ?? "")._tag !== "number") {
    // Not data (SICK pair IDs are numbers) and not the official names: a header we cannot read.
    columns = first
    issues.add(
      Issue.error("bad-header", file, `the header must name exactly ${RUN_COLUMNS.join(", ")} (in any order)${separatorHint(lines[headerAt], "\t", "a TAB")}`, {
        line: headerAt + 1,
        expected: RUN_COLUMNS.join(" TAB "),
        found: lines[headerAt]
      })
    )
  } else {
    headerKind = "inferred"
    from = headerAt
    columns = inferColumns(first)
    const unknown = columns.filter((c) => c === "")
    const recognised = unknown.length === 0 && columns.includes(PAIR_ID)
    const described = columns.map((c) => (c === PAIR_ID ? "pair ID" : c === ENTAILMENT ? "entailment label" : c === RELATEDNESS ? "relatedness score" : "?"))
    // The header that would make this file what the official scorer expects, when we can tell.
    const header = recognised ? columns : RUN_COLUMNS
    if (options?.lenient === true && recognised) {
      issues.add(
        Issue.warning(
          "missing-header",
          file,
          `the file has no header line (the official scorer rejects such a file); it was read leniently, its columns recognised from the values of line ${headerAt + 1} as ${list(described)}`,
          { line: headerAt + 1, expected: header.join("\t"), found: lines[headerAt] }
        )
      )
    } else if (recognised) {
      issues.add(
        Issue.error(
          "missing-header",
          file,
          `the file has no header line, and the official scorer rejects such a file; add this line at the top (TAB-separated): ${header.join("<TAB>")} (its columns read as ${list(described)}); or score it leniently (--lenient)`,
          { line: headerAt + 1, expected: header.join("\t"), found: lines[headerAt] }
        )
      )
    } else {
      issues.add(
        Issue.error(
          "missing-header",
          file,
          `the file has no header line, and its columns could not all be recognised from the values of line ${headerAt + 1} (${list(described)}); add the header line ${RUN_COLUMNS.join("<TAB>")} at the top, with the columns in that order`,
          { line: headerAt + 1, expected: RUN_COLUMNS.join("\t"), found: lines[headerAt] }
        )
      )
    }
  }
  const id = columns.indexOf(PAIR_ID)
  const ent = columns.indexOf(ENTAILMENT)
  const rel = columns.indexOf(RELATEDNESS)
  const expected = columns.length
  // Pass 1: field counts, pair IDs, and whether each subtask's column is NA on every row. Lines are
  // split again in pass 2 rather than kept split: a table of every field was most of the memory.
  const firstLine = new Map<string, number>()
  let entNa = ent !== -1
  let relNa = rel !== -1
  let count = 0
  for (let i = from; i < end; i++) {
    const line = i + 1
    if (lines[i] === "") {
      issues.add(blankLine(file, line))
      continue
    }
    const fields = lines[i].split("\t")
    count++
    if (entNa && !isNa(fields[ent] ?? "")) entNa = false
    if (relNa && !isNa(fields[rel] ?? "")) relNa = false
    if (fields.length !== expected) {
      issues.add(
        Issue.error(
          "field-count",
          file,
          `line ${line} has ${fields.length} fields, the ${headerKind === "present" ? "header names" : "first line has"} ${expected}${separatorHint(lines[i], "\t", "a TAB")}`,
          { line, expected: `${expected} TAB-separated fields`, found: `${fields.length} fields` }
        )
      )
    }
    if (id === -1) continue
    const pairId = (fields[id] ?? "").trim()
    if (pairId === "") {
      issues.add(Issue.error("empty-value", file, `line ${line} has no pair ID`, { line, expected: "a pair ID", found: lines[i] }))
      continue
    }
    const seen = firstLine.get(pairId)
    if (seen !== undefined) {
      issues.add(
        Issue.error("duplicate-pair", file, `pair ID ${Issue.excerpt(pairId)} on line ${line} was already given on line ${seen}`, {
          line,
          expected: "each pair ID once",
          found: pairId
        })
      )
    } else firstLine.set(pairId, line)
  }
  firstLine.clear()
  const status = (col: number, allNa: boolean, field: string): SubtaskColumn => {
    if (col === -1) return "absent"
    if (count > 0 && allNa) {
      issues.add(
        Issue.info("na-column", file, `the ${field} column holds NA (or nothing) on every line: the run does not take part in that subtask`, {
          field,
          found: "NA"
        })
      )
      return "na"
    }
    return "present"
  }
  const entailment = status(ent, entNa, ENTAILMENT)
  const relatedness = status(rel, relNa, RELATEDNESS)
  // Pass 2: the rows.
  const rows = new Array<SickRunRow>(count)
  let k = 0
  for (let i = from; i < end; i++) {
    const line = i + 1
    if (lines[i] === "") continue
    const fields = lines[i].split("\t")
    let e: string | undefined
    if (entailment === "present") {
      e = canonicalLabel(fields[ent] ?? "")
      if (!isEntailmentLabel(e)) issues.add(unknownLabel(file, line, e))
    }
    let r: number | undefined
    if (relatedness === "present") {
      const raw = fields[rel] ?? ""
      const parsed = parseNumber(raw)
      if (parsed._tag === "number") r = parsed.value
      else {
        r = NaN
        issues.add(
          Issue.error(
            parsed._tag === "non-finite" ? "non-finite" : "not-a-number",
            file,
            `the relatedness score on line ${line} is ${parsed._tag === "missing" ? "missing" : parsed._tag === "non-finite" ? "not a finite number" : `not a number${decimalHint(raw)}`}`,
            { line, field: RELATEDNESS, expected: "a number", found: raw }
          )
        )
      }
    }
    rows[k++] = { pairId: id === -1 ? "" : (fields[id] ?? "").trim(), entailment: e, relatedness: r, line }
  }
  return { value: { file, header: headerKind, columns, rows, relatedness, entailment }, issues: issues.done() }
}

/**
 * Column names for a headerless run, from its first row: the first value is the pair ID, then the
 * first number is the relatedness and the first other value the entailment label ("" = not recognised).
 */
const inferColumns = (first: ReadonlyArray<string>): Array<string> => {
  const columns: Array<string> = []
  const taken = new Set<string>()
  for (let i = 0; i < first.length; i++) {
    const value = first[i]
    let name: string
    if (i === 0) name = PAIR_ID
    else if (parseNumber(value)._tag === "number") name = RELATEDNESS
    else if (!isBlank(value)) name = ENTAILMENT
    else name = ""
    if (taken.has(name)) name = ""
    else taken.add(name)
    columns.push(name)
  }
  return columns
}

/**
 * Writes the header `pair_ID entailment_judgment relatedness_score`; undefined values as `NA`.
 *
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * Sick.writeRun([{ pairId: "6", entailment: "NEUTRAL", relatedness: 2.94 }])
 * // "pair_ID\tentailment_judgment\trelatedness_score\n6\tNEUTRAL\t2.94\n"
 * ```
 * @since 0.1.0
 */
export const writeRun = (rows: ReadonlyArray<Pick<SickRunRow, "pairId" | "entailment" | "relatedness">>): string =>
  `${RUN_COLUMNS.join("\t")}\n${rows
    .map((r) => `${r.pairId}\t${r.entailment ?? "NA"}\t${r.relatedness === undefined ? "NA" : formatNumber(r.relatedness)}\n`)
    .join("")}`

/** A run column as a table column: values when present, else `na` / `absent`. */
const runColumn = <A>(state: SubtaskColumn, values: () => A) => (state === "present" ? values() : undefined)

/**
 * The SemEval-2014 Task 1 format (`sick`): the gold is a SICK data file, a run one tab-separated
 * file with a header naming `pair_ID`, `entailment_judgment` and `relatedness_score` in any order,
 * matched by pair ID. It has two columns, scored as two datasets: `relatedness` (graded 1-5) and
 * `entailment` (ENTAILMENT / CONTRADICTION / NEUTRAL, case-sensitive).
 *
 * @example
 * ```ts
 * import { Formats, Sick } from "@stseval/formats"
 *
 * Formats.get("sick") === Sick.format // true
 * Sick.format.columns.map((c) => c.name) // ["relatedness", "entailment"]
 * ```
 * @since 0.3.0
 */
export const format: Format = {
  name: "sick",
  description:
    "SemEval-2014 Task 1: gold a SICK data file; a run one TAB-separated file with the header pair_ID, entailment_judgment, relatedness_score (any order), matched by pair_ID; NA in a column skips that subtask",
  match: "id",
  runLayout:
    "one tab-separated file with the header `pair_ID`, `entailment_judgment`, `relatedness_score` (in any order) and one row per test pair, matched to the gold by `pair_ID`; `entailment_judgment` is ENTAILMENT, CONTRADICTION or NEUTRAL (case-sensitive), `relatedness_score` a number; write `NA` in every row of a column whose subtask you do not enter",
  columns: [
    { name: "relatedness", kind: "scores", field: RELATEDNESS },
    { name: "entailment", kind: "labels", field: ENTAILMENT, labels: ENTAILMENT_LABELS }
  ],
  readGold: (text) => {
    const parsed = parseData(text)
    const issues = [...parsed.issues]
    const { pairs, hasRelatedness, hasEntailment } = parsed.value
    if (pairs.length > 0 && !hasRelatedness && !hasEntailment) {
      issues.push(
        Issue.error("missing-header", text.file, `the SICK file has no gold columns (relatedness_score, entailment_judgment): it is an input file, not gold`, {
          expected: "pair_ID, sentence_A, sentence_B, relatedness_score, entailment_judgment",
          field: RELATEDNESS
        })
      )
    }
    return {
      value: {
        file: text.file,
        length: pairs.length,
        ids: pairs.map((p) => p.pairId),
        columns: {
          relatedness: hasRelatedness ? { kind: "scores", values: Float64Array.from(pairs, (p) => p.relatedness ?? NaN) } : { kind: "absent" },
          entailment: hasEntailment ? { kind: "labels", values: pairs.map((p) => p.entailment ?? "") } : { kind: "absent" }
        }
      },
      issues
    }
  },
  runReaders: [
    {
      name: "sick-run",
      read: (text, context) => {
        const parsed = parseRun(text, { lenient: context.lenient === true })
        const run = parsed.value
        const rows = run.rows
        const relatedness = runColumn(run.relatedness, () => Float64Array.from(rows, (r) => r.relatedness ?? NaN))
        const entailment = runColumn(run.entailment, () => rows.map((r) => r.entailment ?? ""))
        return {
          value: {
            file: text.file,
            length: rows.length,
            lines: Int32Array.from(rows, (r) => r.line),
            ...(run.columns.includes(PAIR_ID) ? { ids: rows.map((r) => r.pairId) } : {}),
            columns: {
              relatedness: relatedness !== undefined ? { kind: "scores", values: relatedness } : { kind: run.relatedness === "na" ? "na" : "absent" },
              entailment: entailment !== undefined ? { kind: "labels", values: entailment } : { kind: run.entailment === "na" ? "na" : "absent" }
            }
          },
          issues: parsed.issues
        }
      }
    }
  ]
}
