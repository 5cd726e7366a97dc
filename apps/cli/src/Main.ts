/**
 * The `stseval` command: one executable whose subcommands are thin layers over the packages.
 */
import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { commands } from "./commands/index.js"
import { ExitCode } from "./internal/Exit.js"
import * as Style from "./internal/Style.js"
import { version } from "./Version.js"

export const stseval = Command.make("stseval").pipe(
  Command.withDescription(
    "Score, compare and rank systems in semantic-similarity shared tasks (SemEval-2014 SICK, STS 2012-2017, STS Benchmark)."
  ),
  Command.withSubcommands(commands)
)

/** Run the command line on explicit arguments (what `bin.ts` and the tests call). */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(stseval, { version })(argv).pipe(
    // A usage problem found by a command (unknown edition, missing gold) is one line on stderr and
    // exit 2, like effect/cli's own parse errors; no stack trace for a user's mistake.
    Effect.catchTag("UsageError", (e) =>
      Console.error(`${Style.red("error:")} ${e.message}`).pipe(
        Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: e.message })))
      )
    ),
    Effect.withSpan("stseval")
  )
