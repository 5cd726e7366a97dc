import { Console, Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Issue } from "@stseval/formats"
import { cpuBound } from "@stseval/app/signals"
import type { Engine } from "@stseval/scoring"
import { ResultJson } from "@stseval/scoring"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as JsonPieces from "../internal/JsonPieces.js"
import * as Lazy from "../internal/Lazy.js"
import * as TextView from "../internal/TextView.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import { decimalsOf } from "./validate.js"

/** The marks of every figure (`Marks.compute`, report's rule), as JSON; a long computation, stopped at once by Ctrl-C. */
const markedOf = (session: Engine.Results) =>
  Effect.gen(function*() {
    const Marks = yield* Lazy.marks
    yield* Task.releaseScorers
    return yield* cpuBound(() => Marks.compute(session).figures.map(Marks.toJson))
  })

export const rank = Command.make(
  "rank",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    json: Flags.json,
    verbose: Flags.verbose,
    decimals: Flags.decimals,
    allRuns: Flags.allRuns,
    ...Flags.intervals,
    lenient: Flags.lenient,
    ...Flags.budget,
    marks: Flag.Boolean("marks").pipe(
      Flag.withDescription(
        "Mark the runs not significantly different from the best ranked run (a \"tied\" column; `marks` in --json): the bold of report and the leaderboard, by the same rule (each figure's test, Holm, 1,000 resamples with the bootstrap's p by the normal approximation; docs/significance.md)"
      ),
      Flag.withDefault(false)
    ),
    strict: Flag.Boolean("strict").pipe(
      Flag.withDescription("Exit 1 when any run has an error (default: 0 once the table is made; failed runs are listed, never ranked)"),
      Flag.withDefault(false)
    ),
    folder: Argument.String("submissions").pipe(Argument.withDescription("The submissions folder: one file, folder or zip per run"))
  },
  Effect.fn(function*({ task, gold, dataRoot, json, verbose, decimals, allRuns, ci, resamples, seed, marks, lenient, strict, timeBudget, memoryBudget, folder }) {
    const c = yield* Colour.Colour
    const width = yield* Colour.Width
    const edition = yield* Task.edition(task)
    // the JSON prints every figure of every run: computed as the runs are scored, not all at its end
    const session = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { folder, primaryOnly: !allRuns, lenient, figuresRead: json ? "all" : "ranked" })
    // the text table shows the official figures only: no Spearman pass for it
    const intervals = yield* Task.intervals(session, { ci, resamples, seed }, {}, json)
    const marked = marks ? yield* markedOf(session) : undefined
    if (json) {
      // in pieces of whole lines, each run's member made as it is written: 2,000 runs' document is
      // never one string, nor one object (JsonPieces.ts)
      const document = ResultJson.resultsToJson({ ...session, runs: [] }, intervals, marked)
      const runs = new JsonPieces.Lazy(session.runs.length, (i) => ResultJson.toJson(session.runs[i], intervals))
      for (const piece of JsonPieces.lines({ ...document, runs })) yield* Console.log(piece)
    } else {
      const d = decimalsOf(edition.published.style, decimals)
      yield* Console.log(`${TextView.header(session, c, { runs: true })}\n`)
      yield* Console.log(TextView.ranking(session.ranked, d, c, intervals, width, marked))
      const withIssues = session.runs.filter((r) => r.status === "failed" || r.errors.length > 0 || r.warnings.length > 0)
      if (withIssues.length > 0 || session.issues.length > 0 || session.gold.issues.length > 0) {
        yield* Console.log(`\n${c.bold("Issues")}`)
        for (const line of TextView.issues([...session.gold.issues, ...session.issues], c, { verbose, indent: "  " })) yield* Console.log(line)
        for (const run of withIssues) {
          yield* Console.log(`  ${run.meta.id}`)
          for (const line of TextView.failure(run, c, { rows: false, indent: "    " })) yield* Console.log(line)
          for (const line of TextView.issues([...run.errors, ...run.warnings], c, { verbose, indent: "    " })) yield* Console.log(line)
        }
      }
    }
    if (strict && (session.runs.some((r) => r.errors.length > 0) || Issue.hasErrors(session.issues))) {
      return yield* new ExitCode({ code: 1, reason: "some run has an error" })
    }
  })
).pipe(
  Command.withDescription(
    "Score every run of a submissions folder and rank them by the edition's official figure (primary runs only, as the papers did, unless --all-runs); --ci adds intervals on every figure and every rank. Exit 0 once the tables are made, failed runs listed with the reason and never ranked; 1 with --strict when any run has an error."
  )
)
