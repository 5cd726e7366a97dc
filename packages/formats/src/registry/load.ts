/**
 * Reading an edition: decoding a value (`EditionError` naming the field), a JSON or YAML file with
 * its `extends` chain, and `resolve` (a built-in id or a file).
 */
import * as NodePath from "node:path"
import { Effect, Schema } from "effect"
import type { FileSystem } from "effect"
import * as Yaml from "yaml"
import * as Files from "../Files.js"
import * as Issue from "../Issue.js"
import * as Extend from "../internal/extend.js"
import { firstProblem } from "../internal/schemaIssues.js"
import { normalise } from "./checks.js"
import { builtinIds, get } from "./lookup.js"
import { TaskEdition } from "./schema.js"

/**
 * A user edition file that cannot be used: unreadable, not JSON / YAML, or not a valid edition.
 * `field` is the path of the first bad field (e.g. `datasets[2].goldFormat`) when known.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = Registry.resolve("my-edition.yaml").pipe(
 *   Effect.catchTag("EditionError", (e: Registry.EditionError) => Effect.fail(`${e.file}${e.field === undefined ? "" : ` ${e.field}`}: ${e.reason}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class EditionError extends Schema.TaggedError<EditionError>()("EditionError", {
  file: Schema.String,
  field: Schema.optionalKey(Schema.String),
  reason: Schema.String,
  /** the edition id that names no built-in edition (given as the task, or as `extends`) @since 0.5.0 */
  unknownId: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `${this.file}: ${this.field !== undefined ? `${this.field}: ` : ""}${this.reason}`
  }

  /** As an issue for reports: `unknown-task` for an id that is not built in (`unknownId`), else `bad-task-file`. @since 0.1.0 */
  toIssue(): Issue.Issue {
    const code = this.unknownId !== undefined ? "unknown-task" : "bad-task-file"
    return Issue.error(code, this.file, this.message, this.field !== undefined ? { field: this.field } : {})
  }
}

/**
 * Validate an unknown value (e.g. parsed JSON) as an edition. On failure the error names the first
 * bad field and what was wrong; `file` labels the source in messages.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a copy of a built-in edition, renamed: every field checked, errors naming the field
 * const mine = await Effect.runPromise(Registry.decodeEdition({ ...Registry.get("sts2017")!, id: "sts2017-mine" }, "mine.json"))
 * ```
 * @since 0.1.0
 */
export const decodeEdition = (input: unknown, file = "<edition>"): Effect.Effect<TaskEdition, EditionError> =>
  Schema.decodeUnknownEffect(TaskEdition)(input, { onExcessProperty: "error", reportInput: true, errors: "all" }).pipe(
    Effect.map(normalise),
    Effect.mapError((error) => toEditionError(file, error))
  )

const toEditionError = (file: string, error: Schema.SchemaError): EditionError => {
  const { field, message } = firstProblem(error)
  return new EditionError({ file, ...(field !== undefined ? { field } : {}), reason: message })
}

/**
 * `decodeEdition` without Effect, for code that builds an edition from data it holds (tests, a
 * tool's own editions): throws the schema's error on a bad edition.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * Registry.decodeEditionSync({ ...Registry.get("sts2014")!, id: "mine" }).id // "mine"
 * ```
 * @since 0.3.0
 */
export const decodeEditionSync = (input: unknown): TaskEdition => normalise(Schema.decodeUnknownSync(TaskEdition)(input, { onExcessProperty: "error" }))

// An edition file is a few KiB of JSON or YAML; anything near this is not one.
const MAX_EDITION_BYTES = 4 * 1024 * 1024

// How many editions one file may stand on (`extends` of `extends`...): a chain this long is a
// mistake, and it bounds the files read for one edition whatever links or names they use.
const MAX_EXTENDS_DEPTH = 8

const looksLikePath = (idOrPath: string): boolean => /\.(json|ya?ml)$/i.test(idOrPath) || idOrPath.includes("/") || idOrPath.includes("\\")

/**
 * An edition file's value with its `extends` resolved (`internal/extend.ts` says how the fields
 * are merged): a built-in id, or a file path relative to the extending file. `chain` holds the
 * files already being read (absolute), so that a cycle is refused, naming it.
 */
const readEditionValue = (file: string, chain: ReadonlyArray<string>): Effect.Effect<unknown, EditionError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    // errors name the file the user gave (the first of the chain) and the one at fault
    const top = chain[0] ?? file
    const bytes = yield* Files.readFile(file, { maxBytes: MAX_EDITION_BYTES, what: "the edition file" }).pipe(
      Effect.mapError((e) => new EditionError({ file: top, reason: `${chain.length > 0 ? `extends ${file}: ` : ""}cannot read the file: ${Files.detail(e)}` }))
    )
    const parsed = parseEditionText(new TextDecoder().decode(bytes), file)
    if (parsed._tag === "error") return yield* parsed.error
    const value = parsed.value
    if (!Extend.isObject(value) || !("extends" in value)) return value
    const base = value.extends
    const fail = (reason: string, field = "extends", unknownId?: string) =>
      Effect.fail(new EditionError({ file, field, reason, ...(unknownId !== undefined ? { unknownId } : {}) }))
    if (typeof base !== "string" || base === "") return yield* fail("expected a built-in edition id (e.g. sts2015) or the path of an edition file")
    let baseValue: unknown
    if (looksLikePath(base)) {
      const here = NodePath.resolve(file)
      const target = NodePath.resolve(NodePath.dirname(here), base)
      const seen = [...chain, here]
      if (seen.includes(target)) return yield* fail(`extends itself through ${[...seen.slice(seen.indexOf(target)), target].map((f) => NodePath.relative(NodePath.dirname(here), f) || f).join(" -> ")}: a cycle`)
      if (seen.length >= MAX_EXTENDS_DEPTH) return yield* fail(`more than ${MAX_EXTENDS_DEPTH} editions extend one another from ${top}`)
      baseValue = yield* readEditionValue(target, seen)
    } else {
      const builtIn = get(base)
      if (builtIn === undefined) return yield* fail(`no built-in edition "${base}" (known: ${builtinIds.join(", ")}); a file path needs .json, .yaml or .yml, or a /`, "extends", base)
      baseValue = Schema.encodeSync(TaskEdition)(builtIn)
    }
    if (!Extend.isObject(baseValue)) return yield* fail(`${base} is not an edition (an object of fields)`)
    const merged = Extend.mergeEdition(baseValue, value)
    return merged._tag === "ok" ? merged.value : yield* fail(merged.reason, merged.field)
  })

/**
 * Load a user edition from a `.json`, `.yaml` or `.yml` file (other names: JSON is tried, then YAML).
 * A file with `extends: <edition id or file>` is that edition with the file's fields laid over it
 * (objects merged key by key, `null` removing a key, `datasets` merged by name, other lists
 * replaced; docs/task-registry.md, "Extending an edition"); a cycle of files is refused.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = await Effect.runPromise(Registry.loadEditionFile("editions/my-task.yaml").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const loadEditionFile = (path: string): Effect.Effect<TaskEdition, EditionError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const value = yield* readEditionValue(path, [])
    return yield* decodeEdition(value, path)
  })

// What an edition file's YAML may expand to through its aliases: twice the largest file. One list
// reached through 90 aliases (under yaml's alias count), a 3 MB file, took 280 s and 4.37 GB.
const MAX_EXPANDED_BYTES = 2 * MAX_EDITION_BYTES
const MAX_YAML_CHARS = 256 * 1024

/**
 * The size of a YAML document once its aliases are expanded (about its JSON length), computed
 * on the syntax tree with each anchored node measured once, so in time linear in the file: undefined
 * within `MAX_EXPANDED_BYTES`, else why not.
 */
const expandedSize = (root: unknown): "too large" | "recursive" | undefined => {
  const anchors = new Map<string, unknown>()
  const sizes = new Map<unknown, number>()
  const open = new Set<unknown>()
  let recursive = false
  const size = (node: unknown): number => {
    if (node === null || node === undefined) return 4
    const known = sizes.get(node)
    if (known !== undefined) return known
    if (Yaml.isAlias(node)) {
      const target = anchors.get(node.source)
      if (target === undefined) return 4
      if (open.has(target)) {
        recursive = true
        return Infinity
      }
      return size(target)
    }
    if (Yaml.isNode(node) && node.anchor !== undefined) anchors.set(node.anchor, node)
    open.add(node)
    let n = 2
    if (Yaml.isScalar(node)) n += String(node.value).length
    else if (Yaml.isPair(node)) n += size(node.key) + size(node.value)
    else if (Yaml.isCollection(node)) {
      for (const item of node.items) {
        n += size(item) + 1
        if (n > MAX_EXPANDED_BYTES) break
      }
    }
    open.delete(node)
    sizes.set(node, n)
    return n
  }
  try {
    const total = size(root)
    return recursive ? "recursive" : total > MAX_EXPANDED_BYTES ? "too large" : undefined
  } catch {
    // nesting deeper than the stack: no edition is written so
    return "too large"
  }
}

/**
 * Parse an edition file's text (JSON or YAML) without validating it.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 *
 * const parsed = Registry.parseEditionText("id: my-sts\ntitle: Mine\n", "my-sts.yaml")
 * if (parsed._tag === "error") console.error(parsed.error.reason)
 * ```
 * @since 0.1.0
 */
export const parseEditionText = (
  text: string,
  file: string
): { readonly _tag: "ok"; readonly value: unknown } | { readonly _tag: "error"; readonly error: EditionError } => {
  const lower = file.toLowerCase()
  const json = lower.endsWith(".json") || (!lower.endsWith(".yaml") && !lower.endsWith(".yml") && /^\s*[{[]/.test(text))
  if (json) {
    try {
      return { _tag: "ok", value: JSON.parse(text) }
    } catch (e) {
      return { _tag: "error", error: new EditionError({ file, reason: `not valid JSON: ${(e as Error).message}` }) }
    }
  }
  // YAML's parser takes seconds per MB and more than linearly (3 MB: 26 s): a YAML edition is kept small
  if (text.length > MAX_YAML_CHARS) {
    return {
      _tag: "error",
      error: new EditionError({
        file,
        reason: `a YAML edition file is at most ${MAX_YAML_CHARS / 1024} KiB (an edition is a few KiB), found ${text.length} characters; write a larger one as JSON`
      })
    }
  }
  const doc = Yaml.parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    const err = doc.errors[0]
    const at = err.linePos?.[0]
    return {
      _tag: "error",
      error: new EditionError({ file, reason: `not valid YAML${at !== undefined ? ` (line ${at.line}, column ${at.col})` : ""}: ${err.message.split("\n")[0].replace(/:\s*$/, "")}` })
    }
  }
  const expanded = expandedSize(doc.contents)
  if (expanded !== undefined) {
    return {
      _tag: "error",
      error: new EditionError({
        file,
        reason: `not usable YAML: ${expanded === "recursive" ? "an alias inside its own anchor" : `its aliases expand it past ${MAX_EXPANDED_BYTES / 1024 / 1024} MiB`} (an edition file is a few KiB)`
      })
    }
  }
  // yaml refuses a document whose aliases expand too far (a "billion laughs") by throwing
  try {
    return { _tag: "ok", value: doc.toJS({ maxAliasCount: 100 }) }
  } catch (e) {
    return { _tag: "error", error: new EditionError({ file, reason: `not usable YAML: ${(e as Error).message} (its aliases expand to too many values)` }) }
  }
}

/**
 * An edition by id among the built-ins, or loaded from a file when `idOrPath` looks like one
 * (ends in `.json` / `.yaml` / `.yml` or contains a path separator).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a built-in id, or the path of an edition file (JSON or YAML)
 * const edition = await Effect.runPromise(Registry.resolve("sts2017").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const resolve = (idOrPath: string): Effect.Effect<TaskEdition, EditionError, FileSystem.FileSystem> => {
  if (looksLikePath(idOrPath)) return loadEditionFile(idOrPath)
  const found = get(idOrPath)
  return found !== undefined
    ? Effect.succeed(found)
    : Effect.fail(new EditionError({ file: idOrPath, reason: `no built-in edition "${idOrPath}"; known: ${builtinIds.join(", ")}`, unknownId: idOrPath }))
}
