import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { Issue } from "@stseval/formats"
import { ResultJson } from "@stseval/scoring"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as RunText from "../internal/RunText.js"
import * as Task from "../internal/Task.js"
import * as Colour from "../internal/Colour.js"
import { decimalsOf, paths } from "./validate.js"

export const score = Command.make(
  "score",
  { task: Flags.task, gold: Flags.gold, dataRoot: Flags.dataRoot, json: Flags.json, verbose: Flags.verbose, decimals: Flags.decimals, lenient: Flags.lenient, ...Flags.intervals, ...Flags.budget, paths },
  Effect.fn(function*({ task, gold, dataRoot, json, verbose, decimals, lenient, ci, resamples, seed, timeBudget, memoryBudget, paths }) {
    const c = yield* Colour.Colour
    const width = yield* Colour.Width
    const edition = yield* Task.edition(task)
    const results = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: paths, lenient, figuresRead: "all" })
    const intervals = yield* Task.intervals(results, { ci, resamples, seed })
    const { runs } = results
    if (json) {
      yield* Console.log(JSON.stringify(ResultJson.resultsToJson({ ...results, ranked: undefined }, intervals), null, 2))
    } else {
      const d = decimalsOf(edition.published.style, decimals)
      for (const text of RunText.scores(results, edition, d, c, { verbose, width, intervals })) yield* Console.log(text)
    }
    const nothing = Task.nothingToScore(results, paths)
    if (nothing !== undefined) {
      yield* (json ? Console.error(nothing) : Console.log(c.red(nothing)))
      return yield* new ExitCode({ code: 1, reason: nothing })
    }
    if (runs.some((r) => r.errors.length > 0) || Issue.hasErrors(results.gold.issues)) {
      return yield* new ExitCode({ code: 1, reason: "some run has an error" })
    }
  })
).pipe(
  Command.withDescription(
    "Score runs exactly as the official scorer: per-dataset / per-subtask figures, labelled aggregates and the official figure (with --ci, each with its bootstrap interval). Exit 1 when any run has an error."
  )
)
