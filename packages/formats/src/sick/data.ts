/** SICK data files (train / trial / test, with or without gold, the 12-column `SICK.txt`): read and written. */
import * as Issue from "../Issue.js"
import type { Parsed } from "../Issue.js"
import { Collector } from "../internal/collect.js"
import { separatorHint } from "../internal/hints.js"
import { formatNumber } from "../internal/number.js"
import { contentEnd } from "../Text.js"
import type { TextFile } from "../Text.js"
import { ENTAILMENT, isEntailmentLabel, PAIR_ID, RELATEDNESS, SEMEVAL_SET, SENTENCE_A, SENTENCE_B } from "./columns.js"
import type { EntailmentLabel, SickData, SickPair } from "./columns.js"
import { blankLine, CANONICAL_LABEL, ENTAILMENT_ALIASES, list, repeated, relatednessOf, skipBlank, unknownLabel } from "./lines.js"

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
      relatedness = relatednessOf(fields[rel] ?? "", file, line, "a number (1-5)", issues)
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

