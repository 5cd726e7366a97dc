/**
 * The `stseval` command: one executable whose subcommands are thin layers over the packages.
 */
import { Effect } from "effect"
import { Command } from "effect/cli"
import { commands } from "./commands/index.js"
import { version } from "./Version.js"

export const stseval = Command.make("stseval").pipe(
  Command.withDescription(
    "Score, compare and rank systems in semantic-similarity shared tasks (SemEval-2014 SICK, STS 2012-2017, STS Benchmark)."
  ),
  Command.withSubcommands(commands)
)

/** Run the command line on explicit arguments (what `bin.ts` and the tests call). */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(stseval, { version })(argv).pipe(Effect.withSpan("stseval"))
