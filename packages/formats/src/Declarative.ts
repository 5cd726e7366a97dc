/**
 * A file format an edition file describes without code: delimited text (comma, TAB, `;` or `|`,
 * with or without a header) or JSON Lines, naming which field is the pair ID (absent: records are
 * matched by line), which holds the graded score or the label, the run's confidence, and, when one
 * file holds several datasets, which field names each record's dataset. The run's layout is the
 * gold's unless `run` says otherwise (a gold `pair_id,lang,...,Overall` and a run `pair_id,Overall`).
 *
 * @example
 * ```yaml
 * # in an edition file: a CSV gold holding every language pair, matched by pair_id
 * format:
 *   type: delimited
 *   delimiter: ","
 *   id: pair_id
 *   score: Overall
 *   dataset: lang_pair
 * ```
 * @since 0.3.0
 */
import { Schema } from "effect"
import * as Csv from "./Csv.js"
import type { Column, ColumnSpec, Format, GoldTable, RunTable } from "./Format.js"
import * as Issue from "./Issue.js"
import { decimalHint } from "./internal/hints.js"
import { parseNumber } from "./internal/number.js"
import { contentEnd } from "./Text.js"
import type { TextFile } from "./Text.js"

/**
 * A field: its name in the header (or the JSON object), or its 1-based position in a headerless
 * delimited file.
 *
 * @example
 * ```ts
 * import { Declarative } from "@stseval/formats"
 *
 * const byName: Declarative.Field = "pair_id"
 * const byPosition: Declarative.Field = 2 // the second field of a file without a header
 * ```
 * @since 0.3.0
 */
export const Field = Schema.Union([
  Schema.String.check(Schema.isMinLength(1)),
  Schema.Int.check(Schema.isGreaterThan(0))
]).annotate({ description: "a field's name (header or JSON key) or, in a headerless delimited file, its 1-based position" })
/** @since 0.3.0 */
export type Field = typeof Field.Type

const Layout = {
  delimiter: Schema.optionalKey(
    Schema.Literals([",", "\t", ";", "|"]).annotate({ description: "delimited text: the field separator (default comma); quoting follows RFC 4180" })
  ),
  header: Schema.optionalKey(Schema.Boolean.annotate({ description: "delimited text: the first line names the fields (default true)" })),
  id: Schema.optionalKey(Field.annotate({ description: "the pair ID: runs are matched to the gold by it; absent: record i of the run is record i of the gold" })),
  score: Schema.optionalKey(Field.annotate({ description: "the graded score (a dataset scored by a correlation, MSE...)" })),
  label: Schema.optionalKey(Field.annotate({ description: "the label (a dataset scored by accuracy)" })),
  confidence: Schema.optionalKey(Field.annotate({ description: "the run's confidence 0-100 per record (confidence-weighted Pearson)" }))
}

/**
 * The declarative format of an edition file.
 *
 * @example
 * ```ts
 * import { Declarative } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * // a gold `pair_id,lang_pair,...,Overall` holding every language pair, and runs `pair_id,Overall`
 * const spec: Declarative.Spec = Schema.decodeUnknownSync(Declarative.Spec)({ type: "delimited", id: "pair_id", score: "Overall", dataset: "lang_pair" })
 * // a score field and a label field at once is refused
 * Schema.is(Declarative.Spec)({ type: "jsonl", score: "score", label: "label" }) // false
 * ```
 * @since 0.3.0
 */
export const Spec = Schema.Struct({
  type: Schema.Literals(["delimited", "jsonl"]).annotate({ description: "delimited text, or JSON Lines (one JSON object per line)" }),
  ...Layout,
  dataset: Schema.optionalKey(
    Field.annotate({ description: "when one gold file holds several datasets: the field whose value is each record's dataset name" })
  ),
  labels: Schema.optionalKey(
    Schema.Array(Schema.String.check(Schema.isMinLength(1))).annotate({ description: "the labels a `label` field may hold, in the order tables show them" })
  ),
  comment: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1)).annotate({ description: "lines starting with this text are skipped (e.g. #)" })),
  run: Schema.optionalKey(
    Schema.Struct(Layout).annotate({ description: "the run file's layout where it differs from the gold's (fields, delimiter, header)" })
  )
}).check(
  Schema.makeFilter((s) => {
    if ((s.score === undefined) === (s.label === undefined)) return { path: ["score"], issue: "give exactly one of `score` (graded) and `label` (labels)" }
    if (s.labels !== undefined && s.label === undefined) return { path: ["labels"], issue: "`labels` lists the values of a `label` field; there is none" }
    // accuracy and macro F1 count each label once (Accuracy.accuracy refuses a repeated one)
    const twice = s.labels?.find((l, i) => s.labels!.indexOf(l) !== i)
    if (twice !== undefined) return { path: ["labels"], issue: `"${twice}" is listed twice` }
    const fields = [s.id, s.score, s.label, s.confidence, s.dataset, s.run?.id, s.run?.score, s.run?.label, s.run?.confidence]
    if (s.type === "jsonl" && fields.some((f) => typeof f === "number")) return { path: ["type"], issue: "a JSON Lines field is named, not numbered" }
    const headerless = (h: boolean | undefined) => h === false
    // the problem is reported against the field that is written the wrong way (`format.id`), not `header`
    const named = (["id", "score", "label", "confidence", "dataset"] as const).flatMap((k) => (s[k] === undefined ? [] : [[k, s[k]] as const]))
    const numbered = named.find(([, f]) => typeof f === "number")
    if (!headerless(s.header) && numbered !== undefined && s.type === "delimited") {
      return { path: [numbered[0]], issue: `field ${numbered[1]} is given by position: set \`header: false\` (a file with a header names its fields)` }
    }
    const byName = named.find(([, f]) => typeof f === "string")
    if (headerless(s.header) && byName !== undefined) {
      const name = String(byName[1])
      return {
        path: [byName[0]],
        issue: `"${name}" is a field name, but a file without a header (header: false) gives fields by 1-based position, an integer: ${/^\d+$/.test(name) ? `write ${name} without quotes` : "give its position"}`
      }
    }
    if (s.run?.label !== undefined && s.label === undefined) return { path: ["run", "label"], issue: "the run has a label where the gold has a score" }
    if (s.run?.score !== undefined && s.score === undefined) return { path: ["run", "score"], issue: "the run has a score where the gold has a label" }
    return true
  })
)
/** @since 0.3.0 */
export type Spec = typeof Spec.Type

/** The name of the value column a declarative format reads: `score` or `label`. */
const columnName = (spec: Spec): "score" | "label" => (spec.score !== undefined ? "score" : "label")

const describe = (f: Field): string => (typeof f === "number" ? `field ${f}` : f)

// ---------------------------------------------------------------------------------------------
// Records

interface Record_ {
  readonly line: number
  readonly get: (field: Field) => string | undefined
  /** JSON Lines: the JSON type of a field's value (`string`, `number`...), to refuse a number written as a string */
  readonly jsonType?: (field: Field) => string | undefined
}

interface Read {
  readonly records: ReadonlyArray<Record_>
  readonly issues: ReadonlyArray<Issue.Issue>
  /** the header could not be used: nothing was read */
  readonly unusable: boolean
}

interface LayoutOf {
  readonly type: "delimited" | "jsonl"
  readonly delimiter: string
  readonly header: boolean
  readonly comment: string | undefined
  readonly needed: ReadonlyArray<Field>
  /** every field read from a record (the needed ones, and the confidence when there is one) */
  readonly read: ReadonlyArray<Field>
}

const readDelimited = (text: TextFile, layout: LayoutOf): Read => {
  const csv = Csv.read(layout.comment === undefined ? text : withoutComments(text, layout.comment), { delimiter: layout.delimiter })
  const issues: Array<Issue.Issue> = [...csv.issues]
  if (!layout.header) {
    const records = csv.records.map((r): Record_ => ({ line: r.line, get: (f) => (typeof f === "number" ? r.fields[f - 1] : undefined) }))
    return { records, issues, unusable: false }
  }
  const [head, ...rows] = csv.records
  if (head === undefined) return { records: [], issues, unusable: false }
  const names = head.fields.map((f) => f.trim())
  const missing = layout.needed.filter((f) => typeof f === "string" && !names.includes(f))
  if (missing.length > 0) {
    const separator = layout.delimiter === "\t" ? "TAB" : `"${layout.delimiter}"`
    const oneField = head.fields.length === 1 && /[,;\t|]/.test(head.fields[0])
    issues.push(
      Issue.error(
        "bad-header",
        text.file,
        `the header (line ${head.line}) has no ${missing.map((f) => `"${describe(f)}"`).join(", ")} field${oneField ? `; fields must be separated by ${separator}` : ""}`,
        { line: head.line, expected: `a header naming ${layout.needed.map(describe).join(", ")}, separated by ${separator}`, found: Issue.truncate(head.fields.join(layout.delimiter)) }
      )
    )
    return { records: [], issues, unusable: true }
  }
  const index = new Map<string, number>(names.map((n, i) => [n, i]))
  const records = rows.map((r): Record_ => ({ line: r.line, get: (f) => (typeof f === "string" ? r.fields[index.get(f)!] : undefined) }))
  return { records, issues, unusable: false }
}

const withoutComments = (text: TextFile, comment: string): TextFile => ({
  ...text,
  lines: text.lines.map((l) => (l.startsWith(comment) ? "" : l))
})

/**
 * How deep a JSON Lines record may nest: a record holds its fields as strings and numbers, so a few
 * levels are plenty; 100,000 nested arrays would overflow the stack of whatever walks the value.
 */
const MAX_JSON_DEPTH = 64

/**
 * One pass over a line of JSON, before it is parsed: how deep it nests (stopping past
 * `MAX_JSON_DEPTH`) and the record's own keys as written (JSON.parse keeps the last of two equal
 * keys and says nothing). Strings are skipped whole, escapes included; a key is the raw text of a
 * string at depth 1 after `{` or `,`.
 */
const scanJson = (raw: string): { readonly tooDeep: boolean; readonly keys: ReadonlyArray<string> } => {
  const keys: Array<string> = []
  let depth = 0
  let expectKey = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c === 0x22 /* " */) {
      const start = i
      for (i++; i < raw.length && raw.charCodeAt(i) !== 0x22; i++) if (raw.charCodeAt(i) === 0x5c /* \ */) i++
      if (depth === 1 && expectKey) keys.push(raw.slice(start, i + 1))
      expectKey = false
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++
      if (depth > MAX_JSON_DEPTH) return { tooDeep: true, keys }
      expectKey = c === 0x7b && depth === 1
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectKey = true
    }
  }
  return { tooDeep: false, keys }
}

const readJsonl = (text: TextFile, layout: LayoutOf): Read => {
  const issues: Array<Issue.Issue> = []
  const records: Array<Record_> = []
  const end = contentEnd(text.lines)
  for (let i = 0; i < end; i++) {
    const raw = text.lines[i]
    if (raw.trim() === "" || (layout.comment !== undefined && raw.startsWith(layout.comment))) continue
    const line = i + 1
    const scan = scanJson(raw)
    if (scan.tooDeep) {
      issues.push(
        Issue.error("bad-json", text.file, `line ${line} nests its values more than ${MAX_JSON_DEPTH} levels deep; it was not read`, {
          line,
          expected: `one JSON object per line, nested at most ${MAX_JSON_DEPTH} levels`,
          found: Issue.truncate(raw)
        })
      )
      continue
    }
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (e) {
      issues.push(Issue.error("field-count", text.file, `line ${line} is not valid JSON: ${(e as Error).message}`, { line, expected: "one JSON object per line", found: Issue.truncate(raw) }))
      continue
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      issues.push(Issue.error("field-count", text.file, `line ${line} is not a JSON object`, { line, expected: "one JSON object per line", found: Issue.truncate(raw) }))
      continue
    }
    const object = value as Readonly<Record<string, unknown>>
    // A key given twice: JSON leaves the meaning open (RFC 8259 4: names SHOULD be unique; parsers
    // keep the first, the last, or refuse). Two values of a field that is read (the score, the ID)
    // are ambiguous, so the record is an error, as two zip entries of one name are; a duplicate of
    // a field that is not read changes nothing scored, so it is a warning.
    const duplicate = duplicateKey(scan.keys)
    if (duplicate !== undefined) {
      const read = layout.read.includes(duplicate)
      const message = `line ${line} gives the key "${duplicate}" twice${read ? "; which value is meant is ambiguous, so the record was not read" : ""}`
      const where = { line, field: duplicate, expected: "each key once in a record", found: Issue.truncate(raw) }
      issues.push(read ? Issue.error("bad-json", text.file, message, where) : Issue.warning("bad-json", text.file, message, where))
      if (read) continue
    }
    records.push({
      line,
      get: (f) => {
        if (typeof f !== "string" || !Object.hasOwn(object, f)) return undefined
        const v = object[f]
        return typeof v === "string" ? v : typeof v === "number" ? String(v) : v === null ? "" : JSON.stringify(v)
      },
      jsonType: (f) => (typeof f === "string" && Object.hasOwn(object, f) ? (object[f] === null ? "null" : typeof object[f]) : undefined)
    })
  }
  return { records, issues, unusable: false }
}

/** The first key written twice (compared as JSON reads them: `"a"` and `"\u0061"` are one key). */
const duplicateKey = (raws: ReadonlyArray<string>): string | undefined => {
  const seen = new Set<string>()
  for (const raw of raws) {
    let key: string
    try {
      key = JSON.parse(raw) as string
    } catch {
      return undefined
    }
    if (seen.has(key)) return key
    seen.add(key)
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Tables

interface Fields {
  readonly id: Field | undefined
  readonly value: Field
  readonly confidence: Field | undefined
  readonly dataset: Field | undefined
}

const table = (
  text: TextFile,
  spec: Spec,
  layout: LayoutOf,
  fields: Fields,
  role: "gold" | "run"
): { readonly issues: ReadonlyArray<Issue.Issue>; readonly lines: Int32Array; readonly ids: ReadonlyArray<string> | undefined; readonly datasets: ReadonlyArray<string> | undefined; readonly column: Column; readonly confidence: Float64Array | undefined } => {
  const read = layout.type === "jsonl" ? readJsonl(text, layout) : readDelimited(text, layout)
  const issues: Array<Issue.Issue> = [...read.issues]
  const file = text.file
  const n = read.records.length
  const lines = Int32Array.from(read.records, (r) => r.line)
  const ids: Array<string> | undefined = fields.id !== undefined ? [] : undefined
  const datasets: Array<string> | undefined = fields.dataset !== undefined ? [] : undefined
  const scores = spec.score !== undefined ? new Float64Array(n) : undefined
  const labels: Array<string> | undefined = spec.label !== undefined ? [] : undefined
  const confidence = fields.confidence !== undefined ? new Float64Array(n) : undefined
  const seen = new Map<string, number>()
  const valueField = describe(fields.value)
  for (let k = 0; k < n; k++) {
    const { line, get, jsonType } = read.records[k]
    const at = (f: Field, what: string): string | undefined => {
      const v = get(f)
      if (v === undefined) {
        issues.push(Issue.error("field-count", file, `line ${line} has no ${what} (${describe(f)})`, { line, expected: `a value in ${describe(f)}`, found: "no such field" }))
      }
      return v
    }
    if (fields.id !== undefined) {
      const id = (at(fields.id, "pair ID") ?? "").trim()
      ids!.push(id)
      if (id === "") issues.push(Issue.error("empty-value", file, `line ${line} has no pair ID`, { line, field: describe(fields.id), expected: "a pair ID" }))
      else if (seen.has(id)) {
        issues.push(
          Issue.error("duplicate-pair", file, `pair ID ${id} on line ${line} was already given on line ${seen.get(id)}`, {
            line,
            field: describe(fields.id),
            expected: "each pair ID once",
            found: id
          })
        )
      } else seen.set(id, line)
    }
    if (fields.dataset !== undefined) datasets!.push((at(fields.dataset, "dataset") ?? "").trim())
    const raw = at(fields.value, spec.score !== undefined ? "score" : "label") ?? ""
    if (scores !== undefined) {
      const parsed = parseNumber(raw)
      // a run's score written as a JSON string ("0.62") is not a number: the run was written by
      // something that did not mean it as one (the gold may be, as data sets are published)
      if (role === "run" && parsed._tag === "number" && jsonType?.(fields.value) === "string") {
        scores[k] = NaN
        issues.push(
          Issue.error("not-a-number", file, `the ${valueField} on line ${line} is a string ("${Issue.truncate(raw)}"), not a number; write it without quotes`, {
            line,
            field: valueField,
            expected: "a number",
            found: "a string"
          })
        )
      } else if (parsed._tag === "number") scores[k] = parsed.value
      else {
        scores[k] = NaN
        // a blank gold score is a pair that was not annotated, as in STS 2015-2016
        if (!(role === "gold" && parsed._tag === "missing")) issues.push(numberIssue(parsed._tag, file, line, valueField, raw))
      }
    } else {
      const label = raw.trim()
      labels!.push(label)
      if (label === "" && role === "run") {
        issues.push(Issue.error("empty-value", file, `the label on line ${line} is missing`, { line, field: valueField, expected: spec.labels?.join(", ") ?? "a label" }))
      } else if (label !== "" && spec.labels !== undefined && !spec.labels.includes(label)) {
        issues.push(
          Issue.error("unknown-label", file, `the label "${Issue.truncate(label)}" on line ${line} is not one of ${spec.labels.join(", ")}`, {
            line,
            field: valueField,
            expected: spec.labels.join(", "),
            found: Issue.truncate(label)
          })
        )
      }
    }
    if (confidence !== undefined) {
      const c = parseNumber(get(fields.confidence!) ?? "")
      confidence[k] = c._tag === "number" ? c.value : NaN
    }
  }
  const column: Column = scores !== undefined ? { kind: "scores", values: scores } : { kind: "labels", values: labels! }
  const complete = confidence !== undefined && confidence.every((c) => Number.isFinite(c))
  return { issues, lines, ids, datasets, column, confidence: complete ? confidence : undefined }
}

const numberIssue = (tag: "missing" | "not-a-number" | "non-finite", file: string, line: number, field: string, raw: string) => {
  return Issue.error(
    tag === "missing" ? "empty-value" : tag,
    file,
    `the ${field} on line ${line} is ${tag === "missing" ? "missing" : tag === "non-finite" ? "not a finite number" : `not a number${decimalHint(raw)}`}`,
    { line, field, expected: "a number", found: Issue.truncate(raw) }
  )
}

const layoutOf = (spec: Spec, role: "gold" | "run", fields: Fields): LayoutOf => {
  const own = role === "run" ? spec.run : undefined
  return {
    type: spec.type,
    delimiter: own?.delimiter ?? spec.delimiter ?? ",",
    header: own?.header ?? spec.header ?? true,
    comment: spec.comment,
    needed: [fields.id, fields.value, ...(role === "gold" ? [fields.dataset] : [])].filter((f): f is Field => f !== undefined),
    read: [fields.id, fields.value, fields.dataset, fields.confidence].filter((f): f is Field => f !== undefined)
  }
}

const fieldsOf = (spec: Spec, role: "gold" | "run"): Fields => {
  const own = role === "run" ? spec.run : undefined
  return {
    id: own?.id ?? spec.id,
    value: (own?.score ?? own?.label ?? spec.score ?? spec.label)!,
    confidence: role === "run" ? (own?.confidence ?? spec.confidence) : undefined,
    dataset: role === "gold" ? spec.dataset : undefined
  }
}

/** How a run file of the spec is written, for participants. */
const runLayout = (spec: Spec): string => {
  const f = fieldsOf(spec, "run")
  const layout = layoutOf(spec, "run", f)
  const fields = [f.id !== undefined ? `the pair ID (\`${describe(f.id)}\`)` : undefined, `your ${spec.score !== undefined ? "score, a number" : `label${spec.labels !== undefined ? ` (one of ${spec.labels.join(", ")})` : ""}`} (\`${describe(f.value)}\`)`]
    .filter((x) => x !== undefined)
    .join(" and ")
  const records =
    layout.type === "jsonl"
      ? `JSON Lines: one object per line holding ${fields}`
      : `${layout.delimiter === "\t" ? "tab" : layout.delimiter === "," ? "comma" : `"${layout.delimiter}"`}-separated text${layout.header ? " with a header line naming the fields" : " without a header"}, one row per pair holding ${fields}`
  return `${records}; ${f.id !== undefined ? "rows are matched to the gold by pair ID, in any order, and every pair needs one" : "row *i* scores pair *i* of the test input"}`
}

const formats = new WeakMap<Spec, Format>()

/**
 * The format an edition's declarative spec describes (made once per spec).
 *
 * @example
 * ```ts
 * import { Declarative } from "@stseval/formats"
 *
 * const format = Declarative.make({ type: "delimited", id: "pair_id", score: "Overall" })
 * format.match // "id"
 * format.columns[0] // { name: "score", kind: "scores", field: "Overall" }
 * ```
 * @since 0.3.0
 */
export const make = (spec: Spec): Format => {
  const known = formats.get(spec)
  if (known !== undefined) return known
  const name = columnName(spec)
  const column: ColumnSpec = {
    name,
    kind: name === "score" ? "scores" : "labels",
    field: describe((spec.run?.score ?? spec.run?.label ?? spec.score ?? spec.label)!),
    ...(spec.labels !== undefined ? { labels: spec.labels } : {})
  }
  const goldFields = fieldsOf(spec, "gold")
  const runFields = fieldsOf(spec, "run")
  const format: Format = {
    name: spec.type,
    description:
      spec.type === "jsonl"
        ? "JSON Lines described by the edition file"
        : `${spec.delimiter === "\t" ? "TAB" : (spec.delimiter ?? ",")}-separated text described by the edition file`,
    match: spec.id !== undefined ? "id" : "line",
    columns: [column],
    runLayout: runLayout(spec),
    // what participants name such files: a run's name is its team and number without them
    runExtensions: spec.type === "jsonl" ? [".jsonl", ".json", ".ndjson"] : [".csv", ".tsv", ".txt", ".dat"],
    readGold: (text) => {
      const t = table(text, spec, layoutOf(spec, "gold", goldFields), goldFields, "gold")
      const value: GoldTable = {
        file: text.file,
        length: t.lines.length,
        ...(t.ids !== undefined ? { ids: t.ids } : {}),
        ...(t.datasets !== undefined ? { datasets: t.datasets } : {}),
        columns: { [name]: t.column }
      }
      return { value, issues: t.issues }
    },
    runReaders: [
      {
        name: spec.type,
        read: (text) => {
          const t = table(text, spec, layoutOf(spec, "run", runFields), runFields, "run")
          const value: RunTable = {
            file: text.file,
            length: t.lines.length,
            lines: t.lines,
            ...(t.ids !== undefined ? { ids: t.ids } : {}),
            columns: { [name]: t.column },
            ...(t.confidence !== undefined ? { confidence: t.confidence } : {})
          }
          return { value, issues: t.issues }
        }
      }
    ]
  }
  formats.set(spec, format)
  return format
}
