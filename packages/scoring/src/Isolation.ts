/**
 * Each run read, parsed and scored in isolation, under a budget. `Engine.score` (and with it
 * `score`, `rank`, `report`, `codabench score`) and the live leaderboard send every run to an
 * isolated scorer, a worker thread, with a time and a memory budget: a run over its budget, or one
 * that crashes its scorer, fails with that reason (listed, never ranked), and the process and the
 * other runs go on. Runs are read a few at a time, so a folder's memory is that of its largest run,
 * not of all of them. A small run (1 MiB or less on disk, zips excepted: `Options.inThreadMb`) is read
 * and checked on the engine's own thread instead, with the scorer's code and checks and under the
 * same budget (its checking under node:vm's timeout): a scorer's start costs more than such a run.
 * Sent to scorers (`inThreadMb: 0`), small runs go in batches (up to 64 runs and 4 MiB), answered a few
 * runs a message; a run's fate is still decided alone: when a batch's scorer fails, every run
 * of the batch it had not answered is sent again in a job of its own, so a run that loops in a batch
 * is ended after its time budget twice. A scorer reads with synchronous file-system calls
 * (`Files.useSynchronousCalls` of @stseval/formats): it has nothing else to do while it waits.
 *
 * How it is bounded: time by the wall clock of the run's job, started again each time runs of a
 * batch are answered (the worker is ended when it is up, even in the middle of a loop); memory by V8's heap limit and, for what lives outside the heap
 * (a run's bytes, typed arrays), by reading the worker's heap and external memory while it works
 * and ending it once their sum passes the budget (every read is capped, so a run cannot outgrow
 * the budget by more than one read between two looks).
 *
 * An app built into one file (the `stseval` executable) runs its own file as the scorer: its entry
 * calls `useEntry` with its own URL, and `serve` when it finds itself started as one (`isWorker`).
 *
 * @since 0.3.0
 */
import * as Isolated from "./internal/isolated.js"
import { SAVE_CACHE_KEY, WORKER_KEY } from "./internal/protocol.js"
import { serve as serveOn } from "./internal/worker.js"

/**
 * A run's budget: `timeMs`, the wall-clock time its scorer may take to read, parse and validate
 * it; `memoryMb`, the memory its scorer may hold meanwhile (JavaScript heap and the buffers
 * outside it, in MiB).
 *
 * @since 0.3.0
 */
export interface Budget {
  readonly timeMs: number
  readonly memoryMb: number
}

/**
 * The default budget: 60 s and 1536 MiB a run. The largest real runs (SemEval and STS releases,
 * under 1 MB) are scored in milliseconds within 40 MiB; a run at the reader's cap (256 MiB of
 * numbers) takes about 6 s and 700 MiB here, so the default leaves room for a slow or busy
 * machine and a run that is not plain ASCII (decoded text takes two bytes a character then).
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * Isolation.defaultBudget // { timeMs: 60000, memoryMb: 1536 }
 * ```
 * @since 0.3.0
 */
export const defaultBudget: Budget = { timeMs: 60_000, memoryMb: 1536 }

/**
 * The smallest memory budget accepted: a scorer holds about 20 MiB with nothing to score (the
 * program and the gold), so less than this would fail every run.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * const ok = (mb: number) => mb >= Isolation.MIN_MEMORY_MB
 * ```
 * @since 0.3.0
 */
export const MIN_MEMORY_MB = 48

/**
 * How runs are isolated: their `budget` (each field defaults to `defaultBudget`'s), `workers`, the
 * most runs scored at once (default: the machine's cores, at most 4; fewer when runs are large, see
 * `Engine.score`), and `inThreadMb`, the size up to which a run is scored on the calling thread.
 *
 * @since 0.3.0
 */
export interface Options {
  readonly budget?: Partial<Budget> | undefined
  readonly workers?: number | undefined
  /**
   * Runs of at most this many MiB on disk (zips excepted) are read and checked on the calling
   * thread, under the same checks and the same budget, as a scorer's start would cost more than
   * they do (default `IN_THREAD_MB`, 1; 0 sends every run to an isolated scorer; the check page,
   * whose browser worker is already the run's isolation, gives `Infinity`).
   */
  readonly inThreadMb?: number | undefined
}

/**
 * The default of `Options.inThreadMb`: a run of at most 1 MiB on disk (zips excepted) is scored on
 * the calling thread. Reading and checking it holds a few MiB, far below `MIN_MEMORY_MB`.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * const everyRunInAScorer: Isolation.Options = { inThreadMb: 0 } // Isolation.IN_THREAD_MB otherwise
 * ```
 * @since 0.4.0
 */
export const IN_THREAD_MB = 1

/**
 * The budget `options` give: each field given, else the default's. Not checked: see `checkBudget`.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * Isolation.budgetOf({ budget: { timeMs: 5_000 } }) // { timeMs: 5000, memoryMb: 1536 }
 * ```
 * @since 0.3.0
 */
export const budgetOf = (options: Options = {}): Budget => ({
  timeMs: options.budget?.timeMs ?? defaultBudget.timeMs,
  memoryMb: options.budget?.memoryMb ?? defaultBudget.memoryMb
})

/**
 * Why a budget cannot be used, or undefined when it can: a time that is not a positive number of
 * milliseconds, a memory under `MIN_MEMORY_MB` or beyond what a worker can be given (V8 takes at
 * most 2^31 - 1 MiB; the machine's memory is the real limit, which the caller knows better).
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * Isolation.checkBudget({ timeMs: 0, memoryMb: 512 }) // "the time budget must be more than 0 ms"
 * ```
 * @since 0.3.0
 */
export const checkBudget = (budget: Budget): string | undefined => {
  if (!Number.isFinite(budget.timeMs) || budget.timeMs <= 0) return "the time budget must be more than 0 ms"
  if (budget.timeMs > 2 ** 31 - 1) return `the time budget must be at most ${2 ** 31 - 1} ms`
  if (!Number.isInteger(budget.memoryMb) || budget.memoryMb < MIN_MEMORY_MB) return `the memory budget must be a whole number of MiB, ${MIN_MEMORY_MB} or more`
  if (budget.memoryMb > 2 ** 31 - 1) return `the memory budget must be at most ${2 ** 31 - 1} MiB`
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Where a scorer's code is
// ---------------------------------------------------------------------------------------------

/**
 * Make the scorers run `url`, the calling program's own entry: what an app built into one file
 * does (its code is in no other file). That entry must call `serve` when `isWorker()` is true.
 * Without it, a scorer runs this package's own entry module (`dist/internal/entry.js`).
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * // an app's entry (bin.ts): the scorers run this same file
 * if (Isolation.isWorker()) Isolation.serve()
 * else Isolation.useEntry(import.meta.url)
 * ```
 * @since 0.3.0
 */
export const useEntry = (url: string | URL): void => Isolated.setEntry(new URL(String(url)))

/**
 * True in a thread the engine started as a scorer: the program's entry then calls `serve` instead
 * of doing its own work.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * if (Isolation.isWorker()) Isolation.serve()
 * ```
 * @since 0.3.0
 */
export const isWorker = (): boolean => {
  const wt = process.getBuiltinModule("node:worker_threads")
  return !wt.isMainThread && typeof wt.workerData === "object" && wt.workerData !== null && (wt.workerData as Record<string, unknown>)[WORKER_KEY] === true
}

/**
 * Serve as a scorer: answer the engine's runs until the thread is ended. Only in a thread for
 * which `isWorker()` is true.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * if (Isolation.isWorker()) Isolation.serve()
 * ```
 * @since 0.3.0
 */
export const serve = (): void => {
  const port = process.getBuiltinModule("node:worker_threads").parentPort
  if (port === null || !isWorker()) throw new Error("Isolation.serve: not in a scoring worker")
  serveOn(port)
}

/**
 * What a program's loader needs to know of a scorer thread (the single-file bundle's `worker`,
 * tooling/bundle): `workerData`, the data the engine starts each scorer with (a loader that finds
 * it runs its scorer body, `serve`, instead of the program); `saveCacheKey`, the `globalThis` key
 * (a `Symbol.for`) of a function the loader may leave there, which a scorer calls once, after its
 * first run is read and before it answers: a scorer thread has no exit of its own at which to save
 * its code cache.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * const { workerData, saveCacheKey } = Isolation.scorerThread // a bundler's worker options
 * ```
 * @since 0.4.0
 */
export const scorerThread: {
  readonly workerData: Readonly<Record<string, unknown>>
  readonly saveCacheKey: string
} = {
  workerData: { [WORKER_KEY]: true },
  saveCacheKey: SAVE_CACHE_KEY
}

/**
 * End the idle scorers now: a program done with scoring for a while (a command that goes on to
 * resample or test what it scored) gets their memory back, about 20-40 MB a scorer (measured on
 * `significance --against all` of 500 STS-B runs: 25 MB less at its peak). A later scoring starts
 * new ones. Scorers that are scoring are left alone.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * Isolation.release() // after Engine.score, before a long computation on its results
 * ```
 * @since 0.3.0
 */
export const release = (): void => Isolated.release()
