/**
 * The report generator: a scored, ranked result (`Engine.Results` of `@stseval/scoring`) as the
 * edition's published results tables (the registry names them: SICK Tables 7 and 6, STS 2014
 * Table 3, STS 2017 Table 10, STS Benchmark Table 14 with its dev split), rendered as Markdown,
 * LaTeX (booktabs), one self-contained HTML page or JSON. What `stseval report` runs.
 *
 * @example
 * const results = yield* Engine.score({ task: "sick2014", gold, folder: "submissions" })
 * const text = Report.render(results.edition.id, Report.tables(results), "md", { signature: results.signature.text })
 * @since 0.2.0
 */
import { Uncertainty } from "@stseval/scoring"
import type { Engine } from "@stseval/scoring"
import type * as Config from "./Config.js"
import * as FromScoring from "./FromScoring.js"
import * as Html from "./Html.js"
import * as Json from "./Json.js"
import * as Latex from "./Latex.js"
import * as Layouts from "./Layouts.js"
import * as Markdown from "./Markdown.js"
import type * as Results from "./Results.js"
import type * as Table from "./Table.js"

/**
 * @example
 * ```ts
 * import { Report } from "@stseval/tables"
 *
 * const format: Report.Format = "latex"
 * ```
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
 * @example
 * ```ts
 * import { Report } from "@stseval/tables"
 *
 * const options: Report.Options = { layout: ["sick2014-table7"], decimals: 2, format: "latex", latex: { standalone: true } }
 * ```
 * @since 0.2.0
 */
export interface Options extends Config.Config {
  /** the edition's development split scored too (STS Benchmark: `stsb-dev`), for a Dev column */
  readonly dev?: Engine.Results | undefined
  /** the output format: the p-value matrices and scatter plots are only made for HTML and JSON */
  readonly format?: Format | undefined
}

/**
 * The layouts' view of scored results (and of the dev split's, joined by run id).
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
 * const view = Report.resultsOf(results) // what the layouts read: figures, aligned scores, ranks
 * ```
 * @since 0.2.0
 */
export const resultsOf = (
  results: Engine.Results,
  dev?: Engine.Results,
  intervals?: { readonly main?: Uncertainty.ResultIntervals | undefined; readonly dev?: Uncertainty.ResultIntervals | undefined }
): Results.Results => {
  const main = FromScoring.fromScoredRuns(results.runs, { edition: results.edition, intervals: intervals?.main })
  return dev === undefined ? main : FromScoring.merge(FromScoring.fromScoredRuns(dev.runs, { edition: dev.edition, intervals: intervals?.dev }), main)
}

/**
 * Intervals for one table (`options.ci`): `Uncertainty.compute` on the results (and the dev
 * split), ranking the runs the table ranks. Throws an `Error` naming the setting for bad ones.
 */
const intervalsFor = (
  id: string,
  results: Engine.Results,
  dev: Engine.Results | undefined,
  ci: Config.CiConfig,
  layoutOptions: Layouts.Options,
  cache: Map<string, { readonly main: Uncertainty.ResultIntervals; readonly dev: Uncertainty.ResultIntervals | undefined }>
) => {
  const level = Uncertainty.parseLevel(ci.level)
  if (level === undefined) throw new Error(`ci: expected a confidence level such as 95 or 0.95, found ${ci.level}`)
  const ranked = Layouts.rankedIds(id, resultsOf(results, dev), layoutOptions)
  const key = ranked.join("\n")
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  // Spearman only where a table shows it (SICK Table 7's rho); the STS tables show Pearson
  const settings = { level, resamples: ci.resamples, seed: ci.seed, ranked, spearman: results.edition.family === "sick" }
  const one = (r: Engine.Results) => {
    const out = Uncertainty.compute(r, settings)
    if (Uncertainty.isError(out)) throw new Error(`ci: ${out.message}`)
    return out
  }
  const made = { main: one(results), dev: dev !== undefined ? one(dev) : undefined }
  cache.set(key, made)
  return made
}

/**
 * The tables of a report: the layouts named by `options.layout`, else the edition's published
 * ones (`Layouts.forEdition`). Throws an `Error` naming the layout or column for an unknown one.
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
 * const tables = Report.tables(results, { format: "md" }) // SICK Tables 7 and 6
 * ```
 * @since 0.2.0
 */
export const tables = (results: Engine.Results, options: Options = {}): ReadonlyArray<Table.Table> => {
  const { dev, format, layout, latex: _latex, ci, notes, ...layoutOptions } = options
  const plain = resultsOf(results, dev)
  // the p-value matrix and plots are only drawn in HTML (and kept in JSON)
  const extras = format === "md" || format === "latex" ? { matrix: false, scatterRuns: 0 } : {}
  // what the figures were computed from, under every table
  const signed = [...(notes ?? []), `Scored with ${[results, ...(dev !== undefined ? [dev] : [])].map((r) => r.signature.text).join(" and ")}.`]
  const cache = new Map<string, { readonly main: Uncertainty.ResultIntervals; readonly dev: Uncertainty.ResultIntervals | undefined }>()
  return (layout ?? Layouts.forEdition(results.edition)).map((id) => {
    // one resampling pass per distinct ranked set serves every figure and rank of the table
    const view = ci === undefined ? plain : resultsOf(results, dev, intervalsFor(id, results, dev, ci, layoutOptions, cache))
    return Layouts.preset(id, view, { ...layoutOptions, ...extras, notes: signed })
  })
}

/**
 * Tables as one text in a format: Markdown (tables one after another), LaTeX (floats, or one
 * document that compiles alone with `latex.standalone`), one HTML page, or one JSON document
 * (`stseval/report@1`, with scatter data and p-value matrices).
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
  options: Pick<Config.Config, "latex"> & { readonly signature?: string | undefined } = {}
): string => {
  switch (format) {
    case "md":
      return tables.map((t) => Markdown.render(t)).join("\n")
    case "latex": {
      const latex = { standalone: options.latex?.standalone === true, ...(options.latex?.engine !== undefined ? { engine: options.latex.engine } : {}) }
      return latex.standalone ? Latex.renderDocument(tables, latex) : tables.map((t) => Latex.render(t, latex)).join("\n")
    }
    case "html":
      return Html.renderPage(tables)
    case "json":
      return Json.renderReport(edition, tables, { extras: true, ...(options.signature !== undefined ? { signature: options.signature } : {}) })
  }
}
