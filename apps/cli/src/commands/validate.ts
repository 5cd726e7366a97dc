import { Console, Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { Issue } from "@stseval/formats"
import { Engine, Validation } from "@stseval/scoring"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Inputs from "../internal/Inputs.js"
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
  { task: Flags.task, gold: Flags.gold, dataRoot: Flags.dataRoot, json: Flags.json, verbose: Flags.verbose, paths },
  Effect.fn(function*({ task, gold, dataRoot, json, verbose, paths }) {
    const edition = yield* Task.edition(task)
    const goldPath = yield* Task.goldPath(edition, gold, dataRoot)
    const context = yield* Engine.loadContext({ task: edition, gold: goldPath })
    const { runs, issues } = yield* Inputs.submissions(edition, paths)
    const checked = runs.map((s) => Validation.validateRun(edition, context.gold, s))
    const results: ValidationJson.ValidationResults = {
      format: ValidationJson.FORMAT,
      edition: edition.id,
      gold: { path: goldPath, issues: [...context.gold.issues] },
      issues,
      runs: checked.map(ValidationJson.runToJson),
      valid: false
    }
    const valid = !Issue.hasErrors(context.gold.issues) && !Issue.hasErrors(issues) && results.runs.every((r) => r.status === "valid")
    if (json) {
      yield* Console.log(JSON.stringify({ ...results, valid }, null, 2))
    } else {
      yield* Console.log(`${Style.bold(edition.id)}  ${edition.title}\ngold: ${goldPath}\n`)
      const goldLines = Render.issues(context.gold.issues, { verbose, indent: "" })
      if (goldLines.length > 0) yield* Console.log(`${goldLines.join("\n")}\n`)
      for (const v of checked) yield* Console.log(`${Render.validation(v, { verbose })}\n`)
      const folderLines = Render.issues(issues, { verbose, indent: "" })
      if (folderLines.length > 0) yield* Console.log(`${folderLines.join("\n")}\n`)
      const bad = results.runs.filter((r) => r.status !== "valid").length
      yield* Console.log(
        valid
          ? Style.green(`${checked.length} run(s): all valid`)
          : Style.red(`${checked.length} run(s): ${bad} with errors${Issue.hasErrors(context.gold.issues) ? "; the gold has errors" : ""}`)
      )
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
