/**
 * STS Benchmark csv (`sts-train.csv`, `sts-dev.csv`, `sts-test.csv`, companion files): TAB-separated,
 * read with quoting off (bare `"` occur inside sentences), extra trailing fields tolerated. Fields:
 * genre, file, year, id, score, sentence1, sentence2[, extra...]. A run for STS-B is an
 * `STS.output`-style file (one score per line of the csv), parsed with `Sts.parseOutput`.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { Collector } from "./internal/collect.js"
import { formatNumber, parseNumber } from "./internal/number.js"
import { contentEnd } from "./Text.js"
import type { TextFile } from "./Text.js"
import type { Format } from "./Format.js"
import * as Glue from "./Glue.js"
import * as Sts from "./Sts.js"

/**
 * One row of an STS Benchmark file.
 *
 * @since 0.1.0
 */
export interface StsbRow {
  readonly genre: string
  readonly source: string
  readonly year: string
  readonly id: string
  readonly score: number
  readonly sentence1: string
  readonly sentence2: string
  readonly extra: ReadonlyArray<string>
  readonly line: number
}

/**
 * An STS Benchmark file read: its rows.
 *
 * @since 0.1.0
 */
export interface StsbData {
  readonly file: string
  readonly rows: ReadonlyArray<StsbRow>
}

/**
 * Which field layout a file uses: the benchmark's (genre, file, year, id, score, sentence1,
 * sentence2) or the companion data's (`sts-mt.csv`, `sts-other.csv`), which has no genre field.
 *
 * @since 0.1.0
 */
export type Layout = "benchmark" | "companion"

// Years are written `2012test`, `2012train`, `2016`...
const YEAR = /^\d{4}[a-z]*$/

/**
 * The layout of a file, from its first lines (up to 50): in the benchmark field 5 is the score; in
 * the companion files field 5 is a sentence, field 4 the score and field 2 the year. (Ids and years
 * are both four digits, so the year's position alone does not tell them apart.)
 *
 * @example
 * ```ts
 * import { StsBenchmark, Text } from "@stseval/formats"
 *
 * // the benchmark's own csv, or the companion files' layout
 * StsBenchmark.detectLayout(Text.fromString("main-captions\tMSRvid\t2012test\t0001\t5.000\ta\tb\n", "sts-test.csv").value)
 * ```
 * @since 0.1.0
 */
export const detectLayout = (text: TextFile): Layout => {
  let benchmark = 0
  let companion = 0
  const end = Math.min(contentEnd(text.lines), 50)
  for (let i = 0; i < end; i++) {
    const f = text.lines[i].split("\t")
    if (isNumber(f[4])) benchmark++
    else if (isNumber(f[3]) && YEAR.test(f[1] ?? "")) companion++
  }
  return companion > benchmark ? "companion" : "benchmark"
}

const isNumber = (s: string | undefined) => s !== undefined && parseNumber(s)._tag === "number"

/**
 * Read an STS Benchmark csv. Fields are split on TAB only: no quoting (bare `"` occur inside
 * sentences), extra trailing fields kept in `extra`. The score is field 5 and the sentences fields
 * 6 and 7 (the companion files, without the genre field, are recognised and read one field earlier,
 * with an empty `genre`). A row with too few fields, or a score that is not a finite number, is an
 * error with the line (its score is NaN). Trailing blank lines are not rows.
 *
 * Issues returned are this parser's own; the caller adds those of `Text.decode`.
 *
 * @example
 * ```ts
 * import { StsBenchmark, Text } from "@stseval/formats"
 *
 * // tab-separated, quoting off (bare " in sentences), extra trailing fields kept aside
 * const { value } = StsBenchmark.parse(Text.fromString('main-news\tnews\t2016\t0002\t2.4\tHe said "no".\tNo.\textra\n', "sts-dev.csv").value)
 * value.rows[0].extra // ["extra"]
 * ```
 * @since 0.1.0
 */
export const parse = (text: TextFile): Parsed<StsbData> => {
  const { file, lines } = text
  const issues = new Collector()
  const layout = detectLayout(text)
  const shift = layout === "companion" ? 1 : 0
  const need = 7 - shift
  const rows: Array<StsbRow> = []
  const end = contentEnd(lines)
  for (let i = 0; i < end; i++) {
    const line = i + 1
    const fields = lines[i].split("\t")
    if (fields.length < need) {
      issues.add(
        Issue.error("field-count", file, `line ${line} has ${fields.length} fields; an STS Benchmark row has at least ${need}`, {
          line,
          expected: layout === "benchmark" ? "genre, file, year, id, score, sentence1, sentence2 (TAB-separated)" : "file, year, id, score, sentence1, sentence2 (TAB-separated)",
          found: `${fields.length} fields`
        })
      )
    }
    const at = (k: number) => fields[k - shift] ?? ""
    const raw = at(4)
    const parsed = parseNumber(raw)
    let score = NaN
    if (parsed._tag === "number") score = parsed.value
    else if (fields.length >= need) {
      issues.add(
        Issue.error(
          parsed._tag === "non-finite" ? "non-finite" : "not-a-number",
          file,
          `the score (field ${5 - shift}) on line ${line} is ${parsed._tag === "missing" ? "missing" : parsed._tag === "non-finite" ? "not a finite number" : "not a number"}`,
          { line, field: "score", expected: "a number (0-5)", found: raw }
        )
      )
    }
    rows.push({
      genre: shift === 1 ? "" : at(0),
      source: at(1),
      year: at(2),
      id: at(3),
      score,
      sentence1: at(5),
      sentence2: at(6),
      extra: fields.slice(7 - shift),
      line
    })
  }
  return { value: { file, rows }, issues: issues.done() }
}

/**
 * Write rows in the benchmark layout (genre, file, year, id, score, sentence1, sentence2, extra...).
 *
 * @example
 * ```ts
 * import { StsBenchmark } from "@stseval/formats"
 *
 * StsBenchmark.write([{ genre: "main-captions", source: "MSRvid", year: "2012test", id: "0001", score: 5, sentence1: "A man is playing a flute.", sentence2: "A man plays the flute.", extra: [] }])
 * ```
 * @since 0.1.0
 */
export const write = (rows: ReadonlyArray<Omit<StsbRow, "line">>): string =>
  rows
    .map((r) => `${[r.genre, r.source, r.year, r.id, formatNumber(r.score), r.sentence1, r.sentence2, ...r.extra].join("\t")}\n`)
    .join("")

/**
 * The STS Benchmark format (`stsb-csv`): the gold is `sts-test.csv` (score in field 5), a run one
 * score per line aligned by line, or GLUE's `STS-B.tsv` (recognised by its header).
 *
 * @example
 * ```ts
 * import { StsBenchmark } from "@stseval/formats"
 *
 * StsBenchmark.format.name // "stsb-csv"
 * StsBenchmark.format.runReaders.map((r) => r.name) // ["sts-output", "glue-stsb"]
 * ```
 * @since 0.3.0
 */
export const format: Format = {
  name: "stsb-csv",
  baselineRun: "stsb",
  description: "STS Benchmark: gold sts-*.csv (TAB-separated, no quoting, score in field 5); a run one score per line aligned by line, or GLUE's STS-B.tsv (index<TAB>prediction)",
  match: "line",
  columns: [{ name: "score", kind: "scores", field: "score" }],
  runLayout: "one score per line, line *i* scoring pair *i* of the test csv; or GLUE's `STS-B.tsv`: the header `index<TAB>prediction`, then one row per test pair (index from 0)",
  readGold: (text) => {
    const parsed = parse(text)
    const scores = Float64Array.from(parsed.value.rows, (r) => r.score)
    return { value: { file: text.file, length: scores.length, columns: { score: { kind: "scores", values: scores } } }, issues: parsed.issues }
  },
  // a plain run with an index column is GLUE's habit: its error points to GLUE's layout
  runReaders: [Sts.outputReaderWith({ alternative: `use GLUE's layout: ${Glue.STSB_FILE} with the header line index<TAB>prediction` }), Glue.stsbReader],
  writeRun: (run) => Sts.writeOutput(run.scores)
}
