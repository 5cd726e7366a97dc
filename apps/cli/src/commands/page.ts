/**
 * `stseval page check`: the check page, one self-contained HTML file a participant opens in a
 * browser to check runs before submitting (`src/page`).
 */
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { Files } from "@stseval/formats"
import { UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import * as Page from "../page/Page.js"

const check = Command.make(
  "check",
  {
    task: Flags.task,
    gold: Flag.String("gold").pipe(
      Flag.withDescription("The public development gold (file or folder) to embed: the page then shows the figures, as `score --ci 95`; without it, the checks only"),
      Flag.optional
    ),
    out: Flag.String("out").pipe(Flag.withDescription("The HTML file to write (e.g. check.html)")),
    timeBudget: Flags.budget.timeBudget
  },
  Effect.fn(function*({ task, gold, out, timeBudget }) {
    const c = yield* Colour.Colour
    const edition = yield* Task.edition(task)
    // the page's budget per run: the scorer's (`--time-budget` as `score` takes it)
    const timeMs = Flags.isolationOf({ timeBudget, memoryBudget: Option.none() }).budget.timeMs
    const html = yield* Page.check(edition, Option.getOrUndefined(gold), timeMs).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))
    yield* Files.writeAtomic(out, html).pipe(Effect.mapError((e) => new UsageError({ message: `--out: ${Files.describe(e)}` })))
    yield* Console.log(`${c.bold("page")}: ${out} (${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB; open it in a browser and drop runs on it: nothing leaves the browser)`)
  })
).pipe(
  Command.withDescription(
    "Write the check page: one HTML file (everything inline, works offline from file://) where a participant drops run files, a folder or a zip and sees what `validate` says and, with --gold, the figures as `score --ci 95` prints them, computed in the browser by the same code."
  ),
  Command.withExamples(({ commandPath }) => [
    {
      command: `${commandPath.join(" ")} --task sick2014 --gold examples/sick2014/SICK_test_annotated.txt --out /tmp/check.html`,
      description: "the SICK check page with the gold embedded"
    }
  ])
)

export const page = Command.make("page").pipe(
  Command.withDescription("Pages for participants: `page check` writes the page that checks a run in the browser, before submitting."),
  Command.withSubcommands([check])
)
