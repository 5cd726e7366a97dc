/** SemRel's columns and files: data files (`PairID,Text,Score`) and runs (`PairID,Pred_Score`), read. */
import * as Issue from "../Issue.js"
import type { Parsed } from "../Issue.js"
import { Collector } from "../internal/collect.js"
import { read as readCsv } from "../Csv.js"
import { decimalHint, separatorHint } from "../internal/hints.js"
import { parseNumber } from "../internal/number.js"
import type { TextFile } from "../Text.js"

/**
 * The pair id column's name in SemRel files.
 *
 * @since 0.1.0
 */
export const PAIR_ID = "PairID"
/**
 * The column of SemRel data files that holds both sentences, one a line, in one quoted field.
 *
 * @since 0.1.0
 */
export const TEXT = "Text"
/**
 * The gold score column's name in SemRel data files.
 *
 * @since 0.1.0
 */
export const SCORE = "Score"
/**
 * The score column's name in a SemRel run.
 *
 * @since 0.1.0
 */
export const PRED_SCORE = "Pred_Score"

/**
 * One pair of a SemRel data file.
 *
 * @since 0.1.0
 */
export interface SemRelPair {
  readonly pairId: string
  readonly sentence1: string
  readonly sentence2: string
  /** the gold score (0-1); undefined in an unlabelled file (`*_test.csv`) */
  readonly score: number | undefined
  /** physical line the row starts on (a quoted Text spans two lines) */
  readonly line: number
}

/**
 * A SemRel data file read: its pairs and whether it has scores.
 *
 * @since 0.1.0
 */
export interface SemRelData {
  readonly file: string
  readonly pairs: ReadonlyArray<SemRelPair>
  /** true when the file has a `Score` column (a labelled file: gold) */
  readonly hasScores: boolean
}

/**
 * One row of a submission.
 *
 * @since 0.1.0
 */
export interface Prediction {
  readonly pairId: string
  /** NaN where the value is missing or not a number (an error issue says which line) */
  readonly score: number
  readonly line: number
}

/**
 * A `pred_<lang>.csv` file.
 *
 * @since 0.1.0
 */
export interface SemRelRun {
  readonly file: string
  /** the header as written, e.g. ["PairID", "Pred_Score"] */
  readonly header: ReadonlyArray<string>
  readonly predictions: ReadonlyArray<Prediction>
}

/**
 * The gold a run is matched to: pair IDs and scores in the gold file's order.
 *
 * @since 0.1.0
 */
export interface GoldPairs {
  readonly file: string
  readonly pairIds: ReadonlyArray<string>
  readonly scores: Float64Array
}

/**
 * A run matched to its gold: values in the gold's order.
 *
 * @since 0.1.0
 */
export interface Matched {
  readonly pairIds: ReadonlyArray<string>
  readonly run: Float64Array
  readonly gold: Float64Array
}

const EXPECTED_HEADER = "PairID,Pred_Score"
const EXPECTED_DATA_HEADER = "PairID,Text,Score (columns in any order)"

const columnIndex = (header: ReadonlyArray<string>, name: string): number =>
  header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase())

/**
 * The two sentences of a `Text` field: split at the first line break, else at the first tab (the
 * Afrikaans files); undefined when there is neither.
 *
 * @example
 * ```ts
 * import { SemRel } from "@stseval/formats"
 *
 * SemRel.splitText("A man.\nA dog.") // ["A man.", "A dog."]
 * ```
 * @since 0.1.0
 */
export const splitText = (text: string): readonly [string, string] | undefined => {
  for (const separator of ["\n", "\t"]) {
    const at = text.indexOf(separator)
    if (at !== -1) return [text.slice(0, at), text.slice(at + 1)]
  }
  return undefined
}

const numberIssue = (tag: "missing" | "not-a-number" | "non-finite", file: string, line: number, field: string, what: string, raw: string) =>
  Issue.error(
    tag === "missing" ? "empty-value" : tag,
    file,
    `the ${what} on line ${line} is ${tag === "missing" ? "missing" : tag === "non-finite" ? "not a finite number" : `not a number${decimalHint(raw)}`}`,
    { line, field, expected: "a number (0-1)", found: raw }
  )

/** A SemRel csv's header and rows, and a collector holding the csv reader's issues. */
const readRows = (text: TextFile) => {
  const csv = readCsv(text)
  const issues = new Collector()
  for (const i of csv.issues) issues.add(i)
  const [head, ...rows] = csv.records
  return { file: text.file, issues, head, rows }
}

/**
 * Read a data file (`PairID,Text,Score` in any column order; `Score` absent in an unlabelled file;
 * `Text` absent in a two-column gold `PairID,Score` as the scoring site held it). A row with the
 * wrong number of fields, an empty or repeated pair ID, or a score that is not a number is an
 * error with its line; a score outside [0, 1] and a `Text` without a line break or tab between
 * the sentences are warnings.
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { SemRel, Text } from "@stseval/formats"
 *
 * const { value, issues } = SemRel.parseData(Text.decode(fs.readFileSync("eng_dev.csv"), "eng_dev.csv").value)
 * ```
 * @since 0.1.0
 */
export const parseData = (text: TextFile): Parsed<SemRelData> => {
  const { file, issues, head, rows } = readRows(text)
  if (head === undefined) return { value: { file, pairs: [], hasScores: false }, issues: issues.done() }
  const id = columnIndex(head.fields, PAIR_ID)
  const textAt = columnIndex(head.fields, TEXT)
  const scoreAt = columnIndex(head.fields, SCORE)
  if (id === -1) {
    issues.add(
      Issue.error("missing-header", file, `the header has no ${PAIR_ID} column (found ${Issue.excerpt(head.fields.join(","))})`, {
        line: head.line,
        expected: EXPECTED_DATA_HEADER,
        found: head.fields.join(",")
      })
    )
    return { value: { file, pairs: [], hasScores: scoreAt !== -1 }, issues: issues.done() }
  }
  const seen = new Map<string, number>()
  const pairs: Array<SemRelPair> = []
  for (const row of rows) {
    const { fields, line } = row
    if (fields.length !== head.fields.length) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} fields; the header has ${head.fields.length}`, {
          line,
          expected: `${head.fields.length} comma-separated fields (${head.fields.join(",")})`,
          found: `${fields.length} fields`
        })
      )
      continue
    }
    const pairId = fields[id]
    if (pairId.trim() === "") {
      issues.add(Issue.error("empty-value", file, `the ${PAIR_ID} on line ${line} is empty`, { line, field: PAIR_ID, expected: "a pair ID" }))
      continue
    }
    const first = seen.get(pairId)
    if (first !== undefined) {
      issues.add(
        Issue.error("duplicate-pair", file, `${PAIR_ID} ${Issue.excerpt(pairId)} on line ${line} was already on line ${first}`, {
          line,
          field: PAIR_ID,
          expected: "each pair ID once",
          found: pairId
        })
      )
      continue
    }
    seen.set(pairId, line)
    let sentence1 = ""
    let sentence2 = ""
    if (textAt !== -1) {
      const split = splitText(fields[textAt])
      if (split === undefined) {
        issues.add(
          Issue.warning("field-count", file, `the ${TEXT} on line ${line} holds one sentence: no line break or tab separates two`, {
            line,
            field: TEXT,
            expected: "sentence1, a line break (or a tab), sentence2",
            found: fields[textAt]
          })
        )
        sentence1 = fields[textAt]
      } else [sentence1, sentence2] = split
    }
    let score: number | undefined
    if (scoreAt !== -1) {
      const raw = fields[scoreAt]
      const parsed = parseNumber(raw)
      if (parsed._tag === "number") {
        score = parsed.value
        if (score < 0 || score > 1) {
          issues.add(
            Issue.warning("out-of-scale", file, `the score on line ${line} (${Issue.excerpt(raw)}) is outside 0-1`, { line, field: SCORE, expected: "0 to 1", found: raw })
          )
        }
      } else {
        score = NaN
        issues.add(numberIssue(parsed._tag, file, line, SCORE, "score", raw))
      }
    }
    pairs.push({ pairId, sentence1, sentence2, score, line })
  }
  return { value: { file, pairs, hasScores: scoreAt !== -1 }, issues: issues.done() }
}

const looksLikeData = (fields: ReadonlyArray<string>): boolean => fields.length >= 2 && parseNumber(fields[fields.length - 1])._tag === "number"

/**
 * Read a submission `pred_<lang>.csv`. As `evaluation.py`: the header must have two columns, the
 * first named `PairID` (any case), and the second column is the prediction whatever its name (a
 * name other than `Pred_Score` is a warning). Unlike it, a row with a missing, non-numeric, NaN or
 * infinite prediction is an error with its line (its score is NaN here). A row with other than two
 * fields is an error (pandas stops on it).
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import { SemRel, Text } from "@stseval/formats"
 *
 * // the organisers' evaluation.py: a header whose first column is PairID
 * const { value, issues } = SemRel.parseRun(Text.fromString("PairID,Pred_Score\neng-1,0.5\n", "pred_eng.csv").value)
 * ```
 * @since 0.1.0
 */
export const parseRun = (text: TextFile): Parsed<SemRelRun> => {
  const { file, issues, head, rows } = readRows(text)
  const none = (header: ReadonlyArray<string>): Parsed<SemRelRun> => ({ value: { file, header, predictions: [] }, issues: issues.done() })
  if (head === undefined) return none([])
  const found = head.fields.join(",")
  if (head.fields[0]?.trim().toLowerCase() !== PAIR_ID.toLowerCase()) {
    const noHeader = looksLikeData(head.fields)
    issues.add(
      Issue.error(
        noHeader ? "missing-header" : "bad-header",
        file,
        noHeader
          ? `the file has no header: line ${head.line} is a prediction; the first line must be ${EXPECTED_HEADER}`
          : `the header's first column is "${Issue.excerpt(head.fields[0] ?? "")}", not ${PAIR_ID}${separatorHint(found, ",", "a comma")}`,
        { line: head.line, expected: EXPECTED_HEADER, found }
      )
    )
    return none(head.fields)
  }
  if (head.fields.length !== 2) {
    issues.add(
      Issue.error("bad-header", file, `the header has ${head.fields.length} columns; a submission has two, ${EXPECTED_HEADER}`, {
        line: head.line,
        expected: EXPECTED_HEADER,
        found
      })
    )
    return none(head.fields)
  }
  if (head.fields[1].trim().toLowerCase() !== PRED_SCORE.toLowerCase()) {
    issues.add(
      Issue.warning("bad-header", file, `the second column is named "${Issue.excerpt(head.fields[1])}", not ${PRED_SCORE}; it is read as the prediction (as evaluation.py does)`, {
        line: head.line,
        field: head.fields[1],
        expected: EXPECTED_HEADER,
        found
      })
    )
  }
  const predictions: Array<Prediction> = []
  for (const row of rows) {
    const { fields, line } = row
    if (fields.length !== 2) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} field${fields.length === 1 ? "" : "s"}; a row is PairID,Pred_Score${separatorHint(fields.join(","), ",", "a comma")}`, {
          line,
          expected: "2 comma-separated fields (PairID,Pred_Score)",
          found: `${fields.length} fields: ${fields.join(",")}`
        })
      )
      continue
    }
    const [pairId, raw] = fields
    if (pairId.trim() === "") {
      issues.add(Issue.error("empty-value", file, `the ${PAIR_ID} on line ${line} is empty`, { line, field: PAIR_ID, expected: "a pair ID of the gold" }))
    }
    const parsed = parseNumber(raw)
    let score = NaN
    if (parsed._tag === "number") score = parsed.value
    else issues.add(numberIssue(parsed._tag, file, line, PRED_SCORE, "prediction", raw))
    predictions.push({ pairId, score, line })
  }
  return { value: { file, header: head.fields, predictions }, issues: issues.done() }
}
