/**
 * Reading an app's config file (`stseval-report`, `stseval-watcher`): JSON when the name ends in
 * `.json`, else YAML (a superset of JSON); Schema errors as lines that name the file and the key.
 *
 * @since 0.2.0
 */
import { Schema, SchemaIssue } from "effect"
import * as Yaml from "yaml"

/** @since 0.2.0 */
export type Read = { readonly _tag: "Ok"; readonly value: Readonly<Record<string, unknown>> } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> }

/**
 * A config file's text as an object of options; anything else (bad syntax, a list, nothing) is an
 * error naming the file and what the object must hold (`needs`, e.g. "task and submissions").
 *
 * @since 0.2.0
 */
export const read = (text: string, file: string, needs: string): Read => {
  const json = file.toLowerCase().endsWith(".json")
  let value: unknown
  try {
    value = json ? JSON.parse(text.replace(/^\uFEFF/, "")) : Yaml.parse(text.replace(/^\uFEFF/, ""))
  } catch (e) {
    return { _tag: "Error", errors: [`${file}: not valid ${json ? "JSON" : "YAML"}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`] }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const found = value === null || value === undefined ? "nothing" : Array.isArray(value) ? "a list" : typeof value
    return { _tag: "Error", errors: [`${file}: expected an object with at least ${needs}, found ${found}`] }
  }
  return { _tag: "Ok", value: value as Readonly<Record<string, unknown>> }
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * One line per problem of a failed decode: `<file>: <key path>: <what was expected>`.
 *
 * @since 0.2.0
 */
export const errors = (issue: SchemaIssue.Issue, file: string, value: unknown, keys?: ReadonlyArray<string>): ReadonlyArray<string> =>
  formatter(issue).issues.map((i) => {
    const path = (i.path ?? []).map((p) => (typeof p === "object" ? p.key : p))
    const key = path.map(String).join(".")
    const found = path.reduce<unknown>((o, k) => (typeof o === "object" && o !== null ? (o as Record<PropertyKey, unknown>)[k] : undefined), value)
    const message = /^Missing key/.test(i.message)
      ? "missing (required)"
      : /excess property/.test(i.message)
        ? `not an option of this file${path.length === 1 && keys !== undefined ? `; expected one of the keys ${keys.join(", ")}` : ""}`
        : `${i.message}, found ${found === undefined ? "nothing" : JSON.stringify(found)}`
    return `${file}: ${key === "" ? "" : `${key}: `}${message}`
  })

/**
 * An edition named by a path rather than an id, as `Registry.resolve` tells them apart: such a
 * path in a config file is relative to the file's folder.
 *
 * @since 0.2.0
 */
export const isEditionPath = (task: string): boolean => /\.(json|ya?ml)$/i.test(task) || task.includes("/") || task.includes("\\")

/** Decode with a Schema, unknown keys being errors. @since 0.2.0 */
export const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  value: unknown,
  file: string
): { readonly _tag: "Ok"; readonly value: S["Type"] } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> } => {
  const result = Schema.decodeUnknownResult(schema)(value, { errors: "all", onExcessProperty: "error" })
  return result._tag === "Success" ? ({ _tag: "Ok", value: result.success } as const) : ({ _tag: "Error", errors: errors(result.failure.issue, file, value, "fields" in schema ? Object.keys(schema.fields as object) : undefined) } as const)
}
