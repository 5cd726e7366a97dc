/**
 * Exit codes of the stseval executables (`stseval`, `stseval-report`, `stseval-watcher`), one
 * rule for all: 0 everything valid, 1 some run (or input) has an error, 2 a usage error.
 *
 * @since 0.2.0
 */
import { Cause, Console, Data, Effect, Exit, Runtime } from "effect"

/** A command finished its work but must report failure through the exit code (its output is printed). */
export class ExitCode extends Data.TaggedError("ExitCode")<{ readonly code: number; readonly reason: string }> {
  override readonly [Runtime.errorExitCode] = this.code
  // The command already printed what went wrong; `false` tells the runtime not to log it again.
  override readonly [Runtime.errorReported] = false
}

/** A usage problem the command found itself (e.g. an unknown task edition): exit 2 with a message. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {
  override readonly [Runtime.errorExitCode] = 2
}

const USAGE_TAGS = new Set([
  "UnrecognizedOption",
  "DuplicateOption",
  "MissingOption",
  "MissingArgument",
  "UnexpectedArgument",
  "InvalidValue",
  "UnknownSubcommand",
  "ValidationError"
])

/** The exit code for a finished program: CLI parse errors are usage errors (2), as POSIX tools do. */
export const exitCodeOf = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  const cause = exit.cause
  if (Cause.hasInterruptsOnly(cause)) return 130
  const error = Cause.squash(cause)
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tag = (error as { readonly _tag: unknown })._tag
    // effect/cli wraps parse errors in ShowHelp (after printing help and the errors); a plain
    // --help has no errors.
    if (tag === "ShowHelp") {
      const errors = (error as { readonly errors?: ReadonlyArray<unknown> }).errors
      return errors !== undefined && errors.length > 0 ? 2 : 0
    }
    if (typeof tag === "string" && USAGE_TAGS.has(tag)) return 2
  }
  return Runtime.getErrorExitCode(error)
}

/** `Runtime.Teardown` applying {@link exitCodeOf}. */
export const teardown: Runtime.Teardown = (exit, onExit) => onExit(exitCodeOf(exit))

/** The exit code of a crash: sysexits' EX_SOFTWARE. */
export const INTERNAL_ERROR = 70

/**
 * A crash (a `RangeError` deep inside, any defect) as one line on stderr, `<label> <program>
 * stopped on an internal error, ...: <error>`, and exit 70: never a stack trace, and never
 * anything on stdout, which may be a JSON document. `label` gives the line's start when it is
 * printed (the CLI's is coloured on a terminal).
 */
export const reportDefects =
  (program: string, label: () => string = () => "error:") =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | ExitCode, R> =>
    Effect.catchDefect(self, (defect) => {
      const message = defect instanceof Error ? `${defect.name}: ${defect.message}` : String(defect)
      return Console.error(`${label()} ${program} stopped on an internal error, a bug to report with the command that caused it: ${message}`).pipe(
        Effect.andThen(Effect.fail(new ExitCode({ code: INTERNAL_ERROR, reason: message })))
      )
    })
