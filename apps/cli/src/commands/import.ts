/**
 * `stseval import mteb <file or folder> --out <submissions folder>`: MTEB's per-pair predictions
 * (`<task>_predictions.json`) as runs, one per model, for every edition they cover
 * (`Mteb.read`, `Mteb.toRuns`, `Mteb.write`). Each edition's gold, when the data store (or --gold)
 * has it, checks that MTEB's split is our gold row for row and gives SemRel's pair IDs.
 */
import * as nodePath from "node:path"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Files, Gold, Issue, Mteb, Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { Engine } from "@stseval/scoring"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as TextView from "../internal/TextView.js"
import * as Task from "../internal/Task.js"
import * as Colour from "../internal/Colour.js"

const source = Argument.String("predictions").pipe(
  Argument.withDescription("An MTEB <task>_predictions.json file, or a folder searched (three levels deep) for such files")
)
const out = Flag.String("out").pipe(
  Flag.withDescription("Submissions folder to write the runs into (one folder per model, with run.json); with several editions, one sub-folder per edition"),
)
const task = Flags.task.pipe(
  Flag.withDescription("Import the runs of this edition only, written straight into --out (default: every edition the predictions cover)"),
  Flag.optional
)
const scores = Flag.Literals("scores", ["cosine", "similarity", "manhattan", "euclidean"]).pipe(
  Flag.withDescription("Which of MTEB's scores becomes the run: cosine (default; MTEB's main STS score), the model's own similarity, or the negated distances"),
  Flag.withDefault("cosine" as const)
)

const four = (x: number | undefined) => (x === undefined ? "-" : x.toFixed(4))

/**
 * One dataset's figures as the import knows them: MTEB's main score (cosine Spearman, from its
 * results file) beside the edition's official figure, which for STS-B and STS 2017 is Pearson, not
 * MTEB's Spearman; and whether the order was checked.
 */
const figuresLine = (edition: Registry.TaskEdition, f: Mteb.ImportedFigures): string => {
  const official = Metrics.get(f.official.metric)?.label ?? f.official.metric
  const mtebPart = f.mteb !== undefined ? `MTEB's ${f.mteb.field} ${f.mteb.value} (${f.mteb.file})` : "MTEB's main score (cosine Spearman): no results file beside the predictions"
  const ours = f.spearman !== undefined ? `; against our gold: Spearman ${four(f.spearman)}` : ""
  const officialPart = `${edition.id}'s official figure is ${official}${f.official.value !== undefined ? ` ${four(f.official.value)}` : " (not computed: no gold)"}`
  return `${f.dataset}: ${mtebPart}${ours}; ${officialPart}; order ${f.orderChecked ? "checked (MTEB's figure reproduced)" : "not checked"}`
}

const mteb = Command.make(
  "mteb",
  { source, out, task, scores, gold: Flags.gold, dataRoot: Flags.dataRoot, verbose: Flags.verbose },
  Effect.fn(function* (o) {
    const c = yield* Colour.Colour
    const read = yield* Mteb.read(o.source).pipe(Effect.mapError((e) => new UsageError({ message: `${o.source}: ${e.message}` })))
    const issues: Array<Issue.Issue> = [...read.issues]
    const editions: ReadonlyArray<Registry.TaskEdition> = Option.isSome(o.task)
      ? [yield* Task.edition(o.task.value)]
      : Mteb.editionsCovered(read.value).map((id) => Registry.get(id)!)
    if (editions.length === 0 && read.value.length > 0) {
      issues.push(
        Issue.error("unknown-file", o.source, `the predictions cover no edition stseval can import (tasks found: ${[...new Set(read.value.map((f) => f.task))].join(", ")})`, {
          expected: Mteb.mappings.map((m) => m.task).filter((t, i, all) => all.indexOf(t) === i).join(", ")
        })
      )
    }
    const written: Array<string> = []
    for (const edition of editions) {
      // the gold is optional except for SemRel (pair IDs); without it only pair counts are checked
      const goldPath = yield* Engine.goldPath({ edition, gold: Option.getOrUndefined(o.gold), dataRoot: Option.getOrUndefined(o.dataRoot) }).pipe(Effect.option)
      const gold = Option.isSome(goldPath) ? yield* Gold.loadGold(edition, goldPath.value) : undefined
      const runs = Mteb.toRuns(edition, read.value, { scores: o.scores, ...(gold !== undefined ? { gold } : {}) })
      issues.push(...runs.issues)
      const folder = Option.isSome(o.task) || editions.length === 1 ? o.out : nodePath.join(o.out, edition.id)
      const paths = yield* Mteb.write(folder, runs.value).pipe(Effect.mapError((e) => new UsageError({ message: e._tag === "RunExists" ? e.message : `${folder}: ${Files.describe(e)}` })))
      written.push(...paths)
      for (const r of runs.value) {
        yield* Console.log(`${edition.id}: ${nodePath.join(folder, r.name)} (${r.model}: ${r.datasets.join(", ")})`)
        for (const f of r.figures) yield* Console.log(`  ${figuresLine(edition, f)}`)
      }
    }
    const lines = TextView.issues(issues, c, { verbose: o.verbose, indent: "" })
    if (lines.length > 0) yield* Console.error(lines.join("\n"))
    if (written.length === 0 || Issue.hasErrors(issues)) {
      return yield* new ExitCode({ code: 1, reason: written.length === 0 ? "nothing was imported" : "some predictions were not imported" })
    }
  })
).pipe(
  Command.withDescription(
    "Import MTEB predictions (<task>_predictions.json: STSBenchmark, STS17, SemRel24STS) as runs in a submissions folder, one per model, checked against the gold. Exit 1 when something could not be imported."
  )
)

export const importCommand = Command.make("import").pipe(
  Command.withDescription("Import other tools' predictions as runs (mteb)."),
  Command.withSubcommands([mteb])
)
