import { Console, Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import type * as TextView from "../internal/TextView.js"
import * as RunText from "../internal/RunText.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import * as ValidationJson from "../internal/ValidationJson.js"

export const paths = Argument.String("run").pipe(
  Argument.withDescription("Runs (a file, a folder of dataset files, a zip) or submissions folders of runs"),
  Argument.atLeast(1)
)

export const validate = Command.make(
  "validate",
  { task: Flags.task, gold: Flags.gold, dataRoot: Flags.dataRoot, json: Flags.json, verbose: Flags.verbose, lenient: Flags.lenient, ...Flags.budget, paths },
  Effect.fn(function*({ task, gold, dataRoot, json, verbose, lenient, timeBudget, memoryBudget, paths }) {
    const c = yield* Colour.Colour
    const width = yield* Colour.Width
    const edition = yield* Task.edition(task)
    // validation is scoring's first half: the engine validates each run once and keeps what it found
    const scored = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: paths, lenient })
    const results = ValidationJson.document(scored)
    const { valid } = results
    const nothing = Task.nothingToScore(scored, paths)
    if (json) {
      yield* Console.log(JSON.stringify(results, null, 2))
    } else {
      for (const text of RunText.validation(scored, c, { verbose, width }, nothing)) yield* Console.log(text)
    }
    if (nothing !== undefined) {
      if (json) yield* Console.error(nothing)
      return yield* new ExitCode({ code: 1, reason: nothing })
    }
    if (!valid) return yield* new ExitCode({ code: 1, reason: "some run has an error" })
  })
).pipe(
  Command.withDescription(
    "Check runs against a task edition and its gold: per run, what will and will not be scored, and why. Exit 0 when all is valid, 1 when any run has an error, 2 on a usage error."
  )
)

/** For commands that take an optional --decimals. */
export const decimalsOf = (style: TextView.Decimals["style"], flag: Option.Option<number>): TextView.Decimals => ({
  style,
  decimals: Option.getOrUndefined(flag)
})
