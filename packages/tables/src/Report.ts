/**
 * The report generator: a scored, ranked result (`Engine.Results` of `@stseval/scoring`) as the
 * edition's published results tables (the registry names them: SICK Tables 7 and 6, STS 2014
 * Table 3, STS 2017 Table 10, STS Benchmark Table 14 with its dev split), rendered as Markdown,
 * LaTeX (booktabs), one self-contained HTML page or JSON. What `stseval report` runs.
 *
 * @example
 * ```ts
 * import { Engine } from "@stseval/scoring"
 * import { Report } from "@stseval/tables"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const results = yield* Engine.score({ task: "sick2014", folder: "submissions" })
 *   return Report.render(results.edition.id, Report.tables(results), "md", { signature: results.signature.text })
 * })
 * ```
 * @since 0.2.0
 */
import { Registry } from "@stseval/formats"
import { Uncertainty } from "@stseval/scoring"
import type { Engine } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import type * as Config from "./Config.js"
import * as FromScoring from "./FromScoring.js"
import * as Html from "./Html.js"
import * as Json from "./Json.js"
import * as Latex from "./Latex.js"
import * as Presets from "./Presets.js"
import * as Markdown from "./Markdown.js"
import { OptionError } from "./internal/optionError.js"
import type * as Results from "./Results.js"
import type * as Table from "./Table.js"

export { OptionError } from "./internal/optionError.js"

/**
 * An output format of the report: Markdown, LaTeX, one HTML page or JSON.
 *
 * @since 0.2.0
 */
export type Format = "md" | "latex" | "html" | "json"

/**
 * The formats, for flags and messages.
 *
 * @example
 * ```ts
 * import { Report } from "@stseval/tables"
 *
 * Report.formats // ["md", "latex", "html", "json"]
 * ```
 * @since 0.2.0
 */
export const formats: ReadonlyArray<Format> = ["md", "latex", "html", "json"]

/**
 * What `Report` builds: the configuration (layouts and their options), the output format, and the
 * edition's dev split scored too, for a Dev column.
 *
 * @since 0.2.0
 */
export interface Options extends Config.Config {
  /** the edition's development split scored too (STS Benchmark: `stsb-dev`), for a Dev column */
  readonly dev?: Engine.Results | undefined
  /** the output format: the p-value matrices and scatter plots are only made for HTML and JSON */
  readonly format?: Format | undefined
}

/**
 * Whether a report ranks primary runs only: `options.runs` when given, else as the edition's
 * published tables did (SICK: primary runs; the STS tables: every run). The runs must be ranked so
 * (`Engine.score`'s `primaryOnly`) before `tables` lays them out: a table lists what the ranking lists.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Report } from "@stseval/tables"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const edition = Registry.get("sick2014")!
 *   const options: Report.Options = { format: "md" }
 *   // ranked once, as the tables list them (SICK: primary runs only)
 *   const results = yield* Engine.score({ task: edition, folder: "submissions", primaryOnly: Report.primaryOnly(edition, options) })
 *   return Report.render(edition.id, Report.tables(results, options), "md")
 * })
 * ```
 * @since 0.3.0
 */
export const primaryOnly = (edition: Engine.Results["edition"], options: Pick<Options, "runs" | "layout"> = {}): boolean =>
  options.runs !== undefined ? options.runs === "primary" : (options.layout ?? Presets.forEdition(edition)).every((id) => Presets.runsOf(id) === "primary")

/**
 * The layouts' view of scored results (and of the dev split's, joined by run id), with the
 * intervals and marks given.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import { Presets, Report } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's
 * const table = Presets.preset("sts2017-table10", Report.resultsOf(results))
 * ```
 * @since 0.2.0
 */
export const resultsOf = (
  results: Engine.Results,
  dev?: Engine.Results,
  intervals?: { readonly main?: Uncertainty.ResultIntervals | undefined; readonly dev?: Uncertainty.ResultIntervals | undefined },
  marks?: { readonly main?: Marks.Marks | undefined; readonly dev?: Marks.Marks | undefined }
): Results.Results => {
  const main = FromScoring.fromResults(results, { intervals: intervals?.main, marks: marks?.main })
  return dev === undefined ? main : FromScoring.merge(FromScoring.fromResults(dev, { intervals: intervals?.dev, marks: marks?.dev }), main)
}

/**
 * Intervals for the report (`options.ci`): `Uncertainty.compute` on the results (and the dev
 * split), over the runs their rankings rank. Throws an `OptionError` naming the setting for bad ones.
 */
const intervalsFor = (results: Engine.Results, dev: Engine.Results | undefined, ci: Config.CiConfig) => {
  const level = Uncertainty.parseLevel(ci.level)
  if (level === undefined) throw new OptionError({ option: "ci", message: `ci: expected ${Uncertainty.levelExpected}, found ${ci.level}` })
  const settings = { level, resamples: ci.resamples, seed: ci.seed }
  const one = (r: Engine.Results) => {
    const out = Uncertainty.compute(r, settings)
    if (Uncertainty.isError(out)) throw new OptionError({ option: "ci", message: `ci: ${out.message}` })
    return out
  }
  return { main: one(results), dev: dev !== undefined ? one(dev) : undefined }
}

/**
 * The tables of a report: the layouts named by `options.layout`, else the edition's
 * (`Presets.forEdition`), over the runs the results' rankings list (rank them with `primaryOnly`);
 * the bold marks computed once (`Marks.compute`, only the figures the tables mark, with the
 * options' test, alpha, correction, resamples and seed), the intervals once (`options.ci`). Throws
 * an `OptionError` naming the layout or column for an unknown one.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import { Report } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's, ranked with Report.primaryOnly
 * const html = Report.render(results.edition.id, Report.tables(results, { format: "html", correction: "none" }), "html")
 * ```
 * @since 0.2.0
 */
export const tables = (results: Engine.Results, options: Options = {}): ReadonlyArray<Table.Table> => {
  const { dev, format, layout, latex: _latex, ci, notes, test, alpha, correction, resamples, seed, ...layoutOptions } = options
  const ids = layout ?? Presets.forEdition(results.edition)
  const plain = resultsOf(results, dev)
  // the p-value matrix and plots are only drawn in HTML (and kept in JSON)
  const extras = format === "md" || format === "latex" ? { matrix: false, scatterRuns: 0 } : {}
  const matrix = format === "md" || format === "latex" || options.matrix === false ? 0 : Marks.MATRIX_MAX_RUNS
  // the figures any table marks bold: only those are compared
  const only = [...new Set(ids.flatMap((id) => Presets.markedFigures(id, plain, layoutOptions)))]
  const settings: Marks.Options = {
    only,
    matrix,
    ...(test !== undefined ? { test } : {}),
    ...(alpha !== undefined ? { alpha } : {}),
    ...(correction !== undefined ? { correction } : {}),
    ...(resamples !== undefined ? { resamples } : {}),
    ...(seed !== undefined ? { seed } : {})
  }
  const marks = only.length === 0 ? undefined : { main: Marks.compute(results, settings), dev: dev !== undefined ? Marks.compute(dev, settings) : undefined }
  const view = resultsOf(results, dev, ci !== undefined ? intervalsFor(results, dev, ci) : undefined, marks)
  // what the figures were computed from, under every table
  const signed = [...(notes ?? []), `Scored with ${[results, ...(dev !== undefined ? [dev] : [])].map((r) => r.signature.text).join(" and ")}.`]
  // the task's paper under every table (the edition's citation)
  const citation = Registry.citationOf(results.edition)
  return ids.map((id) => {
    const table = Presets.preset(id, view, { ...layoutOptions, ...extras, notes: signed })
    return citation !== undefined ? { ...table, citation } : table
  })
}

/**
 * Tables as one text in a format: Markdown (tables one after another), LaTeX (floats, or one
 * document that compiles alone with `latex.standalone`), one HTML page, or one JSON document
 * (`stseval/report@2`, with scatter data and p-value matrices).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const results = await Effect.runPromise(
 *   Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * import { Report } from "@stseval/tables"
 *
 * const text = Report.render(results.edition.id, Report.tables(results, { format: "md" }), "md", { signature: results.signature.text })
 * ```
 * @since 0.2.0
 */
export const render = (
  edition: string,
  tables: ReadonlyArray<Table.Table>,
  format: Format,
  options: Pick<Config.Config, "latex"> & { readonly signature?: string | undefined; readonly bibliography?: string | undefined } = {}
): string => {
  switch (format) {
    case "md":
      return tables.map((t) => Markdown.render(t)).join("\n")
    case "latex": {
      const latex = {
        standalone: options.latex?.standalone === true,
        ...(options.latex?.engine !== undefined ? { engine: options.latex.engine } : {}),
        ...(options.bibliography !== undefined ? { bibliography: options.bibliography } : {})
      }
      return latex.standalone ? Latex.renderDocument(tables, latex) : tables.map((t) => Latex.render(t, latex)).join("\n")
    }
    case "html":
      return Html.renderPage(tables)
    case "json":
      return Json.renderReport(edition, tables, { extras: true, ...(options.signature !== undefined ? { signature: options.signature } : {}) })
  }
}
