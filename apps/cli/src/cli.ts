/**
 * The command line as `bin.ts` runs it: the program on this process's arguments, its output
 * through the sanitised console, stopped by Ctrl-C or SIGTERM with 130 or 143 (`@stseval/app/signals`).
 */
import { runMain } from "@stseval/app/signals"
import { services } from "./internal/Services.js"
import { StdoutIsTTY, TerminalColumns } from "./internal/Colour.js"
import { Console, Effect, Logger } from "effect"
import { teardown } from "./internal/Exit.js"
import { run, sanitizedConsole } from "./Main.js"

// `stseval ... | head` closes the pipe early: the reader has what it wanted, so stop quietly
// instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0)
    throw error
  })
}

run(process.argv.slice(2)).pipe(
  Effect.provide(services),
  // log lines (the watcher's progress) are notes for people: stderr, so stdout stays the output
  Effect.provideService(Logger.LogToStderr, true),
  Effect.provideService(Console.Console, sanitizedConsole()),
  // colour only on a terminal (and never with NO_COLOR): decided per run from this and the environment
  Effect.provideService(StdoutIsTTY, process.stdout.isTTY === true),
  // text tables fit the terminal's width (COLUMNS overrides it; a pipe has no limit)
  Effect.provideService(TerminalColumns, process.stdout.isTTY === true ? process.stdout.columns : undefined),
  runMain({ teardown, disableErrorReporting: false })
)
