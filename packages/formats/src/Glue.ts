/**
 * GLUE benchmark submission files for STS-B: `STS-B.tsv`, header `index<TAB>prediction`, one row per
 * test pair, `index` the pair's 0-based row in the STS-B test set (the rows of the STS Benchmark's
 * `sts-test.csv`, in order). The GLUE server refuses predictions outside [0, 5]; so does this reader.
 *
 * `parseStsb` turns such a file into an `Sts.StsOutput` aligned by row (score i = test row i), so a
 * GLUE file is scored exactly like a plain one-score-per-line STS-B run.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { Collector } from "./internal/collect.js"
import { decimalHint, separatorHint } from "./internal/hints.js"
import { formatNumber, parseNumber } from "./internal/number.js"
import type { StsOutput } from "./Sts.js"
import { contentEnd } from "./Text.js"
import type { TextFile } from "./Text.js"
import type { RunReader } from "./Format.js"

/**
 * The file name GLUE expects for STS-B predictions.
 *
 * @since 0.1.0
 */
export const STSB_FILE = "STS-B.tsv"

/**
 * GLUE's range for STS-B predictions, inclusive.
 *
 * @since 0.1.0
 */
export const STSB_RANGE = { min: 0, max: 5 } as const

const HEADER = ["index", "prediction"] as const

/**
 * True when the file's first line is GLUE's header `index<TAB>prediction` (a plain STS-B run has a
 * number there).
 *
 * @example
 * ```ts
 * import { Glue, Text } from "@stseval/formats"
 *
 * Glue.isStsbFile(Text.fromString("index\tprediction\n0\t2.5\n", "STS-B.tsv").value) // true
 * ```
 * @since 0.1.0
 */
export const isStsbFile = (text: TextFile): boolean => {
  const first = text.lines[0]
  if (first === undefined) return false
  const fields = first.split("\t").map((f) => f.trim().toLowerCase())
  return fields.length === 2 && fields[0] === HEADER[0] && fields[1] === HEADER[1]
}

/**
 * Read a GLUE `STS-B.tsv` into scores by test row. `rows` is the number of test pairs (1379 for
 * STS-B test): every index 0..rows-1 must appear exactly once. A bad header, a row without two
 * fields, an index that is not an integer in range or is repeated, a prediction that is missing,
 * not a number or outside [0, 5] (the GLUE server refuses those), and a missing index are errors
 * with their line. `lines[i]` is the physical line of test row i's prediction.
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import { Glue, Text } from "@stseval/formats"
 *
 * // GLUE's layout: an index column, the prediction; 1379 rows for the test set
 * const { value, issues } = Glue.parseStsb(Text.fromString("index\tprediction\n0\t2.5\n1\t4.75\n", "STS-B.tsv").value, 2)
 * ```
 * @since 0.1.0
 */
export const parseStsb = (text: TextFile, rows: number): Parsed<StsOutput> => {
  const { file, lines } = text
  const issues = new Collector()
  const scores = new Float64Array(rows).fill(NaN)
  const at = new Int32Array(rows)
  const none = (): Parsed<StsOutput> => ({ value: { file, scores: new Float64Array(0), confidence: undefined, lines: new Int32Array(0) }, issues: issues.done() })
  if (!isStsbFile(text)) {
    issues.add(
      Issue.error("missing-header", file, `the first line must be GLUE's header index<TAB>prediction`, {
        line: 1,
        expected: "index\tprediction",
        found: lines[0] ?? ""
      })
    )
    return none()
  }
  const end = contentEnd(lines)
  for (let i = 1; i < end; i++) {
    const line = i + 1
    const fields = lines[i].split("\t")
    if (fields.length !== 2) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} field${fields.length === 1 ? "" : "s"}; a row is index<TAB>prediction${separatorHint(lines[i], "\t", "a TAB")}`, {
          line,
          expected: "2 TAB-separated fields",
          found: `${fields.length} fields`
        })
      )
      continue
    }
    const [rawIndex, rawValue] = fields
    const index = /^\s*\d+\s*$/.test(rawIndex) ? Number(rawIndex) : NaN
    if (!Number.isSafeInteger(index) || index >= rows) {
      issues.add(
        Issue.error("unknown-pair", file, `the index on line ${line} is not a test row (0-${rows - 1})`, {
          line,
          field: "index",
          expected: `an integer 0 to ${rows - 1}`,
          found: rawIndex
        })
      )
      continue
    }
    if (at[index] !== 0) {
      issues.add(
        Issue.error("duplicate-pair", file, `index ${index} on line ${line} was already on line ${at[index]}`, {
          line,
          field: "index",
          expected: "each index once",
          found: rawIndex
        })
      )
      continue
    }
    at[index] = line
    const parsed = parseNumber(rawValue)
    if (parsed._tag !== "number") {
      issues.add(
        Issue.error(parsed._tag === "missing" ? "empty-value" : parsed._tag, file, `the prediction on line ${line} is ${parsed._tag === "missing" ? "missing" : `not a finite number${decimalHint(rawValue)}`}`, {
          line,
          field: "prediction",
          expected: "a number from 0 to 5",
          found: rawValue
        })
      )
      continue
    }
    if (parsed.value < STSB_RANGE.min || parsed.value > STSB_RANGE.max) {
      issues.add(
        Issue.error("out-of-scale", file, `the prediction on line ${line} (${rawValue}) is outside 0-5; the GLUE server refuses such a file`, {
          line,
          field: "prediction",
          expected: "a number from 0 to 5",
          found: rawValue
        })
      )
      continue
    }
    scores[index] = parsed.value
  }
  let absent = 0
  let firstAbsent = -1
  for (let i = 0; i < rows; i++) {
    if (at[i] === 0) {
      absent++
      if (firstAbsent === -1) firstAbsent = i
    }
  }
  if (absent > 0) {
    issues.add(
      Issue.error("missing-pair", file, `${absent} of the ${rows} test rows have no prediction (the first: index ${firstAbsent})`, {
        field: "index",
        expected: `one row for each index 0 to ${rows - 1}`,
        found: `${rows - absent} indices`
      })
    )
  }
  if (issues.hasErrors) return none()
  return { value: { file, scores, confidence: undefined, lines: at }, issues: issues.done() }
}

/**
 * Write a GLUE `STS-B.tsv`: header, then `index<TAB>prediction` for each test row in order. A value
 * outside [0, 5] or not finite throws a RangeError (the GLUE server would refuse the file); rescale
 * first (e.g. `Rescale` in @stseval/metrics) when a system's scores are on another scale.
 *
 * @example
 * ```ts
 * import { Glue } from "@stseval/formats"
 *
 * Glue.writeStsb([2.5, 4.75]) // "index\tprediction\n0\t2.5\n1\t4.75\n"
 * ```
 * @since 0.1.0
 */
export const writeStsb = (scores: ArrayLike<number>): string => {
  let out = `${HEADER.join("\t")}\n`
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i]
    // a defect: the writer's caller clips to GLUE's range (a run read from a user is never written back)
    if (!Number.isFinite(v) || v < STSB_RANGE.min || v > STSB_RANGE.max) {
      throw new RangeError(`GLUE STS-B predictions must be numbers from 0 to 5; row ${i} is ${v}`)
    }
    out += `${i}\t${formatNumber(v)}\n`
  }
  return out
}

/**
 * GLUE's `STS-B.tsv` as a run reader: recognised by its header, every test row placed by its
 * index (the gold's record count is the number of test rows).
 *
 * @example
 * ```ts
 * import { Glue, Text } from "@stseval/formats"
 *
 * const text = Text.fromString("index\tprediction\n1\t4.75\n0\t2.5\n", "STS-B.tsv").value
 * Glue.stsbReader.sniff?.(text) // true: GLUE's header
 * Glue.stsbReader.read(text, { label: "test", goldLength: 2 }).value.columns.score // { kind: "scores", values: Float64Array [2.5, 4.75] }: by index
 * ```
 * @since 0.3.0
 */
export const stsbReader: RunReader = {
  name: "glue-stsb",
  sniff: isStsbFile,
  read: (text, context) => {
    const parsed = parseStsb(text, context.goldLength)
    const o = parsed.value
    return { value: { file: o.file, length: o.scores.length, lines: o.lines, columns: { score: { kind: "scores", values: o.scores } } }, issues: parsed.issues }
  }
}
