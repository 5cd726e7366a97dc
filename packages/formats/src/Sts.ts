/**
 * STS 2012-2017 files: `STS.input.<dataset>.txt` (sentence1 TAB sentence2 [TAB extra...]),
 * `STS.gs.<dataset>.txt` (one gold score per line; blank = not annotated, 2015/16) and
 * `STS.output.<dataset>.txt` (a run: score [TAB confidence 0-100]; `#` lines are comments),
 * aligned by line number.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { Collector } from "./internal/collect.js"
import { exactDecimalLines, formatNumber, parseNumber, plainNumber } from "./internal/number.js"
import type { NumberField } from "./internal/number.js"
import { decimalHint, separatorHint } from "./internal/hints.js"
import { contentEnd, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, isBlank } from "./Text.js"
import type { TextFile } from "./Text.js"
import type { Context, Format, RunReader, RunTable } from "./Format.js"

/**
 * One sentence pair of an STS input file.
 *
 * @since 0.1.0
 */
export interface StsInputPair {
  readonly sentence1: string
  readonly sentence2: string
  readonly extra: ReadonlyArray<string>
  readonly line: number
}

/**
 * An STS input file read: its sentence pairs.
 *
 * @since 0.1.0
 */
export interface StsInput {
  readonly file: string
  readonly pairs: ReadonlyArray<StsInputPair>
}

/**
 * An STS gold file read: one score a pair, NaN for a pair not annotated.
 *
 * @since 0.1.0
 */
export interface StsGold {
  readonly file: string
  /** one entry per gold line; NaN = not annotated (blank line) */
  readonly scores: Float64Array
  /** number of annotated lines */
  readonly annotated: number
}

/**
 * An STS run file read: one score a pair, and the confidences when given.
 *
 * @since 0.1.0
 */
export interface StsOutput {
  readonly file: string
  /** one entry per score line (comments skipped); NaN where the line was bad (an issue says which) */
  readonly scores: Float64Array
  /** confidence 0-100 per score line, when the run gives one on every line */
  readonly confidence: Float64Array | undefined
  /** physical line number of each score, for messages */
  readonly lines: Int32Array
}

/**
 * Read an input file: one pair per line, `sentence1 TAB sentence2`, extra fields (2016, 2017) kept in
 * `extra`. Trailing blank lines (reported by `Text.decode`) are not pairs. A line with fewer than two
 * fields is an error but still yields a pair (with an empty `sentence2`), so that pair `i` stays
 * physical line `i + 1`.
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import { Sts, Text } from "@stseval/formats"
 *
 * const { value, issues } = Sts.parseInput(Text.fromString("A man sings.\tA man is singing.\n", "STS.input.headlines.txt").value)
 * ```
 * @since 0.1.0
 */
export const parseInput = (text: TextFile): Parsed<StsInput> => {
  const { file, lines } = text
  const issues = new Collector()
  const pairs: Array<StsInputPair> = []
  const end = contentEnd(lines)
  for (let i = 0; i < end; i++) {
    const line = i + 1
    const fields = lines[i].split("\t")
    if (fields.length < 2) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} field; an input line is sentence1 TAB sentence2`, {
          line,
          expected: "at least 2 TAB-separated fields (sentence1, sentence2)",
          found: `${fields.length} field: ${lines[i]}`
        })
      )
    }
    const [sentence1 = "", sentence2 = "", ...extra] = fields
    for (const [field, value] of [["sentence1", sentence1], ["sentence2", sentence2]] as const) {
      if (fields.length >= 2 && isBlank(value)) {
        issues.add(Issue.warning("empty-value", file, `${field} on line ${line} is empty`, { line, field, expected: "a sentence", found: value }))
      }
    }
    pairs.push({ sentence1, sentence2, extra, line })
  }
  return { value: { file, pairs }, issues: issues.done() }
}

/**
 * Read a gold file: one score per line; a blank line is a pair that was not annotated (NaN), as in
 * 2015 and 2016. Every physical line counts, trailing blank ones too: an unannotated last pair is
 * written as a blank last line, so dropping them would shift nothing but lose that pair. A value
 * that is not a number is an error (and NaN in `scores`).
 *
 * @example
 * ```ts
 * import { Sts, Text } from "@stseval/formats"
 *
 * const { value } = Sts.parseGold(Text.fromString("4.2\n1.0\n", "STS.gs.headlines.txt").value)
 * value.scores // Float64Array [4.2, 1]
 * ```
 * @since 0.1.0
 */
export const parseGold = (text: TextFile): Parsed<StsGold> => {
  const { file, lines } = text
  const issues = new Collector()
  const scores = new Float64Array(lines.length)
  let annotated = 0
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1
    const raw = lines[i]
    if (isBlank(raw)) {
      scores[i] = NaN
      continue
    }
    const parsed = parseNumber(raw)
    if (parsed._tag === "number") {
      scores[i] = parsed.value
      annotated++
    } else {
      scores[i] = NaN
      issues.add(numberIssue(parsed, file, line, "gold score", raw))
    }
  }
  const blank = lines.length - annotated
  if (blank > 0 && !issues.hasErrors) {
    issues.add(
      Issue.info("not-annotated", file, `${blank} of ${lines.length} gold lines are blank: those pairs were not annotated and are not scored`, {
        found: `${annotated} annotated, ${blank} blank`
      })
    )
  }
  return { value: { file, scores, annotated }, issues: issues.done() }
}

/** How many numbered lines (`0<TAB>x`, `1<TAB>x`, ...) make an output file one with an index column. */
const NUMBERED_LINES = 3

/**
 * How `parseOutput` reads a run.
 *
 * @since 0.3.0
 */
export interface OutputOptions {
  /** the layout with an index column the format also reads, named in the error of a file whose first column holds line numbers */
  readonly alternative?: string | undefined
}

/**
 * Read a run's output file: `score [TAB confidence]` per line, lines starting with `#` skipped
 * (they are comments in the official scorer), trailing blank lines ignored. A missing, non-numeric
 * or infinite score is an error with the line (NaN in `scores`). Confidence must be 0-100 (a
 * warning otherwise); `confidence` is set only when every score line has a numeric one. A file
 * whose first column numbers its lines (`0<TAB>2.5`, `1<TAB>4.75`, ...: GLUE's index column without
 * its header) is one `line-numbers` error and no scores, never the numbers read as scores.
 *
 * @example
 * ```ts
 * import { Sts, Text } from "@stseval/formats"
 *
 * // a non-numeric score, NaN or Infinity is an error with its line, never read as 0
 * const { value, issues } = Sts.parseOutput(Text.fromString("4.6\nabc\n", "STS.output.headlines.txt").value)
 * ```
 * @since 0.1.0
 */
export const parseOutput = (text: TextFile, options: OutputOptions = {}): Parsed<StsOutput> => {
  const { file, lines } = text
  const issues = new Collector()
  const end = contentEnd(lines)
  // Typed arrays of the largest possible length, cut at the end (arrays of boxed numbers cost
  // several times more on a file of a million lines).
  const scores = new Float64Array(end)
  const confidence = new Float64Array(end)
  const physical = new Int32Array(end)
  let k = 0
  let withConfidence = 0
  // Whether every line so far is `n<TAB>x` with n counting up from 0 or 1 (`start`): the GLUE habit
  // of an index column, which would read each line's number as its score and the score as a confidence.
  let numbered = true
  let start = 0
  for (let i = 0; i < end; i++) {
    const raw = lines[i]
    if (raw.startsWith("#")) continue
    const line = i + 1
    const at = k++
    physical[at] = line
    // Some runs separate score and confidence with spaces; a single field with inner spaces is split
    // on them. (Looked for only in a line that has a space and no tab: most lines have neither.)
    const fields =
      raw.indexOf("\t") !== -1 ? raw.split("\t") : raw.indexOf(" ") !== -1 && /\S[ ]+\S/.test(raw.trim()) ? raw.trim().split(/ +/) : [raw]
    if (numbered) {
      const n = fields.length === 2 ? fields[0].trim() : ""
      if (at === 0 && (n === "0" || n === "1")) start = Number(n)
      numbered = n !== "" && n === String(start + at)
    }
    if (fields.length > 2) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} fields; an output line is a score and an optional confidence`, {
          line,
          expected: "score [TAB confidence]",
          found: raw
        })
      )
    }
    const plain = plainNumber(fields[0])
    if (plain === plain) scores[at] = plain
    else {
      const score = parseNumber(fields[0])
      if (score._tag === "number") scores[at] = score.value
      else {
        scores[at] = NaN
        issues.add(numberIssue(score, file, line, "score", raw, true))
      }
    }
    const rawConfidence = fields[1]
    if (rawConfidence === undefined || rawConfidence.trim() === "") {
      confidence[at] = NaN
      continue
    }
    const c = parseNumber(rawConfidence)
    if (c._tag !== "number") {
      confidence[at] = NaN
      issues.add(
        Issue.warning("bad-confidence", file, `the confidence on line ${line} is not a number`, {
          line,
          field: "confidence",
          expected: "a number from 0 to 100",
          found: rawConfidence
        })
      )
      continue
    }
    confidence[at] = c.value
    withConfidence++
    if (c.value < 0 || c.value > 100) {
      issues.add(
        Issue.warning("bad-confidence", file, `the confidence on line ${line} is ${c.value}, outside 0-100`, {
          line,
          field: "confidence",
          expected: "a number from 0 to 100",
          found: rawConfidence
        })
      )
    }
  }
  // Three lines numbered in order are no chance: real scores are not 0, 1, 2 (or 1, 2, 3), each with a confidence.
  if (numbered && k >= NUMBERED_LINES) {
    const first = lines[physical[0] - 1]
    return {
      value: { file, scores: new Float64Array(0), confidence: undefined, lines: new Int32Array(0) },
      issues: [
        Issue.error(
          "line-numbers",
          file,
          `the first column holds line numbers (${start}, ${start + 1}, ${start + 2}, …), not scores: a line of this file is a score and an optional TAB confidence, so each line's number would be read as its score; write the scores alone, one per line in the order of the input${options.alternative !== undefined ? `, or ${options.alternative}` : ""}`,
          { line: physical[0], expected: "score [TAB confidence]", found: first }
        )
      ]
    }
  }
  const complete = k > 0 && withConfidence === k
  if (withConfidence > 0 && !complete) {
    issues.add(
      Issue.warning(
        "bad-confidence",
        file,
        `only ${withConfidence} of ${k} score lines have a numeric confidence; confidences are ignored for this file`,
        { field: "confidence", expected: "a confidence on every line or on none", found: `${withConfidence} of ${k}` }
      )
    )
  }
  return {
    value: {
      file,
      scores: k === end ? scores : scores.slice(0, k),
      confidence: complete ? (k === end ? confidence : confidence.slice(0, k)) : undefined,
      lines: k === end ? physical : physical.slice(0, k)
    },
    issues: issues.done()
  }
}

/**
 * Write an input file. Sentences must not contain TAB or line breaks (they would change the fields).
 *
 * @example
 * ```ts
 * import { Sts } from "@stseval/formats"
 *
 * Sts.writeInput([{ sentence1: "A man sings.", sentence2: "A man is singing.", extra: [] }]) // "A man sings.\tA man is singing.\n"
 * ```
 * @since 0.1.0
 */
export const writeInput = (pairs: ReadonlyArray<Omit<StsInputPair, "line">>): string =>
  pairs.map((p) => `${[p.sentence1, p.sentence2, ...p.extra].join("\t")}\n`).join("")

/**
 * NaN is written as a blank line (not annotated).
 *
 * @example
 * ```ts
 * import { Sts } from "@stseval/formats"
 *
 * Sts.writeGold([4.2, Number.NaN, 1]) // "4.2\n\n1\n": NaN is a pair not annotated
 * ```
 * @since 0.1.0
 */
export const writeGold = (scores: ArrayLike<number>): string =>
  Array.from(scores, (s) => `${Number.isNaN(s) ? "" : formatNumber(s)}\n`).join("")

/**
 * Write an output file, with a TAB and the confidence on every line when `confidence` is given.
 *
 * @example
 * ```ts
 * import { Sts } from "@stseval/formats"
 *
 * Sts.writeOutput([4.6, 3.9], [100, 50]) // "4.6\t100\n3.9\t50\n"
 * ```
 * @since 0.1.0
 */
export const writeOutput = (scores: ArrayLike<number>, confidence?: ArrayLike<number>): string =>
  Array.from(scores, (s, i) => `${formatNumber(s)}${confidence !== undefined ? `\t${formatNumber(confidence[i])}` : ""}\n`).join("")

// A first line of words where scores are expected is a header the format does not have (a run
// written with `score` or `prediction` on top): say so, instead of only "not a number".
const headerHint = (line: number, raw: string) =>
  line === 1 && /^\s*\p{L}[\p{L}\p{N}_ .\t,-]*$/u.test(raw) ? ": it looks like a header line; remove the header line (one score per line, nothing above the first)" : ""

// `fields`: the line may hold more than one field (a run's score and confidence), so a line written
// with another separator gets the hint
const numberIssue = (parsed: Exclude<NumberField, { _tag: "number" }>, file: string, line: number, what: string, raw: string, fields = false) =>
  parsed._tag === "non-finite"
    ? Issue.error("non-finite", file, `the ${what} on line ${line} is not a finite number`, { line, expected: "a finite number", found: raw })
    : Issue.error(
        "not-a-number",
        file,
        parsed._tag === "missing"
          ? `the ${what} on line ${line} is missing`
          : `the ${what} on line ${line} is not a number${headerHint(line, raw) || decimalHint(raw) || (fields ? separatorHint(raw, "\t", "a TAB") : "")}`,
        { line, expected: "a number", found: raw }
      )

/**
 * The STS output reader's `readPlain`: a file of LF-ended lines, each a plain decimal score that
 * converts the short way (`exactDecimalLines`), read from its bytes in one pass; undefined for any
 * other file (a BOM, a CR, a TAB or a confidence, a comment, a blank line, no final newline, an
 * exponent or a long number, more than `Text`'s caps), which `read` then reads from its text. Such
 * a file has no issue of its decoding (`Text.decode` finds nothing to say of it) and none of
 * `parseOutput`'s (every line a score, no index column), so the result is `read`'s, to the bit.
 */
const plainOutput = (bytes: Uint8Array, file: string, context: Context): Parsed<RunTable> | undefined => {
  if (bytes.length > DEFAULT_MAX_BYTES) return undefined
  // a run has as many lines as the gold, mostly: one array of that size, not one of a line per 2 bytes cut down
  const values = exactDecimalLines(bytes, DEFAULT_MAX_LINES, context.goldLength)
  if (values === undefined) return undefined
  const lines = new Int32Array(values.length)
  for (let k = 0; k < values.length; k++) lines[k] = k + 1
  return { value: { file, length: values.length, lines, columns: { score: { kind: "scores", values } }, confidence: undefined }, issues: [] }
}

/**
 * The STS output reader as a format's run reader: one record per score line (comments skipped),
 * with the confidences when every line gives one.
 *
 * @example
 * ```ts
 * import { Sts, Text } from "@stseval/formats"
 *
 * const text = Text.fromString("4.6\n# a comment\n3.9\n", "STS.output.headlines.txt").value
 * const run = Sts.outputReader.read(text, { label: "headlines", goldLength: 2 }).value
 * run.lines // Int32Array [1, 3]: the line of each score, for messages
 * ```
 * @since 0.3.0
 */
export const outputReader: RunReader = outputReaderWith()

/**
 * The STS output reader reading with `options` (a format that also reads a layout with an index
 * column names it, for the error of a file whose first column numbers its lines).
 *
 * @example
 * ```ts
 * import { Sts, Text } from "@stseval/formats"
 *
 * const reader = Sts.outputReaderWith({ alternative: "use GLUE's layout: STS-B.tsv with the header line index<TAB>prediction" })
 * const text = Text.fromString("0\t2.5\n1\t4.75\n2\t0.4\n", "sts-test.output.txt").value
 * reader.read(text, { label: "test", goldLength: 3 }).issues[0]?.code // "line-numbers": the index read as scores otherwise
 * ```
 * @since 0.3.0
 */
export function outputReaderWith(options: OutputOptions = {}): RunReader {
  return {
    name: "sts-output",
    readPlain: plainOutput,
    read: (text) => {
      const parsed = parseOutput(text, options)
      const o = parsed.value
      return {
        value: { file: o.file, length: o.scores.length, lines: o.lines, columns: { score: { kind: "scores", values: o.scores } }, confidence: o.confidence },
        issues: parsed.issues
      }
    }
  }
}

/**
 * The STS 2012-2017 format (`sts-gs`): gold `STS.gs.<dataset>.txt` (one score per line, a blank
 * line a pair not annotated), runs `STS.output.<dataset>.txt` aligned by line.
 *
 * @example
 * ```ts
 * import { Formats, Sts } from "@stseval/formats"
 *
 * Formats.get("sts-gs") === Sts.format // true
 * Sts.format.match // "line"
 * ```
 * @since 0.3.0
 */
export const format: Format = {
  name: "sts-gs",
  description: "STS 2012-2017: gold one score per line (blank = not annotated); a run one score per line, with an optional TAB confidence, aligned by line",
  match: "line",
  columns: [{ name: "score", kind: "scores", field: "score" }],
  runLayout:
    "one score per line, line *i* scoring pair *i* of the dataset's test input; a line may add a TAB and a confidence from 0 to 100; lines starting with `#` are comments",
  readGold: (text) => {
    const parsed = parseGold(text)
    return { value: { file: text.file, length: parsed.value.scores.length, columns: { score: { kind: "scores", values: parsed.value.scores } } }, issues: parsed.issues }
  },
  runReaders: [outputReader],
  writeRun: (run) => writeOutput(run.scores)
}
