import { Console, Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { Issue } from "@stseval/formats"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Render from "../internal/Render.js"
import * as Style from "../internal/Style.js"
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
    const c = yield* Style.Colour
    const width = yield* Style.Width
    const edition = yield* Task.edition(task)
    // validation is scoring's first half: the engine validates each run once and keeps what it found
    const scored = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: paths, lenient })
    const { issues } = scored
    const checked = scored.runs
    const results = ValidationJson.document(scored)
    const { valid } = results
    const nothing = Task.nothingToScore(scored, paths)
    if (json) {
      yield* Console.log(JSON.stringify(results, null, 2))
    } else {
      yield* Console.log(`${Render.header(scored, c)}\n`)
      const goldLines = Render.issues(scored.gold.issues, c, { verbose, indent: "" })
      if (goldLines.length > 0) yield* Console.log(`${goldLines.join("\n")}\n`)
      for (const v of checked) yield* Console.log(`${Render.validation(v, c, { verbose, width })}\n`)
      const folderLines = Render.issues(issues, c, { verbose, indent: "" })
      if (folderLines.length > 0) yield* Console.log(`${folderLines.join("\n")}\n`)
      const bad = results.runs.filter((r) => r.status !== "valid").length
      yield* Console.log(
        nothing !== undefined
          ? c.red(nothing)
          : valid
            ? c.green(`${checked.length} run(s): all valid`)
            : c.red(`${checked.length} run(s): ${bad} with errors${Issue.hasErrors(scored.gold.issues) ? "; the gold has errors" : ""}`)
      )
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
export const decimalsOf = (style: Render.Decimals["style"], flag: Option.Option<number>): Render.Decimals => ({
  style,
  decimals: Option.getOrUndefined(flag)
})
