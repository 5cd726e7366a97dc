/**
 * The format registry: every built-in file format by name (`sts-gs`, `stsb-csv`, `sick`,
 * `semrel-csv`), and the one way from what an edition names (a built-in name, or a declarative
 * spec) to a `Format`. A new built-in format is its own descriptor and one line in `all`; a
 * delimited-text or JSON Lines format needs no code at all (`Declarative`).
 *
 * @since 0.3.0
 */
import * as Declarative from "./Declarative.js"
import type { Format } from "./Format.js"
import * as SemRel from "./SemRel.js"
import * as Sick from "./Sick.js"
import * as Sts from "./Sts.js"
import * as StsBenchmark from "./StsBenchmark.js"

/**
 * Every built-in format.
 *
 * @example
 * ```ts
 * import { Formats } from "@stseval/formats"
 *
 * Formats.all.filter((f) => f.match === "id").map((f) => f.name) // ["sick", "semrel-csv"]: runs matched by pair ID
 * ```
 * @since 0.3.0
 */
export const all: ReadonlyArray<Format> = [Sts.format, StsBenchmark.format, Sick.format, SemRel.format]

const byName = new Map<string, Format>(all.map((f) => [f.name, f]))

/**
 * The names an edition may give as a dataset's `format`.
 *
 * @example
 * ```ts
 * import { Formats } from "@stseval/formats"
 *
 * Formats.names // ["sts-gs", "stsb-csv", "sick", "semrel-csv"]
 * ```
 * @since 0.3.0
 */
export const names: ReadonlyArray<string> = all.map((f) => f.name)

/**
 * A built-in format by name, or undefined.
 *
 * @example
 * ```ts
 * import { Formats } from "@stseval/formats"
 *
 * Formats.get("sts-gs")?.match // "line"
 * Formats.get("sts") // undefined: not a format's name
 * ```
 * @since 0.3.0
 */
export const get = (name: string): Format | undefined => byName.get(name)

/**
 * What an edition names as a format: a built-in name or a declarative spec.
 *
 * @since 0.3.0
 */
export type Reference = string | Declarative.Spec

/**
 * The format an edition names; undefined for an unknown name (a decoded edition never has one).
 *
 * @example
 * ```ts
 * import { Formats } from "@stseval/formats"
 *
 * Formats.resolve("semrel-csv")?.name // "semrel-csv"
 * // a declarative spec: JSON Lines records with an `id` and a `score`, matched by ID
 * Formats.resolve({ type: "jsonl", id: "id", score: "score" })?.match // "id"
 * ```
 * @since 0.3.0
 */
export const resolve = (reference: Reference): Format | undefined =>
  typeof reference === "string" ? byName.get(reference) : Declarative.make(reference)
