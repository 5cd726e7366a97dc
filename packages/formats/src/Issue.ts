/**
 * One finding about an input file: what is wrong (or worth saying), where, and what was expected.
 *
 * Parsers never throw on bad input; they return the data they could read together with a list of
 * issues. An `error` means the affected file (or subtask / dataset) must not be scored; a `warning`
 * is reported but does not stop scoring; an `info` is a plain observation (e.g. "CRLF line endings").
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** @since 0.1.0 */
export const Severity = Schema.Literals(["error", "warning", "info"])
/** @since 0.1.0 */
export type Severity = typeof Severity.Type

/**
 * Machine-readable issue codes. Documented in docs/formats.md; add new codes at the end.
 *
 * @since 0.1.0
 */
export const IssueCode = Schema.Literals([
  // bytes and text
  "file-unreadable",
  "too-large",
  "empty-file",
  "binary-file",
  "compressed-file",
  "invalid-utf8",
  "bom",
  "crlf",
  "bare-cr",
  "mixed-line-endings",
  "no-final-newline",
  "trailing-blank-lines",
  // structure
  "missing-header",
  "bad-header",
  "field-count",
  "empty-value",
  // values
  "not-a-number",
  "non-finite",
  "out-of-scale",
  "bad-confidence",
  "unknown-label",
  "na-column",
  // alignment against gold
  "missing-pair",
  "duplicate-pair",
  "unknown-pair",
  "length-mismatch",
  "not-annotated",
  "lines-scored",
  // submissions and runs
  "missing-dataset",
  "unknown-file",
  "bad-run-name",
  "bad-run-metadata",
  "run-limit",
  "unknown-task",
  "bad-task-file",
  // added in 0.2.0
  "outside-folder",
  "encrypted",
  "unsafe-zip",
  "blank-line"
])
/** @since 0.1.0 */
export type IssueCode = typeof IssueCode.Type

/**
 * The JSON shape of an issue (part of the documented `--json` output).
 *
 * @since 0.1.0
 */
export const Issue = Schema.Struct({
  severity: Severity,
  code: IssueCode,
  /** path of the file as given by the user */
  file: Schema.String,
  /** 1-based physical line number, when the issue is about one line */
  line: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  /** column / field name, when the issue is about one field */
  field: Schema.optional(Schema.String),
  /** what was expected there, in words */
  expected: Schema.optional(Schema.String),
  /** what was found there (truncated to 80 characters) */
  found: Schema.optional(Schema.String),
  /** a complete sentence for people: `file:line: ...` is added by renderers, not here */
  message: Schema.String
})
/** @since 0.1.0 */
export interface Issue extends Schema.Schema.Type<typeof Issue> {}

const MAX_FOUND = 80

/** Shorten a found value for display, keeping it lossless up to 80 characters. @since 0.1.0 */
export const truncate = (s: string): string =>
  s.length <= MAX_FOUND ? s : `${s.slice(0, MAX_FOUND - 1)}…`

/** @since 0.1.0 */
export const make = (
  severity: Severity,
  code: IssueCode,
  file: string,
  message: string,
  where: { readonly line?: number; readonly field?: string; readonly expected?: string; readonly found?: string } = {}
): Issue => ({
  severity,
  code,
  file,
  message,
  ...(where.line !== undefined ? { line: where.line } : {}),
  ...(where.field !== undefined ? { field: where.field } : {}),
  ...(where.expected !== undefined ? { expected: where.expected } : {}),
  ...(where.found !== undefined ? { found: truncate(where.found) } : {})
})

/** @since 0.1.0 */
export const error = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("error", code, file, message, where)
/** @since 0.1.0 */
export const warning = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("warning", code, file, message, where)
/** @since 0.1.0 */
export const info = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("info", code, file, message, where)

/** True when any issue is an error. @since 0.1.0 */
export const hasErrors = (issues: ReadonlyArray<Issue>): boolean => issues.some((i) => i.severity === "error")

/** `file:line: message` (line omitted when unknown), the form every text renderer uses. @since 0.1.0 */
export const format = (issue: Issue): string =>
  `${issue.file}${issue.line !== undefined ? `:${issue.line}` : ""}: ${issue.severity}: ${issue.message}`

/**
 * A parser's answer: the data it could read and everything it noticed. `value` is always present;
 * when `issues` has errors, the parts they name are unreliable and must not be scored.
 *
 * @since 0.1.0
 */
export interface Parsed<A> {
  readonly value: A
  readonly issues: ReadonlyArray<Issue>
}
