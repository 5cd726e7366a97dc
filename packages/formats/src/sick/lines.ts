/** What SICK's data and run readers share: label checks, blank lines as R skips them, short lists for messages. */
import * as Issue from "../Issue.js"
import type { Collector } from "../internal/collect.js"
import { decimalHint } from "../internal/hints.js"
import { parseNumber, plainNumber } from "../internal/number.js"
import { ENTAILMENT, ENTAILMENT_LABELS, isEntailmentLabel, RELATEDNESS } from "./columns.js"
import type { EntailmentLabel } from "./columns.js"

/** The full release (`SICK.txt`) calls the entailment column `entailment_label`. */
export const ENTAILMENT_ALIASES = [ENTAILMENT, "entailment_label"] as const

const LABEL_LIST = ENTAILMENT_LABELS.join(", ")

export const CANONICAL_LABEL = new Map<string, EntailmentLabel>(ENTAILMENT_LABELS.map((l) => [l, l]))

/**
 * The label as the constant of `ENTAILMENT_LABELS`, not the substring of the line it was read
 * from: V8 keeps a substring of 13 characters or more ("CONTRADICTION") as a view into the whole
 * decoded file, so every label kept in a scored run would hold the run's text in memory.
 */
export const canonicalLabel = (s: string): string => CANONICAL_LABEL.get(s) ?? s

export const unknownLabel = (file: string, line: number, found: string) =>
  Issue.error(
    "unknown-label",
    file,
    isEntailmentLabel(found.toUpperCase())
      ? `the entailment label "${Issue.excerpt(found)}" on line ${line} is not one of ${LABEL_LIST}: labels are case-sensitive (the official scorer compares them exactly)`
      : `the entailment label "${Issue.excerpt(found)}" on line ${line} is not one of ${LABEL_LIST}`,
    { line, field: ENTAILMENT, expected: LABEL_LIST, found }
  )

/** Names given more than once (each listed once), in linear time: a hostile header may be huge. */
export const repeated = (names: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const n of names) (seen.has(n) ? twice : seen).add(n)
  return [...twice]
}

/** A short list for a message (a hostile header may name a million columns). */
export const list = (names: ReadonlyArray<string>): string =>
  names.length <= 5 ? names.join(", ") : `${names.slice(0, 5).join(", ")}, ... (${names.length} in all)`

/**
 * The official SICK scorer reads files with R's `read.delim`, whose `blank.lines.skip = TRUE` skips
 * empty lines (before the header too): the papers rank a primary run with an empty CRLF line in its
 * middle. Only an empty line is blank to R with a TAB separator; a line of spaces is a row.
 */
export const blankLine = (file: string, line: number) =>
  Issue.warning("blank-line", file, `line ${line} is blank; it was skipped, as the official scorer (R's read.delim) skips blank lines`, {
    line,
    expected: "a row",
    found: "an empty line"
  })

/** The index of the first non-empty line at or after `from`, with a warning for each empty one. */
export const skipBlank = (lines: ReadonlyArray<string>, from: number, end: number, issues: Collector, file: string): number => {
  let i = from
  while (i < end && lines[i] === "") issues.add(blankLine(file, ++i))
  return i
}

/** A relatedness score, or NaN with an error naming the line (`expected` as the data or run file words it). */
export const relatednessOf = (raw: string, file: string, line: number, expected: string, issues: Collector): number => {
  // a plain number without `parseNumber`'s trim and result object: every line of a run is one
  const plain = plainNumber(raw)
  if (!Number.isNaN(plain)) return plain
  const parsed = parseNumber(raw)
  if (parsed._tag === "number") return parsed.value
  issues.add(
    Issue.error(
      parsed._tag === "non-finite" ? "non-finite" : "not-a-number",
      file,
      `the relatedness score on line ${line} is ${parsed._tag === "missing" ? "missing" : parsed._tag === "non-finite" ? "not a finite number" : `not a number${decimalHint(raw)}`}`,
      { line, field: RELATEDNESS, expected, found: raw }
    )
  )
  return NaN
}
