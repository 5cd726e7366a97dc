/**
 * `stseval report`: a submissions folder becomes the paper's results tables (Markdown, LaTeX,
 * a self-contained HTML page, or JSON), laid out as the task papers did (SICK Tables 6-7, STS 2014
 * Table 3, STS 2017 Table 10, STS Benchmark Table 14), with significance marks computed from the
 * runs' scores. Options come from a JSON/YAML config file (`--config`) and flags (flags win).
 */
import { Console, Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Registry } from "@stseval/formats"
import type { Config, Layouts, Results, Table } from "@stseval/report"
import { UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as Task from "../internal/Task.js"

const format = Flag.Literals("format", ["md", "latex", "html", "json"]).pipe(
  Flag.withAlias("f"),
  Flag.withDescription("Output format: md (GitHub Markdown), latex (booktabs), html (one self-contained page with plots), json"),
  Flag.withDefault("md" as const)
)
const out = Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("Write to this file instead of standard output"), Flag.optional)
const config = Flag.String("config").pipe(
  Flag.withDescription("JSON or YAML file of report options (layout, columns, decimals, sortBy, runs, caption, test, alpha...; see docs/report.md)"),
  Flag.optional
)
const layout = Flag.String("layout").pipe(
  Flag.withDescription(`Table layout: ${Lazy.layoutNames.join(", ")}; default: the edition's (SICK: tables 7 and 6)`),
  Flag.optional
)
const primaryOnly = Flag.Boolean("primary-only").pipe(Flag.withDescription("Show primary runs only (the layout's default otherwise)"), Flag.withDefault(false))
const allRuns = Flag.Boolean("all-runs").pipe(Flag.withDescription("Show every run, not only primary runs"), Flag.withDefault(false))
const caption = Flag.String("caption").pipe(Flag.withDescription("Table caption"), Flag.optional)
const test = Flag.Literals("test", Lazy.testNames).pipe(
  Flag.withDescription("Significance test for the bold marks (default williams1959, as STS 2017)"),
  Flag.optional
)
const alpha = Flag.Finite("alpha").pipe(Flag.withDescription("Significance level of the bold marks (default 0.05)"), Flag.optional)
const standalone = Flag.Boolean("standalone").pipe(
  Flag.withDescription("LaTeX: wrap the table in a document that compiles alone with pdflatex"),
  Flag.withDefault(false)
)
const dev = Flag.String("dev").pipe(
  Flag.withDescription("STS Benchmark: a second submissions folder scored on the dev set (edition stsb-dev), for Table 14's Dev column"),
  Flag.optional
)
const devGold = Flag.String("dev-gold").pipe(Flag.withDescription("Gold of --dev (default: the data store's)"), Flag.optional)

/** Every run of a folder scored by the engine, as the layouts' results. */
const scoreFolder = Effect.fnUntraced(function*(edition: Registry.TaskEdition, gold: Option.Option<string>, dataRoot: Option.Option<string>, folder: string) {
  const { FromScoring } = yield* Lazy.report
  const results = yield* Task.score(edition, { gold, dataRoot }, { folder })
  return FromScoring.fromScoredRuns(results.runs, { edition: results.edition })
})

export const report = Command.make(
  "report",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    format,
    out,
    config,
    layout,
    primaryOnly,
    allRuns,
    caption,
    test,
    alpha,
    standalone,
    dev,
    devGold,
    folder: Argument.String("submissions").pipe(Argument.withDescription("The submissions folder: one file, folder or zip per run"))
  },
  Effect.fn(function*(flags) {
    const fs = yield* FileSystem.FileSystem
    const edition = yield* Task.edition(flags.task)
    const { Config, FromScoring, Html, Json, Latex, Layouts, Markdown } = yield* Lazy.report

    let cfg: Config.Config = {}
    if (Option.isSome(flags.config)) {
      const file = flags.config.value
      const text = yield* fs.readFileString(file).pipe(Effect.mapError((e) => new UsageError({ message: `--config: ${e.message}` })))
      const parsed = Config.parse(text, file)
      if (parsed._tag === "Error") return yield* new UsageError({ message: parsed.errors.join("\n") })
      cfg = parsed.config
    }
    const options: Layouts.Options = {
      ...cfg,
      ...(flags.allRuns ? { runs: "all" as const } : flags.primaryOnly ? { runs: "primary" as const } : {}),
      ...(Option.isSome(flags.caption) ? { caption: flags.caption.value } : {}),
      ...(Option.isSome(flags.test) ? { test: flags.test.value } : {}),
      ...(Option.isSome(flags.alpha) ? { alpha: flags.alpha.value } : {}),
      // the p-value matrix and plots are only drawn in HTML (and kept in JSON)
      ...(flags.format === "md" || flags.format === "latex" ? { matrix: false, scatterRuns: 0 } : {})
    }

    let results: Results.Results = yield* scoreFolder(edition, flags.gold, flags.dataRoot, flags.folder)
    if (Option.isSome(flags.dev)) {
      const devEdition = yield* Task.edition(`${edition.id}-dev`)
      results = FromScoring.merge(yield* scoreFolder(devEdition, flags.devGold, flags.dataRoot, flags.dev.value), results)
    }

    const ids = Option.isSome(flags.layout) ? [flags.layout.value] : (cfg.layout ?? Layouts.defaultsFor(edition.id))
    const tables: Array<Table.Table> = []
    for (const id of ids) {
      tables.push(yield* Effect.try({ try: () => Layouts.preset(id, results, options), catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) }) }))
    }
    const latex = { standalone: flags.standalone || cfg.latex?.standalone === true, ...(cfg.latex?.engine !== undefined ? { engine: cfg.latex.engine } : {}) }
    const text =
      flags.format === "md"
        ? tables.map((t) => Markdown.render(t)).join("\n")
        : flags.format === "latex"
          ? latex.standalone
            ? Latex.renderDocument(tables, latex)
            : tables.map((t) => Latex.render(t, latex)).join("\n")
          : flags.format === "html"
            ? Html.renderPage(tables)
            : Json.renderReport(edition.id, tables, { extras: true })
    if (Option.isSome(flags.out)) {
      yield* fs.writeFileString(flags.out.value, text).pipe(Effect.mapError((e) => new UsageError({ message: `--out: ${e.message}` })))
      yield* Console.error(`wrote ${flags.out.value} (${tables.map((t) => t.id).join(", ")}; ${results.runs.length} runs)`)
    } else {
      yield* Console.log(text.trimEnd())
    }
  })
).pipe(
  Command.withDescription(
    "Lay out a submissions folder as the task paper's results tables (Markdown, LaTeX, self-contained HTML with plots, or JSON), with best-run bullets and bold for runs not significantly different from the best."
  )
)
