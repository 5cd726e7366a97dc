/** SICK run files: `pair_ID`, `entailment_judgment`, `relatedness_score` in any order, `NA` for a subtask not entered. */
import * as Issue from "../Issue.js"
import type { Parsed } from "../Issue.js"
import { Collector } from "../internal/collect.js"
import { separatorHint } from "../internal/hints.js"
import { formatNumber, parseNumber } from "../internal/number.js"
import { contentEnd, isBlank } from "../Text.js"
import type { TextFile } from "../Text.js"
import { ENTAILMENT, isEntailmentLabel, PAIR_ID, RELATEDNESS } from "./columns.js"
import type { SickRun, SickRunRow, SubtaskColumn } from "./columns.js"
import { blankLine, canonicalLabel, list, repeated, relatednessOf, skipBlank, unknownLabel } from "./lines.js"

const RUN_COLUMNS = [PAIR_ID, ENTAILMENT, RELATEDNESS] as const

// Lengths first: a hostile header may be one 250 MB field, and lower-casing it would copy it.
const sameName = (column: string, h: string) => column.length === h.length && column.toLowerCase() === h.toLowerCase()
const isNa = (raw: string) => {
  const s = raw.trim()
  return s === "" || s === "NA"
}

/**
 * Field `k` of a TAB-separated line, as `line.split("\t")[k] ?? ""` gives it, without the array of
 * every field: a run's lines are read twice, and splitting each (four strings and an array a line)
 * was most of reading a SICK run in a scorer.
 */
const fieldAt = (line: string, k: number): string => {
  if (k < 0) return ""
  let from = 0
  for (let j = 0; j < k; j++) {
    const tab = line.indexOf("\t", from)
    if (tab === -1) return ""
    from = tab + 1
  }
  const tab = line.indexOf("\t", from)
  return line.slice(from, tab === -1 ? line.length : tab)
}

/** How many TAB-separated fields a line has (`line.split("\t").length`). */
const fieldCount = (line: string): number => {
  let n = 1
  for (let tab = line.indexOf("\t"); tab !== -1; tab = line.indexOf("\t", tab + 1)) n++
  return n
}

/**
 * How strictly a SICK run is read.
 *
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
    count++
    if (entNa && !isNa(fieldAt(lines[i], ent))) entNa = false
    if (relNa && !isNa(fieldAt(lines[i], rel))) relNa = false
    const found = fieldCount(lines[i])
    if (found !== expected) {
      issues.add(
        Issue.error(
          "field-count",
          file,
          `line ${line} has ${found} fields, the ${headerKind === "present" ? "header names" : "first line has"} ${expected}${separatorHint(lines[i], "\t", "a TAB")}`,
          { line, expected: `${expected} TAB-separated fields`, found: `${found} fields` }
        )
      )
    }
    if (id === -1) continue
    const pairId = fieldAt(lines[i], id).trim()
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
    let e: string | undefined
    if (entailment === "present") {
      e = canonicalLabel(fieldAt(lines[i], ent))
      if (!isEntailmentLabel(e)) issues.add(unknownLabel(file, line, e))
    }
    let r: number | undefined
    if (relatedness === "present") {
      r = relatednessOf(fieldAt(lines[i], rel), file, line, "a number", issues)
    }
    rows[k++] = { pairId: fieldAt(lines[i], id).trim(), entailment: e, relatedness: r, line }
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
