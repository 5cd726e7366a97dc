/**
 * Schema decoding errors as `{ field, message }` entries, for error messages that name the bad field
 * (`datasets[2].goldFormat`) rather than dump the issue tree.
 */
import { SchemaIssue } from "effect"
import type { Schema } from "effect"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** A property path as users write it: `a.b[2].c`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("")

// Schema messages quote the bad value (`got "..."`): a 1 MB team name must not become a 1 MB
// message in every output, so long quoted strings are cut, saying how long they were.
const LONG_QUOTED = /"((?:[^"\\]|\\.){60})((?:[^"\\]|\\.)+)"/g
const shortenQuoted = (message: string): string =>
  message.replace(LONG_QUOTED, (_, head: string, tail: string) => `"${head}..." (${head.length + tail.length} characters)`)

/** Every leaf problem of a decoding error, in order, with its field path ("" for the root). */
export const schemaProblems = (error: Schema.SchemaError): ReadonlyArray<{ readonly field: string; readonly message: string }> =>
  formatter(error.issue).issues.map((i) => ({
    field: formatPath((i.path ?? []).map((p) => (typeof p === "object" ? p.key : p))),
    message: shortenQuoted(i.message)
  }))

/** The first problem, with a note on how many more there are. */
export const firstProblem = (error: Schema.SchemaError): { readonly field: string | undefined; readonly message: string } => {
  const [first, ...rest] = schemaProblems(error)
  if (first === undefined) return { field: undefined, message: error.message }
  const more = rest.length > 0 ? ` (and ${rest.length} more: ${rest.slice(0, 3).map((p) => `${p.field || "<root>"}: ${p.message}`).join("; ")})` : ""
  return { field: first.field === "" ? undefined : first.field, message: `${first.message}${more}` }
}
