/**
 * `stseval-report <config>`: the report generator. From a report config (inputs, output folder and
 * `@stseval/tables` options, `ReportConfig.ts`) to a folder of the paper's tables, one file per table in
 * each of LaTeX, Markdown and HTML, plus `index.html`. A thin layer: `Engine.score` scores the
 * submissions folder, `Report.tables` lays the tables out, `Folder.files` renders the folder.
 *
 * Exit codes: 0 written; 1 written, but some run could not be scored (each is named on stderr and
 * shows as failed in the tables); 2 a usage problem (config, task, gold, folder), nothing written.
 */
import { ExitCode, reportDefects, UsageError } from "@stseval/app/exit"
import { appVersion } from "@stseval/app/version"
import { Files } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import { Folder, Report } from "@stseval/tables"
import { Console, Effect, FileSystem, Option, Path } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as ReportConfig from "./ReportConfig.js"

/** The version `--version` prints. */
export const version = appVersion(import.meta.url)

/** What one generation wrote. */
export interface Written {
  readonly out: string
  readonly files: ReadonlyArray<string>
  readonly tables: ReadonlyArray<string>
  readonly runs: number
  readonly failed: ReadonlyArray<string>
}

const usage = (e: { readonly message: string }) => new UsageError({ message: e.message })

/** Read the config, score, lay out and write the folder. */
export const generate = (configFile: string, overrides: { readonly out?: string | undefined } = {}) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const text = yield* fs.readFileString(configFile).pipe(Effect.mapError((e) => new UsageError({ message: `cannot read the config ${configFile}: ${e.message}` })))
    const parsed = ReportConfig.parse(text, configFile)
    if (parsed._tag === "Error") return yield* new UsageError({ message: parsed.errors.join("\n") })
    const config = parsed.config
    const out = overrides.out !== undefined ? path.resolve(overrides.out) : config.out
    const results = yield* Engine.score({ task: config.task, gold: config.gold, dataRoot: config.dataRoot, folder: config.submissions }).pipe(Effect.mapError(usage))
    let dev: Engine.Results | undefined
    if (config.dev !== undefined) {
      // the registry names the edition of the dev split (STS Benchmark: stsb-dev)
      const devId = results.edition.published.dev
      if (devId === undefined) return yield* new UsageError({ message: `${config.file}: dev: ${results.edition.id} has no development split in the registry` })
      dev = yield* Engine.score({ task: devId, gold: config.devGold, dataRoot: config.dataRoot, folder: config.dev }).pipe(Effect.mapError(usage))
    }
    // laid out once with the HTML extras (plots, p-value matrices); Markdown and LaTeX leave them out
    const tables = yield* Effect.try({ try: () => Report.tables(results, { ...config.report, dev, format: "html" }), catch: (e) => e }).pipe(
      // an option naming what there is not is the config's (exit 2); anything else is a defect
      Effect.catch((e) => (e instanceof Report.OptionError ? Effect.fail(new UsageError({ message: `${config.file}: ${e.message}` })) : Effect.die(e)))
    )
    const files = Folder.files(results.edition.id, tables, {
      formats: config.formats,
      latex: config.report.latex,
      title: results.edition.title,
      signature: [results, ...(dev !== undefined ? [dev] : [])].map((r) => r.signature.text).join(" and ")
    })
    yield* fs.makeDirectory(out, { recursive: true }).pipe(Effect.mapError((e) => new UsageError({ message: `cannot create ${out}: ${e.message}` })))
    for (const file of files) {
      // each file whole or not at all (formats' Files.writeAtomic: a temp file renamed over the old one)
      const target = path.join(out, file.name)
      yield* Files.writeAtomic(target, file.text).pipe(Effect.mapError((e) => new UsageError({ message: `cannot write ${target}: ${Files.describe(e)}` })))
    }
    const runs = [...results.runs, ...(dev?.runs ?? [])]
    return {
      out,
      files: files.map((f) => f.name),
      tables: tables.map((t) => t.id),
      runs: new Set(runs.map((r) => r.meta.id)).size,
      failed: runs.filter((r) => r.status === "failed").map((r) => `${r.meta.id} (${r.path}): ${r.failure ?? "not scored"}`)
    } satisfies Written
  })

/** The command line: `stseval-report <config> [--out <folder>]`. */
export const command = Command.make(
  "stseval-report",
  {
    config: Argument.String("config").pipe(Argument.withDescription("The report config (JSON or YAML): task, submissions, gold, out, formats, and the report options of docs/report.md")),
    out: Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("The output folder (default: the config's out, else report/ beside the config)"), Flag.optional)
  },
  Effect.fn(function*({ config, out }) {
    const written = yield* generate(config, { out: Option.getOrUndefined(out) })
    yield* Console.log(`wrote ${written.out}: ${written.tables.length} table(s) (${written.tables.join(", ")}) as ${written.files.length - 1} file(s) and index.html; ${written.runs} run(s)`)
    if (written.failed.length > 0) {
      for (const f of written.failed) yield* Console.error(`not scored: ${f}`)
      return yield* new ExitCode({ code: 1, reason: `${written.failed.length} run(s) not scored` })
    }
  })
).pipe(Command.withDescription("Write the task paper's results tables (LaTeX, Markdown, HTML; one file per table, plus index.html) from a report config."))

/** Run on explicit arguments. A usage problem is one line on stderr and exit 2, nothing written. */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(command, { version })(argv).pipe(
    Effect.catchTag("UsageError", (e) => Console.error(`error: ${e.message}`).pipe(Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: e.message }))))),
    // a crash: one line on stderr and exit 70, never a stack trace (nor anything on stdout)
    reportDefects("stseval-report")
  )
