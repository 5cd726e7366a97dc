/**
 * RFC 4180 records of a decoded text file, with the physical line each record starts on: the one
 * CSV reader of stseval (SemRel data files, the Codabench submissions export).
 *
 * Hand-written over the file's lines: csv-parse builds fields a byte at a time in doubling buffers
 * (one 150 MB quoted field took 1.4 GB; the bound here is 3x the file + 300 MB), d3-dsv and
 * papaparse pass quoting errors silently and give no line numbers. A field is a slice of its line
 * unless it spans lines or holds doubled quotes. The rules are csv-parse's defaults, which the
 * tests keep: `,` between fields, `"` quoting (commas, doubled quotes and line breaks inside),
 * empty lines skipped; a quote inside an unquoted field, anything but a comma or the line's end
 * after a closing quote, and a quote never closed are errors.
 *
 * @since 0.2.0
 */
import { Schema } from "effect"
import * as Issue from "./Issue.js"
import { contentEnd, decode as decodeText } from "./Text.js"
import type { DecodeOptions, TextFile } from "./Text.js"

/**
 * One record and where it starts.
 *
 * @since 0.2.0
 */
export interface CsvRecord {
  readonly fields: ReadonlyArray<string>
  /** physical line the record starts on (1-based) */
  readonly line: number
}

/**
 * A CSV file read into records of fields, with the line each record starts on.
 *
 * @since 0.2.0
 */
export interface CsvFile {
  /** the records, the header (if any) first; blank lines are not records */
  readonly records: ReadonlyArray<CsvRecord>
  /** an error when the file is not valid CSV (records up to the error are kept) */
  readonly issues: ReadonlyArray<Issue.Issue>
}

const QUOTE = 34

// Thrown out of the reader's loops and caught at its end, where it becomes a `bad-csv` issue.
class NotCsv extends Schema.TaggedError<NotCsv>()("NotCsv", { line: Schema.Number, problem: Schema.String, found: Schema.String }) {}

/**
 * Read the records of a CSV text (`,`-separated unless `delimiter` says otherwise, one character;
 * `"` quoting). Line endings were normalised by
 * `Text.decode`: a line break inside a quoted field is one LF. Records of differing lengths are
 * kept (the caller checks field counts and says which line is wrong); empty lines are skipped, as
 * pandas does. A quoted field spanning lines is one field of the record starting on its first
 * line. Invalid CSV is a `bad-csv` error naming the line; the records before it are kept.
 *
 * @example
 * ```ts
 * import { Csv, Text } from "@stseval/formats"
 *
 * const { records, issues } = Csv.read(Text.fromString('PairID,Text,Score\neng-1,"A man.\nA dog.",0.25\n', "eng_train.csv").value)
 * ```
 * @since 0.2.0
 */
export const read = (text: TextFile, options: { readonly delimiter?: string | undefined } = {}): CsvFile => {
  const delimiter = options.delimiter ?? ","
  // a defect: the caller chose the delimiter, the file did not
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n") throw new Error(`Csv.read: the delimiter must be one character other than a quote or a line break, not ${JSON.stringify(delimiter)}`)
  const separator = delimiter.charCodeAt(0)
  const separatorName = delimiter === "\t" ? "a TAB" : delimiter === "," ? "a comma" : `"${delimiter}"`
  const lines = text.lines
  const end = contentEnd(lines)
  const records: Array<CsvRecord> = []
  let i = 0
  try {
    while (i < end) {
      if (lines[i] === "") {
        i++
        continue
      }
      const first = i
      const fields: Array<string> = []
      let line = lines[i]
      let pos = 0
      for (;;) {
        if (line.charCodeAt(pos) === QUOTE) {
          // a quoted field: up to the quote not doubled, across lines
          const opened = i
          let value = ""
          pos++
          for (;;) {
            const q = line.indexOf('"', pos)
            if (q === -1) {
              value += `${line.slice(pos)}\n`
              if (++i >= end) throw new NotCsv({ line: opened + 1, problem: `the quoted field opened on line ${opened + 1} is never closed`, found: "an unclosed quote" })
              line = lines[i]
              pos = 0
            } else if (line.charCodeAt(q + 1) === QUOTE) {
              value += line.slice(pos, q + 1)
              pos = q + 2
            } else {
              value += line.slice(pos, q)
              pos = q + 1
              break
            }
          }
          fields.push(value)
          if (pos === line.length) break
          if (line.charCodeAt(pos) !== separator) {
            throw new NotCsv({ line: i + 1, problem: `a closing quote on line ${i + 1} is followed by ${JSON.stringify(line.charAt(pos))}, not by ${separatorName} or the end of the line`, found: line.slice(pos, pos + 20) })
          }
          pos++
        } else {
          const comma = line.indexOf(delimiter, pos)
          const stop = comma === -1 ? line.length : comma
          const quote = line.indexOf('"', pos)
          if (quote !== -1 && quote < stop) {
            throw new NotCsv({ line: i + 1, problem: `line ${i + 1} has a quote inside a field that does not start with one`, found: line.slice(pos, stop) })
          }
          fields.push(line.slice(pos, stop))
          if (comma === -1) break
          pos = comma + 1
        }
      }
      records.push({ fields, line: first + 1 })
      i++
    }
    return { records, issues: [] }
  } catch (e) {
    if (!(e instanceof NotCsv)) throw e
    return {
      records,
      issues: [
        Issue.error("bad-csv", text.file, `the file is not valid CSV: ${e.problem}`, {
          line: e.line,
          expected: `${delimiter === "\t" ? "TAB" : delimiter === "," ? "comma" : `"${delimiter}"`}-separated fields; a field holding ${delimiter === "," ? "a comma" : "the separator"}, a quote or a line break is quoted, with quotes doubled inside`,
          found: e.found
        })
      ]
    }
  }
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
