/**
 * `stseval report`: a submissions folder becomes the paper's results tables (Markdown, LaTeX,
 * a self-contained HTML page, or JSON), laid out as the task papers did (SICK Tables 6-7, STS 2014
 * Table 3, STS 2017 Table 10, STS Benchmark Table 14), with significance marks computed from the
 * runs' scores. Options come from a JSON/YAML config file (`--config`) and flags (flags win).
 */
import * as path from "node:path"
import { cpuBound } from "@stseval/app/signals"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Files } from "@stseval/formats"
import { Uncertainty } from "@stseval/scoring"
import type { Engine } from "@stseval/scoring"
import type { Config, Report } from "@stseval/tables"
// the ids alone, a few bytes: the layouts load only when a report is made
import * as PresetIds from "@stseval/tables/PresetIds"
import { UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as Task from "../internal/Task.js"

const format = Flag.Literals("format", ["md", "latex", "html", "json"] as const).pipe(
  Flag.withAlias("f"),
  Flags.defaulting("Output format: md (GitHub Markdown), latex (booktabs), html (one self-contained page with plots), json", "md")
)
const out = Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("Write to this file instead of standard output"), Flag.optional)
const config = Flag.String("config").pipe(
  Flag.withDescription("JSON or YAML file of report options (layout, columns, decimals, sortBy, runs, caption, test, alpha, ci...; see docs/report.md)"),
  Flag.optional
)
const layout = Flag.String("layout").pipe(
  Flag.withDescription(`Table layout: ${PresetIds.ids.join(", ")}, or generic:<subtask>; default: the edition's published tables (SICK: 7 and 6), else the generic table of each ranking`),
  Flag.optional
)
const primaryOnly = Flag.Boolean("primary-only").pipe(
  Flag.withDescription("Rank and show primary runs only (default: as the edition's published tables did)"),
  Flag.withDefault(false)
)
const allRuns = Flag.Boolean("all-runs").pipe(Flag.withDescription("Rank and show every run, not only primary runs"), Flag.withDefault(false))
const caption = Flag.String("caption").pipe(Flag.withDescription("Table caption"), Flag.optional)
const test = Flag.Literals("test", Lazy.testNames).pipe(
  Flag.withDescription(
    "Significance test for the bold marks where it applies (default: by the figure's metric: williams1959 for Pearson on one dataset, as STS 2017; the paired bootstrap otherwise, stratified by dataset for an official figure over several)"
  ),
  Flag.optional
)
const alpha = Flags.alpha.pipe(Flag.withDescription("Significance level of the bold marks, strictly between 0 and 1 (default 0.05)"), Flag.optional)
const standalone = Flag.Boolean("standalone").pipe(
  Flag.withDescription("LaTeX: wrap the table in a document that compiles alone with pdflatex"),
  Flag.withDefault(false)
)
const dev = Flag.String("dev").pipe(
  Flag.withDescription("STS Benchmark: a second submissions folder scored on the dev set (edition stsb-dev), for Table 14's Dev column"),
  Flag.optional
)
const devGold = Flag.String("dev-gold").pipe(Flag.withDescription("Gold of --dev (default: the data store's)"), Flag.optional)

/**
 * The intervals' settings: the config file's `ci`, with `--ci`, `--resamples` and `--seed` winning;
 * nothing when neither asks for intervals.
 */
const ciOptions = (
  config: Config.CiConfig | undefined,
  flags: { readonly ci: Option.Option<number>; readonly resamples: Option.Option<number>; readonly seed: Option.Option<number> }
): { readonly ci?: Config.CiConfig } => {
  const level = Option.getOrUndefined(flags.ci) ?? config?.level
  if (level === undefined) return {}
  const resamples = Option.getOrUndefined(flags.resamples) ?? config?.resamples
  const seed = Option.getOrUndefined(flags.seed) ?? config?.seed
  return { ci: { level, ...(resamples !== undefined ? { resamples } : {}), ...(seed !== undefined ? { seed } : {}) } }
}

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
    ...Flags.intervals,
    ...Flags.budget,
    folder: Argument.String("submissions").pipe(Argument.withDescription("The submissions folder: one file, folder or zip per run"))
  },
  Effect.fn(function*(flags) {
    const edition = yield* Task.edition(flags.task)
    const { Config, Report, Table } = yield* Lazy.tables

    let cfg: Config.Config = {}
    if (Option.isSome(flags.config)) {
      const file = flags.config.value
      // formats' reader: a regular file only (a FIFO would hang, /dev/zero never end), capped
      const text = yield* Files.readText(file, { what: "the report config", maxBytes: 1024 * 1024 }).pipe(
        Effect.mapError((e) => new UsageError({ message: `--config: ${e.message}` }))
      )
      const parsed = Config.parse(text, file)
      if (parsed._tag === "Error") return yield* new UsageError({ message: parsed.errors.join("\n") })
      cfg = parsed.config
    }
    const options: Report.Options = {
      ...cfg,
      ...(flags.allRuns ? { runs: "all" as const } : flags.primaryOnly ? { runs: "primary" as const } : {}),
      ...(Option.isSome(flags.caption) ? { caption: flags.caption.value } : {}),
      ...(Option.isSome(flags.test) ? { test: flags.test.value } : {}),
      ...(Option.isSome(flags.alpha) ? { alpha: flags.alpha.value } : {}),
      ...(Option.isSome(flags.layout) ? { layout: [flags.layout.value] } : {}),
      ...(flags.standalone ? { latex: { ...cfg.latex, standalone: true } } : {}),
      ...ciOptions(cfg.ci, flags),
      format: flags.format
    }
    // the runs are ranked once, as the tables list them (primary runs only or every run): the
    // tables take their order, ranks and marks from that ranking, as `rank` gives it
    const primaryOnly = Report.primaryOnly(edition, options)
    const budget = { timeBudget: flags.timeBudget, memoryBudget: flags.memoryBudget }
    const results = yield* Task.score(edition, { gold: flags.gold, dataRoot: flags.dataRoot, ...budget }, { folder: flags.folder, primaryOnly, figuresRead: "all" })
    let dev: Engine.Results | undefined
    if (Option.isSome(flags.dev)) {
      // the registry names the edition of the dev split (STS Benchmark: stsb-dev)
      const devId = edition.published.dev
      if (devId === undefined) return yield* new UsageError({ message: `--dev: ${edition.id} has no development split in the registry` })
      dev = yield* Task.score(yield* Task.edition(devId), { gold: flags.devGold, dataRoot: flags.dataRoot, ...budget }, { folder: flags.dev.value, primaryOnly, figuresRead: "all" })
    }
    if (options.ci !== undefined) {
      const tooMany = Task.checkResamples("--resamples", options.ci.resamples ?? Uncertainty.defaults.resamples, Uncertainty.figuresOf(results) + (dev !== undefined ? Uncertainty.figuresOf(dev) : 0))
      if (tooMany !== undefined) return yield* tooMany
    }
    // the marks' tests and intervals, computed on this thread: Ctrl-C and SIGTERM end them at once (@stseval/app/signals)
    const tables = yield* cpuBound(() => Report.tables(results, { ...options, dev }), (e) => e).pipe(
      // an option naming what there is not is the user's (exit 2); anything else is a defect
      Effect.catch((e) => (e instanceof Report.OptionError ? Effect.fail(new UsageError({ message: e.message })) : Effect.die(e)))
    )
    // LaTeX written to a file cites the task's paper from a .bib beside it, of the same name
    const bib = flags.format === "latex" && Option.isSome(flags.out) ? Table.bibliography(tables) : ""
    const bibFile = Option.isSome(flags.out) ? flags.out.value.replace(/(\.tex)?$/i, ".bib") : ""
    const text = Report.render(edition.id, tables, flags.format, {
      ...options,
      signature: results.signature.text,
      ...(bib !== "" ? { bibliography: path.basename(bibFile, ".bib") } : {})
    })
    if (Option.isSome(flags.out)) {
      yield* Files.writeAtomic(flags.out.value, text).pipe(Effect.mapError((e) => new UsageError({ message: `--out: ${Files.describe(e)}` })))
      yield* Console.error(`wrote ${flags.out.value} (${tables.map((t) => t.id).join(", ")}; ${new Set([...results.runs, ...(dev?.runs ?? [])].map((r) => r.meta.id)).size} runs)`)
      if (bib !== "") {
        yield* Files.writeAtomic(bibFile, bib).pipe(Effect.mapError((e) => new UsageError({ message: `--out: ${Files.describe(e)}` })))
        yield* Console.error(`wrote ${bibFile} (the task's paper, cited by the tables)`)
      }
    } else {
      yield* Console.log(text.trimEnd())
    }
  })
).pipe(
  Command.withDescription(
    "Lay out a submissions folder as the task paper's results tables (Markdown, LaTeX, self-contained HTML with plots, or JSON), with best-run bullets and bold for runs not significantly different from the best."
  )
)
