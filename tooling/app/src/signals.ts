/**
 * Stopping on Ctrl-C (SIGINT) and SIGTERM within a second, with the usual exit codes (130 and
 * 143, 128 plus the signal's number), and nothing half-written.
 *
 * `runMain` runs an app's program as Effect's `NodeRuntime.runMain` does, with two differences:
 * the exit code names the signal that stopped the program (Effect's gives 130 for both), and a
 * program whose clean-up has not ended a second after the signal is not waited for (a second
 * signal ends it at once).
 *
 * A JavaScript signal handler runs only when the thread is free: while the program computes for a
 * long time on its own thread (resampling for `--ci`, `significance`, `compare`), a signal would
 * wait for the end of that computation. `cpuBound` therefore runs such a computation with the
 * handlers taken off, so that the system's default action applies: the process ends at once,
 * killed by the signal (which a shell reports as 130 or 143). Nothing is being written during such
 * a computation (the apps write their files after it, each to a temporary file renamed into place),
 * so nothing is left half-written. Scoring runs does not need it: each run is scored in a worker
 * thread (scoring's `Isolation`), which the clean-up ends wherever it is.
 *
 * @since 0.3.0
 */
import { Cause, Effect, Runtime } from "effect"
import type { Exit } from "effect"

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const
type Stop = keyof typeof SIGNALS

/** The exit code of a program stopped by `signal`: 128 plus the signal's number. */
export const signalExitCode = (signal: Stop): number => 128 + SIGNALS[signal]

/** How long a stopping program's clean-up may take before the process exits anyway. */
export const STOP_GRACE_MS = 900

/**
 * One whole turn of the event loop, its poll phase included: a signal that came while the thread
 * was busy (its handler waits for the thread to be free) is handled by the end of it.
 */
const loopTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve))))

/**
 * `f` run with this process's SIGINT and SIGTERM handlers taken off (and put back after), so that
 * either signal ends the process at once even though the thread is busy. For synchronous
 * computations that write nothing. The event loop turns once first: a signal that came just before
 * (while the thread computed something else) is handled then, and interrupts the program before
 * `f` starts, instead of being lost with the handler taken off. A throw of `f` is `onThrow`'s
 * error, or a defect without it.
 */
export function cpuBound<A>(f: () => A): Effect.Effect<A>
export function cpuBound<A, E>(f: () => A, onThrow: (e: unknown) => E): Effect.Effect<A, E>
export function cpuBound<A, E>(f: () => A, onThrow?: (e: unknown) => E): Effect.Effect<A, E> {
  return Effect.andThen(
    loopTurn,
    onThrow === undefined ? Effect.sync(() => withoutHandlers(f)) : Effect.try({ try: () => withoutHandlers(f), catch: onThrow })
  )
}

const withoutHandlers = <A>(f: () => A): A => {
  const saved = (Object.keys(SIGNALS) as Array<Stop>).map((s) => [s, process.rawListeners(s) as Array<(...args: Array<unknown>) => void>] as const)
  for (const [s] of saved) process.removeAllListeners(s)
  try {
    return f()
  } finally {
    for (const [s, listeners] of saved) for (const l of listeners) process.on(s, l)
  }
}

/**
 * Effect's `runMain` (its `teardown` and `disableErrorReporting` options too) with exit codes for
 * signals: 130 after SIGINT, 143 after SIGTERM when the program ends interrupted (`onSignal` may
 * choose another code, e.g. 0 for a service's clean stop), and an exit `STOP_GRACE_MS` after the
 * first signal, or at the second, when the program's clean-up has not ended by then.
 */
export const makeRunMain = (onSignal: (signal: Stop) => number = signalExitCode) =>
  Runtime.makeRunMain(({ fiber, teardown }) => {
    let received: Stop | undefined
    const handler = (s: Stop) => () => {
      if (received !== undefined) process.exit(onSignal(received))
      received = s
      fiber.interruptUnsafe(fiber.id)
      setTimeout(() => process.exit(onSignal(s)), STOP_GRACE_MS).unref()
    }
    const handlers = { SIGINT: handler("SIGINT"), SIGTERM: handler("SIGTERM") }
    fiber.addObserver((exit: Exit.Exit<unknown, unknown>) => {
      process.removeListener("SIGINT", handlers.SIGINT)
      process.removeListener("SIGTERM", handlers.SIGTERM)
      const stopped = received
      teardown(exit, (code) => {
        const final = stopped !== undefined && exit._tag === "Failure" && Cause.hasInterruptsOnly(exit.cause) ? onSignal(stopped) : code
        if (stopped !== undefined || final !== 0) process.exit(final)
      })
    })
    process.on("SIGINT", handlers.SIGINT)
    process.on("SIGTERM", handlers.SIGTERM)
  })

/** `makeRunMain()`: 130 after SIGINT, 143 after SIGTERM. */
export const runMain = makeRunMain()
