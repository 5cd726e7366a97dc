/**
 * The `stseval` command: one executable whose subcommands are thin layers over the packages.
 * `run` is the program `bin.ts` runs; `runInProcess` runs it inside the calling process with
 * its own output streams and environment (what the tests use: no process per test).
 */
import { services } from "./internal/Services.js"
import { format } from "node:util"
import { Cause, Console, Effect, Logger, Runtime } from "effect"
import { Command } from "effect/cli"
import { commands } from "./commands/index.js"
import { Environment } from "./internal/Environment.js"
import { ExitCode, exitCodeOf, reportDefects } from "./internal/Exit.js"
import * as Colour from "./internal/Colour.js"
import { sanitize } from "./internal/Terminal.js"
import { version } from "./Version.js"

export const stseval = Command.make("stseval").pipe(
  Command.withDescription(
    "Score, compare and rank systems in semantic-similarity shared tasks: SemEval-2014 SICK (relatedness and entailment), STS 2012-2017, the STS Benchmark (also GLUE's STS-B.tsv) and SemEval-2024 SemRel (tracks A, B, C); MTEB's predictions are imported as runs (import mteb)."
  ),
  Command.withSubcommands(commands)
)

/** Run the command line on explicit arguments (what `bin.ts` and the tests call). */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(stseval, { version })(argv).pipe(
    // A usage problem found by a command (unknown edition, missing gold) is one line on stderr and
    // exit 2, like effect/cli's own parse errors; no stack trace for a user's mistake.
    Effect.catchTag("UsageError", (e) =>
      Effect.flatMap(Colour.Colour, (c) => Console.error(`${c.red("error:")} ${e.message}`)).pipe(
        Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: e.message })))
      )
    ),
    // a crash: one line on stderr and exit 70, never a stack trace, nothing on stdout
    reportDefects("stseval"),
    // colour decided once for the run, from the Environment service and whether stdout is a terminal
    Colour.withColour,
    Effect.withSpan("stseval")
  )

/** Where an in-process run writes, and the environment it sees. */
export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** the environment variables the CLI reads (default: this process's) */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** the captured stdout is a terminal (colour then follows NO_COLOR, FORCE_COLOR and TERM as on one); default false, as for a pipe */
  readonly isTTY?: boolean | undefined
  /** the terminal's width in columns, when `isTTY` */
  readonly columns?: number | undefined
}

/** A line as captured: sanitized, styled only as the run's palette decided (`Colour.Colour`). */
const captured = (args: ReadonlyArray<unknown>) => `${sanitize(format(...args))}\n`

/** A `Console` writing to the given streams (log and info to stdout, the rest to stderr). */
const consoleOf = (io: Io): Console.Console => {
  const out = (...args: ReadonlyArray<unknown>) => io.stdout(captured(args))
  const err = (...args: ReadonlyArray<unknown>) => io.stderr(captured(args))
  return Object.assign(Object.create(globalThis.console) as Console.Console, { log: out, info: out, error: err, warn: err, debug: err, trace: err })
}

/**
 * The process's console with every line through `Terminal.sanitize` (what `bin.ts` installs): no
 * escape sequence from a run reaches the terminal.
 *
 * @since 0.2.0
 */
export const sanitizedConsole = (): Console.Console => {
  const write = (stream: NodeJS.WriteStream) => (...args: ReadonlyArray<unknown>) => {
    stream.write(`${sanitize(format(...args))}\n`)
  }
  const out = write(process.stdout)
  const err = write(process.stderr)
  return Object.assign(Object.create(globalThis.console) as Console.Console, { log: out, info: out, error: err, warn: err, debug: err, trace: err })
}

/**
 * Run the command line in this process: its output goes to `io`, log lines (the watcher's) to
 * `io.stderr`, and a failure is reported as `bin.ts` reports it. Resolves to the exit code.
 */
export const runInProcess = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const program = run(argv).pipe(
    // as the runtime's main does: an error not already printed by the command is logged
    Effect.tapCause((cause) => (Cause.hasInterruptsOnly(cause) || !Runtime.getErrorReported(Cause.squash(cause)) ? Effect.void : Effect.logError(cause))),
    Effect.provide(services),
    Effect.provideService(Logger.LogToStderr, true),
    Effect.provideService(Console.Console, consoleOf(io)),
    Effect.provideService(Environment, io.env ?? process.env),
    Effect.provideService(Colour.StdoutIsTTY, io.isTTY === true),
    Effect.provideService(Colour.TerminalColumns, io.columns)
  )
  return exitCodeOf(await Effect.runPromiseExit(program))
}
