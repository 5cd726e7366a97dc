/**
 * RFC 4180 records of a decoded text file, with the physical line each record starts on: the one
 * CSV reader of stseval (SemRel data files, the Codabench submissions export).
 *
 * The quoting rules (a quoted field may hold commas, doubled quotes and line breaks) come from
 * csv-parse, a well-kept parser tested against the csv-spectrum suite; this module only feeds it
 * the file's lines (so line numbers stay those of `Text.decode`) and turns its errors into issues.
 *
 * @since 0.2.0
 */
import { CsvError, parse } from "csv-parse/sync"
import * as Issue from "./Issue.js"
import { contentEnd, decode as decodeText } from "./Text.js"
import type { DecodeOptions, TextFile } from "./Text.js"

/**
 * One record and where it starts.
 *
 * @example
 * ```ts
 * import { Csv, Text } from "@stseval/formats"
 *
 * const records: ReadonlyArray<Csv.CsvRecord> = Csv.read(Text.fromString("PairID,Pred_Score\neng-1,0.5\n", "pred_eng.csv").value).records
 * records[1].fields // ["eng-1", "0.5"]
 * ```
 * @since 0.2.0
 */
export interface CsvRecord {
  readonly fields: ReadonlyArray<string>
  /** physical line the record starts on (1-based) */
  readonly line: number
}

/**
 * @example
 * ```ts
 * import { Csv, Text } from "@stseval/formats"
 *
 * const csv: Csv.CsvFile = Csv.read(Text.fromString('PairID,Text\n1,"a\nb"\n', "eng_test.csv").value)
 * csv.records.length // 2: a quoted field may hold a newline
 * ```
 * @since 0.2.0
 */
export interface CsvFile {
  /** the records, the header (if any) first; blank lines are not records */
  readonly records: ReadonlyArray<CsvRecord>
  /** an error when the file is not valid CSV (records up to the error are kept) */
  readonly issues: ReadonlyArray<Issue.Issue>
}

interface Parsed {
  readonly record: Array<string>
  readonly info: { readonly lines: number }
  readonly raw: string
}

const newlines = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++
  return n
}

/**
 * Read the records of a CSV text (`,`-separated, `"` quoting). Line endings were normalised by
 * `Text.decode`; the lines are joined with LF, so a record's end line (csv-parse's `info.lines`)
 * minus the line breaks inside it is the line it starts on. Records of differing lengths are kept
 * (the caller checks field counts and says which line is wrong); blank lines are skipped, as
 * pandas does. A quoted field spanning lines is one field of the record starting on its first line.
 *
 * @example
 * ```ts
 * import { Csv, Text } from "@stseval/formats"
 *
 * const { records, issues } = Csv.read(Text.fromString('PairID,Text,Score\neng-1,"A man.\nA dog.",0.25\n', "eng_train.csv").value)
 * ```
 * @since 0.2.0
 */
export const read = (text: TextFile): CsvFile => {
  const body = text.lines.slice(0, contentEnd(text.lines)).join("\n")
  const issues: Array<Issue.Issue> = []
  const records: Array<CsvRecord> = []
  let parsed: Array<Parsed>
  try {
    parsed = parse(body, { relax_column_count: true, skip_empty_lines: true, info: true, raw: true }) as unknown as Array<Parsed>
  } catch (e) {
    if (!(e instanceof CsvError)) throw e
    const line = typeof (e as { lines?: unknown }).lines === "number" ? (e as unknown as { lines: number }).lines : undefined
    issues.push(
      Issue.error("bad-csv", text.file, `the file is not valid CSV: ${e.message.replace(/\s+/g, " ")}`, {
        ...(line !== undefined && line >= 1 ? { line } : {}),
        expected: "comma-separated fields; a field holding a comma, a quote or a line break is quoted, with quotes doubled inside",
        found: e.code
      })
    )
    // Keep what precedes the error: parse again up to the line before it.
    parsed = []
    if (line !== undefined && line > 1) {
      try {
        const before = text.lines.slice(0, line - 1).join("\n")
        parsed = parse(before, { relax_column_count: true, skip_empty_lines: true, info: true, raw: true }) as unknown as Array<Parsed>
      } catch {
        parsed = []
      }
    }
  }
  for (const p of parsed) {
    // the raw text of a record starts with the blank lines skipped before it: they are not inside it
    const raw = p.raw.replace(/^\n+/, "")
    const inside = newlines(raw) - (raw.endsWith("\n") ? 1 : 0)
    records.push({ fields: p.record, line: p.info.lines - inside })
  }
  return { records, issues }
}

/**
 * A CSV file's bytes: `Text.decode` (a BOM dropped, CRLF and CR read as line breaks; binary,
 * invalid UTF-8 or too large refused) then `read`. `issues` are the decoding's and the CSV's, each
 * naming the file and, where there is one, the line.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Csv } from "@stseval/formats"
 *
 * const csv = Csv.decode(fs.readFileSync("pred_eng.csv"), "pred_eng.csv") // decoded text, then records
 * ```
 * @since 0.2.0
 */
export const decode = (bytes: Uint8Array, file: string, options?: DecodeOptions): CsvFile => {
  const text = decodeText(bytes, file, options)
  if (Issue.hasErrors(text.issues)) return { records: [], issues: text.issues }
  const csv = read(text.value)
  return { records: csv.records, issues: [...text.issues, ...csv.issues] }
}

/**
 * Quote a field when it needs it (RFC 4180): a comma, a quote, CR or LF.
 *
 * @example
 * ```ts
 * import { Csv } from "@stseval/formats"
 *
 * Csv.quote('say "hi"') // "\"say \"\"hi\"\"\""
 * Csv.quote("plain") // "plain"
 * ```
 * @since 0.2.0
 */
export const quote = (field: string): string => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)
