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
import { firstProblem } from "./internal/schemaIssues.js"

/**
 * How much an issue weighs: an error fails the run, a warning or an info is reported.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * const severity: Issue.Severity = "warning" // reported, the run still scored
 * ```
 * @since 0.1.0
 */
export const Severity = Schema.Literals(["error", "warning", "info"])
/** @since 0.1.0 */
export type Severity = typeof Severity.Type

/**
 * Machine-readable issue codes. Documented in docs/formats.md; add new codes at the end.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * const code: Issue.IssueCode = "crlf"
 * ```
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
  // added with SemEval-2024 Task 1 (csv files)
  "bad-csv",
  "not-public",
  "bad-json",
  // added in 0.2.0
  "outside-folder",
  "encrypted",
  "unsafe-zip",
  "blank-line",
  // added in 0.3.0
  "line-numbers",
  // added in 0.3.0: a run scored in isolation (scoring's Isolation)
  "over-budget",
  "scorer-crashed",
  // added in 0.3.0
  "too-few-pairs",
  // added in 0.4.0: a run whose scores look reversed (every one negative, or a strongly negative correlation)
  "reversed-scale"
])
/** @since 0.1.0 */
export type IssueCode = typeof IssueCode.Type

const MAX_FOUND = 80

/**
 * The longest `file` an issue holds: a name from a run (a zip entry may be named with 65,535
 * bytes) is cut to this many characters (`cut`), so that what a run puts into every output (the
 * leaderboard, its status and cache files, `--json`) is bounded whatever it holds.
 *
 * @since 0.4.0
 */
export const MAX_FILE_LENGTH = 200

/**
 * The longest `message` (and `expected`) an issue holds; longer ones (a message quoting a 60,000-
 * character name) are cut to this many characters by `cut`.
 *
 * @since 0.4.0
 */
export const MAX_MESSAGE_LENGTH = 500

const MAX_FIELD_LENGTH = 200

/**
 * A Schema decoding error as one line that names the field (`runs.a.sig: Missing key`), its quoted
 * values shortened and the whole cut to `MAX_MESSAGE_LENGTH`: for a message about a file of
 * outside input, whose first line alone may not say where.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Issue } from "@stseval/formats"
 *
 * const decoded = Schema.decodeUnknownResult(Schema.Struct({ team: Schema.String }))({})
 * if (decoded._tag === "Failure") Issue.schemaMessage(decoded.failure) // "team: Missing key"
 * ```
 * @since 0.5.0
 */
export const schemaMessage = (error: Schema.SchemaError): string => {
  const { field, message } = firstProblem(error)
  return cut(field === undefined ? message : `${field}: ${message}`, MAX_MESSAGE_LENGTH)
}

/**
 * A string of at most `max` characters: whole when it fits, else its start and its end around a
 * marker saying how much was left out (`abc…(59,700 characters cut)…xyz.txt`): a cut name keeps
 * its extension, and a cut message the words after the name it quoted.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.cut("n".repeat(60_000) + ".txt", 60) // "nnnnnnnnnnnnnnnnnnnnnnnn…(59968 characters cut)…nnnnnnnn.txt"
 * ```
 * @since 0.4.0
 */
export const cut = (s: string, max: number): string => {
  if (s.length <= max) return s
  const marker = (n: number) => `…(${n} characters cut)…`
  // the marker's own length depends on the number it shows: at most this many digits
  const room = Math.max(0, max - marker(s.length).length)
  const tail = Math.floor(room / 3)
  const head = room - tail
  return `${s.slice(0, head)}${marker(s.length - head - tail)}${tail > 0 ? s.slice(-tail) : ""}`
}

/**
 * The JSON shape of an issue (part of the documented `--json` output).
 *
 * `make` writes the fields in this order (absent optional ones left out), the order an issue
 * decoded through this Schema has (the live leaderboard's cache): both stringify to the same bytes,
 * as the watcher's outputs promise (the same folder always gives the same `leaderboard.json`). A
 * test keeps the two in step.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * const issue: Issue.Issue = Issue.error("not-a-number", "STS.output.headlines.txt", "the score is not a number", { line: 7, found: "abc" })
 * Schema.is(Issue.Issue)(issue) // true: every JSON output carries issues of this Schema
 * ```
 * @since 0.1.0
 */
export const Issue = Schema.Struct({
  severity: Severity,
  code: IssueCode,
  /** path of the file as given by the user (cut to `MAX_FILE_LENGTH` characters by `make`) */
  file: Schema.String.check(Schema.isMaxLength(MAX_FILE_LENGTH)),
  /** 1-based physical line number, when the issue is about one line */
  line: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  /** column / field name, when the issue is about one field */
  field: Schema.optional(Schema.String.check(Schema.isMaxLength(MAX_FIELD_LENGTH))),
  /** what was expected there, in words */
  expected: Schema.optional(Schema.String.check(Schema.isMaxLength(MAX_MESSAGE_LENGTH))),
  /** what was found there (truncated to 80 characters) */
  found: Schema.optional(Schema.String.check(Schema.isMaxLength(MAX_FOUND))),
  /**
   * How many findings this issue stands for, when more than one: the closing issue of a capped list
   * ("4877 more lines with the same problem") has the number of lines it was not listed for.
   * Absent: one. `Issue.count` sums it.
   *
   * @since 0.2.0
   */
  count: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  /** a complete sentence for people: `file:line: ...` is added by renderers, not here (cut to `MAX_MESSAGE_LENGTH` characters by `make`) */
  message: Schema.String.check(Schema.isMaxLength(MAX_MESSAGE_LENGTH))
})
/** @since 0.1.0 */
export interface Issue extends Schema.Schema.Type<typeof Issue> {}

/**
 * Shorten a found value for display, keeping it lossless up to 80 characters.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * // a value quoted in a message is cut short: a 10 MB line never fills a terminal
 * const shown: string = Issue.truncate("x".repeat(10_000))
 * ```
 * @since 0.1.0
 */
export const truncate = (s: string): string =>
  s.length <= MAX_FOUND ? s : `${s.slice(0, MAX_FOUND - 1)}…`

const MAX_EXCERPT = 40

/**
 * A value from a file as a message quotes it: whole up to 40 characters, else its start and its
 * length (`"xxxxxxxx…" (150000000 characters)`). Messages reach participants and public boards
 * (the live leaderboard, Codabench's pages): they quote no more of a line than this excerpt of the
 * run's own bytes (the full value, up to 80 characters, is the issue's `found`).
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 * Issue.excerpt("x".repeat(100)) // "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (100 characters)
 * ```
 *
 * @since 0.2.0
 */
export const excerpt = (value: string): string =>
  value.length <= MAX_EXCERPT ? value : `${value.slice(0, MAX_EXCERPT - 1)}… (${value.length} characters)`

/**
 * An issue, its fields in the Schema's order (`severity`, `code`, `file`, then those given of
 * `line`, `field`, `expected`, `found`, `count`, and `message` last), so that it stringifies as the
 * same issue decoded through `Issue` does.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.make("warning", "trailing-blank-lines", "STS.output.headlines.txt", "2 blank lines at the end", { line: 751 })
 * ```
 * @since 0.1.0
 */
export const make = (
  severity: Severity,
  code: IssueCode,
  file: string,
  message: string,
  where: { readonly line?: number; readonly field?: string; readonly expected?: string; readonly found?: string; readonly count?: number } = {}
): Issue => ({
  severity,
  code,
  file: cut(file, MAX_FILE_LENGTH),
  ...(where.line !== undefined ? { line: where.line } : {}),
  ...(where.field !== undefined ? { field: cut(where.field, MAX_FIELD_LENGTH) } : {}),
  ...(where.expected !== undefined ? { expected: cut(where.expected, MAX_MESSAGE_LENGTH) } : {}),
  ...(where.found !== undefined ? { found: truncate(where.found) } : {}),
  ...(where.count !== undefined && where.count > 1 ? { count: where.count } : {}),
  message: cut(message, MAX_MESSAGE_LENGTH)
})

/**
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.error("unknown-pair", "Team_run1.txt", "pair ID 99999 is not in the gold", { line: 12, field: "pair_ID", found: "99999" })
 * ```
 * @since 0.1.0
 */
export const error = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("error", code, file, message, where)
/**
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.warning("bom", "Team_run1.txt", "the file starts with a UTF-8 byte order mark")
 * ```
 * @since 0.1.0
 */
export const warning = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("warning", code, file, message, where)
/**
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.info("crlf", "SICK_test_annotated.txt", "the file has Windows (CRLF) line endings")
 * ```
 * @since 0.1.0
 */
export const info = (code: IssueCode, file: string, message: string, where?: Parameters<typeof make>[4]) =>
  make("info", code, file, message, where)

/**
 * True when any issue is an error.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.hasErrors([Issue.info("crlf", "a.txt", "CRLF line endings")]) // false: an info is no error
 * ```
 * @since 0.1.0
 */
export const hasErrors = (issues: ReadonlyArray<Issue>): boolean => issues.some((i) => i.severity === "error")

/**
 * How many findings the issues stand for (each issue's `count`, else one), optionally only those
 * that pass `predicate`: the true number of bad lines behind a capped list.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * const issues = [Issue.warning("bom", "a.txt", "BOM"), Issue.error("empty-file", "b.txt", "the file is empty")]
 * Issue.count(issues, (i) => i.severity === "error") // 1
 * ```
 * @since 0.2.0
 */
export const count = (issues: ReadonlyArray<Issue>, predicate: (issue: Issue) => boolean = () => true): number => {
  let n = 0
  for (const i of issues) if (predicate(i)) n += i.count ?? 1
  return n
}

/**
 * The most issues one run lists: beyond this (a zip of 990 unknown files, a run failing on every
 * line of every file), `capRun` keeps the errors first, then the warnings, then the infos, and
 * counts the rest.
 *
 * @since 0.4.0
 */
export const MAX_RUN_ISSUES = 100

const SEVERITY_ORDER: ReadonlyArray<Severity> = ["error", "warning", "info"]

/**
 * A run's issues, at most `MAX_RUN_ISSUES` of them listed (the first of each severity and code,
 * then errors, warnings and infos in that order, each in their order; listed in their order), and for each severity and code left out one closing issue about
 * `file` (the run) whose `count` is how many findings it stands for and whose message says so:
 * `count` over the result still gives the true total, and a severity never disappears.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * const many = Array.from({ length: 500 }, (_, i) => Issue.warning("unknown-file", `run.zip!x${i}.txt`, "matches no dataset; it is ignored"))
 * const kept = Issue.capRun(many, "run.zip")
 * Issue.count(kept) // 500: 100 listed, and one closing issue counting the 400 others
 * ```
 * @since 0.4.0
 */
export const capRun = (issues: ReadonlyArray<Issue>, file: string): ReadonlyArray<Issue> => {
  if (issues.length <= MAX_RUN_ISSUES) return issues
  const kept = new Set<Issue>()
  // the first of each kind first (a run's one out-of-scale warning is not lost among 990 unknown files)
  const kinds = new Set<string>()
  for (const severity of SEVERITY_ORDER) {
    for (const i of issues) {
      if (kept.size >= MAX_RUN_ISSUES) break
      if (i.severity === severity && !kinds.has(`${i.severity}\u0000${i.code}`)) {
        kinds.add(`${i.severity}\u0000${i.code}`)
        kept.add(i)
      }
    }
  }
  for (const severity of SEVERITY_ORDER) {
    for (const i of issues) {
      if (kept.size >= MAX_RUN_ISSUES) break
      if (i.severity === severity) kept.add(i)
    }
  }
  const left = new Map<string, { severity: Severity; code: IssueCode; count: number }>()
  for (const i of issues) {
    if (kept.has(i)) continue
    const key = `${i.severity}\u0000${i.code}`
    const l = left.get(key) ?? { severity: i.severity, code: i.code, count: 0 }
    l.count += i.count ?? 1
    left.set(key, l)
  }
  const closing = [...left.values()].map((l) =>
    make(l.severity, l.code, file, `${l.count} more ${l.severity}${l.count === 1 ? "" : "s"} (${l.code}) not listed: a run lists at most ${MAX_RUN_ISSUES} issues`, {
      count: l.count
    })
  )
  return [...issues.filter((i) => kept.has(i)), ...closing]
}

/**
 * `file:line: severity: message (expected ..., found "...")`, the form every text renderer uses:
 * the line is omitted when unknown, what was expected and the bad value are added when the message
 * does not already say them (`details`), and control characters (a label holding terminal escapes, a TAB in a found line) are shown
 * escaped (`\x1b`, `\t`), never raw.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.format(Issue.error("not-a-number", "STS.output.headlines.txt", "the score is not a number", { line: 7 }))
 * // "STS.output.headlines.txt:7: error: the score is not a number"
 * ```
 * @since 0.1.0
 */
export const format = (issue: Issue): string =>
  escapeControls(`${issue.file}${issue.line !== undefined ? `:${issue.line}` : ""}: ${issue.severity}: ${issue.message}${details(issue)}`)

// A message names a TAB as `<TAB>` where the issue's fields hold the character.
const SAID = 12
const said = (message: string, value: string): boolean => message.includes(value) || message.includes(value.replaceAll("\t", "<TAB>"))

/**
 * What an issue adds to its message, for text: ` (expected ..., found "...")`, each part only when
 * the message does not already say it (a message that names the line to write says what is
 * expected once); empty when there is nothing to add.
 * `format` and every other text view of an issue (Codabench's reasons) end a message with it.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.details(Issue.error("not-a-number", "a.txt", "the score on line 7 is not a number", { line: 7, expected: "a number", found: "four" }))
 * // ' (expected a number, found "four")'
 * Issue.details(Issue.error("missing-header", "b.txt", "add the header pair_ID<TAB>entailment_judgment", { expected: "pair_ID\tentailment_judgment", found: "5259\tNEUTRAL" }))
 * // ' (found "5259\tNEUTRAL")': the message already says what is expected
 * ```
 * @since 0.3.0
 */
export const details = (issue: Issue): string => {
  const parts = [
    // a short expected value ("a number") turns up in many a message ("is not a number") without being said there
    issue.expected !== undefined && !(issue.expected.length >= SAID && said(issue.message, issue.expected)) ? `expected ${issue.expected}` : undefined,
    issue.found !== undefined && !said(issue.message, issue.found) ? `found "${issue.found}"` : undefined
  ].filter((x) => x !== undefined)
  return parts.length > 0 ? ` (${parts.join(", ")})` : ""
}

// C0 and C1 control characters and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g

/**
 * Control characters as visible escapes: TAB as `\t`, the others as `\xNN`.
 *
 * @example
 * ```ts
 * import { Issue } from "@stseval/formats"
 *
 * Issue.escapeControls("team\u001b[31m") // the escape sequence shown, never run by a terminal
 * ```
 * @since 0.2.0
 */
export const escapeControls = (s: string): string =>
  s.replace(CONTROL, (c) => (c === "\t" ? "\\t" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`))

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
