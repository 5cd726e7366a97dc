/**
 * Each run read, parsed and scored in isolation, under a budget: a worker thread with a time and a
 * memory budget, so a run over it, or that crashes its scorer, fails with that reason and the
 * others go on. Runs are read a few at a time (memory is that of the largest run). A small run
 * (`Options.inThreadMb`) is checked on the engine's own thread with the scorer's code and budget
 * (node:vm's timeout), as a scorer's start costs more. Sent to scorers, small runs go in batches
 * (up to 256 runs, 4 MiB); when a batch's scorer fails, each unanswered run is sent again alone, so a
 * run's fate is still its own. Scorers read synchronously: they have nothing else to do meanwhile.
 *
 * Bounds: time by the wall clock of the run's job, restarted each time runs of a batch are
 * answered (the worker is ended even mid-loop); memory by V8's heap limit and by polling heap plus
 * external memory, ending the worker past the budget (reads are capped, so a run overshoots by at
 * most one read). A one-file app runs its own file as the scorer (`useEntry`, `isWorker`).
 *
 * @since 0.3.0
 */
import { IN_THREAD_RUNS, manyRuns } from "./internal/batches.js"
import * as Isolated from "./internal/isolated.js"
import { AHEAD_KEY, SAVE_CACHE_KEY, WORKER_KEY } from "./internal/protocol.js"
import { serve as serveOn } from "./internal/worker.js"

/**
 * A run's budget: `timeMs` of wall clock to read, parse and validate it, `memoryMb` of heap and
 * outside buffers meanwhile.
 *
 * @since 0.3.0
 */
export interface Budget {
  readonly timeMs: number
  readonly memoryMb: number
}

/**
 * The default budget: 60 s and 1536 MiB a run. Real runs take milliseconds and 40 MiB; a run at the
 * reader's cap (256 MiB of numbers) about 6 s and 700 MiB, so this leaves room for a slow machine
 * and non-ASCII text.
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
 * How runs are isolated: their `budget`, `workers` (default the cores, at most 4) and `inThreadMb`.
 *
 * @since 0.3.0
 */
export interface Options {
  readonly budget?: Partial<Budget> | undefined
  readonly workers?: number | undefined
  /**
   * Runs of at most this many MiB on disk (zips excepted) are checked on the calling thread, under
   * the same checks and budget, since a scorer's start costs more (0: every run isolated; the check
   * page's browser worker passes `Infinity`).
   */
  readonly inThreadMb?: number | undefined
}

/**
 * The default of `Options.inThreadMb`: runs of at most 1 MiB on disk (zips excepted).
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
 * Why a budget cannot be used, or undefined: a time that is not a positive number of milliseconds,
 * a memory under `MIN_MEMORY_MB` or over V8's 2^31 - 1 MiB.
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
 * Make the scorers run `url`, the program's own entry (an app built into one file), which must
 * call `serve` when `isWorker()`; default: this package's `dist/internal/entry.js`.
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
 * True in a thread the engine started as a scorer (the entry then calls `serve`).
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
 * Serve as a scorer: answer the engine's runs until the thread is ended (only when `isWorker()`).
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
 * What a program's loader needs of a scorer thread (tooling/bundle): `workerData`, with which the
 * engine starts each scorer (a loader that finds it runs `serve`); `saveCacheKey`, the `globalThis`
 * key of a function a scorer calls once after its first run, since a thread has no exit at which to
 * save its code cache; and `ahead`, for a loader that starts the first scorer itself, before the
 * program is read: the key under which it leaves `{ worker, memoryMb }` (started with this
 * `workerData`, `resourceLimits.maxOldGenerationSizeMb` its memoryMb, no execArgv and the
 * program's argv, as the engine starts one), which the engine's first start under that budget
 * takes; the default budget's memory; and `warm`'s test of the paths as self-contained source
 * (`(paths, most) => boolean`, `most` = `inThreadRuns`).
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
  readonly ahead: { readonly key: string; readonly memoryMb: number; readonly manyRuns: string; readonly inThreadRuns: number }
} = {
  workerData: { [WORKER_KEY]: true },
  saveCacheKey: SAVE_CACHE_KEY,
  ahead: { key: AHEAD_KEY, memoryMb: defaultBudget.memoryMb, manyRuns: String(manyRuns), inThreadRuns: IN_THREAD_RUNS }
}

/**
 * Start a scorer now, under `options`' budget, when one of `paths` is a folder of more runs than
 * the engine's thread scores alone (16), for the scoring about to read it: the scorer's start
 * (100-300 ms of wall on a 2-core machine) then overlaps the program's own (its loading, its
 * arguments, the gold) instead of following it. The scorer waits idle like any other: it never
 * keeps the process alive, and one that no scoring takes has cost its start (50-100 ms of CPU,
 * 20-40 MB). A scoring under another budget replaces it. Other paths cost a failed listing each.
 *
 * @example
 * ```ts
 * import { Isolation } from "@stseval/scoring"
 *
 * // an app's entry, for a command given a submissions folder
 * Isolation.warm(process.argv.slice(3))
 * ```
 * @since 0.6.0
 */
export const warm = (paths: ReadonlyArray<string>, options: Options = {}): void => {
  if (manyRuns(paths)) Isolated.warm(budgetOf(options), options.workers ?? Isolated.defaultWorkers())
}

/**
 * End the idle scorers now, giving their memory back (20-40 MB each) to a program done scoring for
 * a while; scorers at work are left alone.
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
