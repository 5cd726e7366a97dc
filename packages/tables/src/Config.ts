/**
 * Report configuration without code: a JSON or YAML file holding the layout(s) to build and the
 * `Layouts.Options` (columns and order, decimals, sorting metric, primary runs only or all,
 * caption, significance test and alpha...), plus renderer options. Example (YAML):
 *
 * ```yaml
 * layout: sts2017-table10
 * runs: primary
 * columns: [run, primary, track5.en-en]
 * decimals: 1
 * caption: Our results
 * test: steiger1980
 * alpha: 0.01
 * correction: none  # the bold marks' p-values as they are (default holm over the comparisons with the best)
 * latex: { standalone: true }
 * ci: 95            # or { level: 95, resamples: 1000, seed: 12345 }
 * ```
 *
 * The options are an Effect Schema (`ConfigSchema`); each error names the key, the expected value
 * and what was found, in the words of the options.
 *
 * @since 0.1.0
 */
import { Compare } from "@stseval/significance"
import { Schema, SchemaIssue } from "effect"
import * as Yaml from "yaml"
import type * as Layouts from "./Layouts.js"

const Decimals = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10 }))
const IntAtLeast = (min: number) => Schema.Int.check(Schema.isGreaterThanOrEqualTo(min))
const Strings = Schema.Array(Schema.String)
/** A confidence level as people write it: 95 (percent) or 0.95. */
const Level = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThan(100))

/**
 * The options of a config file (every key optional; unknown keys are errors).
 *
 * @example
 * ```ts
 * import { Config } from "@stseval/tables"
 * import { Schema } from "effect"
 *
 * const options = Schema.decodeUnknownSync(Config.ConfigSchema)({ layout: "sts2017-table10", decimals: 1 })
 * ```
 * @since 0.2.0
 */
export const ConfigSchema = Schema.Struct({
  layout: Schema.optionalKey(Schema.Union([Schema.String, Strings])),
  columns: Schema.optionalKey(Strings),
  decimals: Schema.optionalKey(Schema.Union([Decimals, Schema.Record(Schema.String, Decimals)])),
  sortBy: Schema.optionalKey(Schema.String),
  runs: Schema.optionalKey(Schema.Literals(["primary", "all"])),
  title: Schema.optionalKey(Schema.String),
  caption: Schema.optionalKey(Schema.String),
  label: Schema.optionalKey(Schema.String),
  wide: Schema.optionalKey(Schema.Boolean),
  headers: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  sectionOrder: Schema.optionalKey(Strings),
  significance: Schema.optionalKey(Schema.Boolean),
  test: Schema.optionalKey(Schema.Literals(Compare.testNames)),
  alpha: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThan(1))),
  correction: Schema.optionalKey(Schema.Literals(["holm", "none"])),
  resamples: Schema.optionalKey(IntAtLeast(1)),
  seed: Schema.optionalKey(IntAtLeast(0)),
  bestMarks: Schema.optionalKey(Schema.Boolean),
  matrix: Schema.optionalKey(Schema.Boolean),
  scatterRuns: Schema.optionalKey(IntAtLeast(0)),
  maxPoints: Schema.optionalKey(IntAtLeast(10)),
  notes: Schema.optionalKey(Strings),
  latex: Schema.optionalKey(
    Schema.Struct({ standalone: Schema.optionalKey(Schema.Boolean), engine: Schema.optionalKey(Schema.Literals(["pdflatex", "unicode"])) })
  ),
  rankIntervals: Schema.optionalKey(Schema.Boolean),
  ci: Schema.optionalKey(
    Schema.Union([
      Level,
      Schema.Struct({ level: Level, resamples: Schema.optionalKey(IntAtLeast(1)), seed: Schema.optionalKey(IntAtLeast(0)) })
    ])
  )
})

/**
 * Intervals on every figure and rank (`--ci`): the level (95 or 0.95), and the bootstrap's
 * resamples and seed (defaults 1,000 and 12345).
 *
 * @since 0.2.0
 */
export interface CiConfig {
  readonly level: number
  readonly resamples?: number | undefined
  readonly seed?: number | undefined
}

/**
 * A report configuration as a JSON or YAML file holds it: the layout(s) to build, their
 * `Layouts.Options`, the LaTeX options and the intervals.
 *
 * @since 0.1.0
 */
export interface Config extends Layouts.Options {
  /** preset layout id(s); default: the edition's */
  readonly layout?: ReadonlyArray<string> | undefined
  readonly latex?: { readonly standalone?: boolean | undefined; readonly engine?: "pdflatex" | "unicode" | undefined } | undefined
  /** intervals on every figure and rank; a number is the level */
  readonly ci?: CiConfig | undefined
}

/**
 * What `parse` gives: the configuration, or every error found in the file (not only the first), for
 * the user to fix at once.
 *
 * @since 0.1.0
 */
export type Parsed = { readonly _tag: "Ok"; readonly config: Config } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> }

const KEYS = Object.keys(ConfigSchema.fields)

/** What each key takes, in the words of the error messages. */
const EXPECTED: Readonly<Record<string, string>> = {
  layout: "a string or a list of strings",
  columns: "a list of strings",
  sectionOrder: "a list of strings",
  notes: "a list of strings",
  decimals: "an integer 0-10 or an object of column key -> integer 0-10",
  headers: "an object of column key -> header text",
  runs: "primary or all",
  sortBy: "a string",
  title: "a string",
  caption: "a string",
  label: "a string",
  wide: "true or false",
  significance: "true or false",
  bestMarks: "true or false",
  matrix: "true or false",
  test: `one of ${Compare.testNames.join(", ")}`,
  alpha: "a number between 0 and 1",
  correction: "holm or none",
  resamples: "an integer >= 1",
  seed: "an integer >= 0",
  scatterRuns: "an integer >= 0",
  maxPoints: "an integer >= 10",
  latex: "an object { standalone, engine }",
  "latex.standalone": "true or false",
  "latex.engine": "pdflatex or unicode",
  rankIntervals: "true or false",
  ci: "a confidence level (95 or 0.95) or an object { level, resamples, seed }",
  "ci.level": "a confidence level, 95 or 0.95",
  "ci.resamples": "an integer >= 1",
  "ci.seed": "an integer >= 0"
}

const describe = (u: unknown): string => (u === null ? "null" : Array.isArray(u) ? "a list" : typeof u === "string" ? JSON.stringify(u) : typeof u === "object" ? "an object" : (JSON.stringify(u) ?? "nothing"))

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()
const decodeConfig = Schema.decodeUnknownResult(ConfigSchema, { onExcessProperty: "error", errors: "all" })

const valueAt = (u: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>((o, k) => (typeof o === "object" && o !== null ? (o as Record<PropertyKey, unknown>)[k] : undefined), u)

/**
 * Validate an already-parsed value (from JSON or YAML) as a Config.
 *
 * @example
 * ```ts
 * import { Config } from "@stseval/tables"
 *
 * Config.decode({ decimals: 11 }, "report.json") // { _tag: "Error", errors: ["report.json: decimals: expected an integer 0-10 ..."] }
 * ```
 * @since 0.1.0
 */
export const decode = (u: unknown, source = "config"): Parsed => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) {
    return { _tag: "Error", errors: [`${source}: expected an object of options, found ${describe(u)}`] }
  }
  const result = decodeConfig(u)
  if (result._tag === "Success") {
    const { layout, ci, ...rest } = result.success
    return {
      _tag: "Ok",
      config: {
        ...rest,
        ...(layout !== undefined ? { layout: typeof layout === "string" ? [layout] : layout } : {}),
        ...(ci !== undefined ? { ci: typeof ci === "number" ? { level: ci } : ci } : {})
      }
    }
  }
  // one message per key: unknown keys first, then in the file's order
  const order = Object.keys(u)
  const seen = new Map<string, { readonly unknown: boolean; readonly at: number; readonly text: string }>()
  for (const issue of formatter(result.failure.issue).issues) {
    const path = (issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))
    const key = path.slice(0, 2).map(String).join(".")
    const top = String(path[0] ?? "")
    // a key the schema does not know (the decoder reports it as an excess property)
    const unknown =
      path.length === 1
        ? !KEYS.includes(top)
        : (top === "latex" && !["standalone", "engine"].includes(String(path[1]))) || (top === "ci" && !["level", "resamples", "seed"].includes(String(path[1])))
    const field = unknown ? key : EXPECTED[key] !== undefined ? key : top
    if (seen.has(field)) continue
    const text = unknown
      ? `${source}: ${field}: expected ${path.length > 1 ? (top === "ci" ? "level, resamples or seed" : "standalone or engine") : `one of the keys ${KEYS.join(", ")}`}, found ${describe(String(path[path.length - 1]))}`
      : `${source}: ${field}: expected ${EXPECTED[field] ?? "a valid value"}, found ${describe(valueAt(u, field.split(".")))}`
    seen.set(field, { unknown, at: order.indexOf(top), text })
  }
  const errors = [...seen.values()].sort((a, b) => Number(b.unknown) - Number(a.unknown) || a.at - b.at).map((e) => e.text)
  return { _tag: "Error", errors }
}

/**
 * Parse a config file's text: JSON when the name ends in `.json`, otherwise YAML (a superset of
 * JSON).
 *
 * @example
 * ```ts
 * import { Config } from "@stseval/tables"
 *
 * const parsed = Config.parse("layout: sts2017-table10\nci: 95\n", "report.yaml")
 * if (parsed._tag === "Ok") parsed.config.ci // { level: 95 }
 * ```
 * @since 0.1.0
 */
export const parse = (text: string, fileName = "config.yaml"): Parsed => {
  let value: unknown
  try {
    value = fileName.toLowerCase().endsWith(".json") ? JSON.parse(text.replace(/^\uFEFF/, "")) : Yaml.parse(text.replace(/^\uFEFF/, ""))
  } catch (e) {
    return { _tag: "Error", errors: [`${fileName}: not valid ${fileName.toLowerCase().endsWith(".json") ? "JSON" : "YAML"}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`] }
  }
  return decode(value ?? {}, fileName)
}
