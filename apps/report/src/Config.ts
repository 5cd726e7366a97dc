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
 * latex: { standalone: true }
 * ```
 *
 * Validation is hand-written (a few dozen lines) so that each error names the key, the expected
 * value and what was found, in the words of the options.
 *
 * @since 0.1.0
 */
import { Compare } from "@stseval/significance"
import * as Yaml from "yaml"
import type * as Layouts from "./Layouts.js"

/** @since 0.1.0 */
export interface Config extends Layouts.Options {
  /** preset layout id(s); default: the edition's */
  readonly layout?: ReadonlyArray<string> | undefined
  readonly latex?: { readonly standalone?: boolean | undefined; readonly engine?: "pdflatex" | "unicode" | undefined } | undefined
}

/** @since 0.1.0 */
export type Parsed = { readonly _tag: "Ok"; readonly config: Config } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> }

const KEYS = [
  "layout", "columns", "decimals", "sortBy", "runs", "title", "caption", "label", "wide", "headers", "sectionOrder",
  "significance", "test", "alpha", "resamples", "seed", "bestMarks", "matrix", "scatterRuns", "maxPoints", "notes", "latex"
] as const

const describe = (u: unknown): string => (u === null ? "null" : Array.isArray(u) ? "a list" : typeof u === "string" ? JSON.stringify(u) : typeof u === "object" ? "an object" : (JSON.stringify(u) ?? "nothing"))

/**
 * Validate an already-parsed value (from JSON or YAML) as a Config.
 *
 * @since 0.1.0
 */
export const decode = (u: unknown, source = "config"): Parsed => {
  const errors: Array<string> = []
  const bad = (key: string, expected: string, found: unknown) => errors.push(`${source}: ${key}: expected ${expected}, found ${describe(found)}`)
  if (typeof u !== "object" || u === null || Array.isArray(u)) {
    return { _tag: "Error", errors: [`${source}: expected an object of options, found ${describe(u)}`] }
  }
  const o = u as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(o)) if (!(KEYS as ReadonlyArray<string>).includes(key)) bad(key, `one of the keys ${KEYS.join(", ")}`, key)
  const strings = (key: string, v: unknown) => {
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[key] = v
    else bad(key, "a list of strings", v)
  }
  const str = (key: string, v: unknown) => (typeof v === "string" ? (out[key] = v) : bad(key, "a string", v))
  const bool = (key: string, v: unknown) => (typeof v === "boolean" ? (out[key] = v) : bad(key, "true or false", v))
  const int = (key: string, v: unknown, min: number) =>
    typeof v === "number" && Number.isInteger(v) && v >= min ? (out[key] = v) : bad(key, `an integer >= ${min}`, v)
  for (const [key, v] of Object.entries(o)) {
    switch (key) {
      case "layout":
        if (typeof v === "string") out.layout = [v]
        else strings(key, v)
        break
      case "columns":
      case "sectionOrder":
      case "notes":
        strings(key, v)
        break
      case "decimals":
        if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 10) out.decimals = v
        else if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 10)) out.decimals = v
        else bad(key, "an integer 0-10 or an object of column key -> integer 0-10", v)
        break
      case "headers":
        if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string")) out.headers = v
        else bad(key, "an object of column key -> header text", v)
        break
      case "runs":
        if (v === "primary" || v === "all") out.runs = v
        else bad(key, "primary or all", v)
        break
      case "sortBy":
      case "title":
      case "caption":
      case "label":
        str(key, v)
        break
      case "wide":
      case "significance":
      case "bestMarks":
      case "matrix":
        bool(key, v)
        break
      case "test":
        if (typeof v === "string" && (Compare.testNames as ReadonlyArray<string>).includes(v)) out.test = v
        else bad(key, `one of ${Compare.testNames.join(", ")}`, v)
        break
      case "alpha":
        if (typeof v === "number" && v > 0 && v < 1) out.alpha = v
        else bad(key, "a number between 0 and 1", v)
        break
      case "resamples":
        int(key, v, 1)
        break
      case "seed":
      case "scatterRuns":
        int(key, v, 0)
        break
      case "maxPoints":
        int(key, v, 10)
        break
      case "latex": {
        if (typeof v !== "object" || v === null || Array.isArray(v)) {
          bad(key, "an object { standalone, engine }", v)
          break
        }
        const l = v as Record<string, unknown>
        const latex: Record<string, unknown> = {}
        for (const [k, x] of Object.entries(l)) {
          if (k === "standalone" && typeof x === "boolean") latex.standalone = x
          else if (k === "engine" && (x === "pdflatex" || x === "unicode")) latex.engine = x
          else bad(`latex.${k}`, k === "engine" ? "pdflatex or unicode" : k === "standalone" ? "true or false" : "standalone or engine", k === "engine" || k === "standalone" ? x : k)
        }
        out.latex = latex
        break
      }
    }
  }
  return errors.length > 0 ? { _tag: "Error", errors } : { _tag: "Ok", config: out }
}

/**
 * Parse a config file's text: JSON when the name ends in `.json`, otherwise YAML (a superset of
 * JSON).
 *
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
