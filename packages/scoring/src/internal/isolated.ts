/**
 * Scoring in isolation, the engine's side (the public face is `Isolation`): which module a scorer
 * runs, a run sent to the pool under its budget, and its outcome made a scored run here.
 *
 * @internal
 */
import { Issue } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { Effect } from "effect"
import type { Context } from "../Engine.js"
import type { ScoredRun } from "../ScoredRun.js"
import type { RunValidation } from "../Validation.js"
import * as Pool from "./pool.js"
import { batchesOf } from "./batches.js"
import type { Outcome, Work } from "./protocol.js"
import { failedRun, scoreValidated } from "./score.js"

let registered: URL | undefined

/** The program's own entry, which serves as a scorer when started as one (`Isolation.useEntry`). */
export const setEntry = (url: URL): void => {
  registered = url
}

/**
 * The entry a scorer runs: the one given to `Isolation.useEntry` (the program's own; the tests give
 * a scorer built from the sources once per test run), else this package's entry module.
 * TypeScript sources (the repository run with tsx) are loaded through tsx in the worker, which
 * needs the sources' export condition too.
 */
export const entry = (): Pool.Entry => {
  const url = registered ?? new URL(`./entry${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url)
  if (!url.pathname.endsWith(".ts")) return { url }
  // Worker threads take no --import: tsx's API registers its loader in the worker itself (found
  // from this module, as the repository installs it; eval'd code resolves from the working folder).
  let tsx = "tsx/esm/api"
  try {
    tsx = import.meta.resolve(tsx)
  } catch {
    // import.meta.resolve is missing under some test runners: the bare name is tried
  }
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return { url, eval: bootstrap, execArgv: ["--conditions=@stseval/source"] }
}

/** What one run gave in isolation: its outcome, or why it has none. */
export type Result = Outcome | Pool.Failure

export const isFailure = Pool.isFailure

export const defaultWorkers = Pool.defaultWorkers

const contexts = new WeakMap<Context, Pool.ContextData>()

/** The part of a context a scorer needs, one object per context (the pool sends it once per worker). */
const contextData = (context: Context): Pool.ContextData => {
  let data = contexts.get(context)
  if (data === undefined) contexts.set(context, (data = { edition: context.edition, gold: context.gold, lenient: context.lenient === true }))
  return data
}

const job = (context: Context, works: ReadonlyArray<Work>, budget: Pool.Budget, workers: number): Effect.Effect<Pool.Answers> =>
  Effect.promise((signal) => Pool.run(entry(), contextData(context), works, budget, workers, signal))

/** Run one run in isolation; interrupting the fiber ends its scorer at once. */
export const runIsolated = (context: Context, work: Work, budget: Pool.Budget, workers: number): Effect.Effect<Result> =>
  Effect.map(job(context, [work], budget, workers), (answers) => answers.outcomes[0] ?? answers.failure!)

/**
 * Run a batch of small runs in one job, each result in `works`' order. A run's fate is decided
 * alone: when the batch's scorer fails (over a budget, crashed), every run it had not answered is
 * run again in a job of its own, and only a failure there is the run's. (A run that loops is
 * thus ended twice, after two time budgets; a batch is only for runs that are small on disk.) A
 * batch that found no scorer fails as a whole, with that reason.
 */
export const runBatch = (context: Context, works: ReadonlyArray<Work>, budget: Pool.Budget, workers: number): Effect.Effect<ReadonlyArray<Result>> =>
  Effect.flatMap(job(context, works, budget, workers), (answers) =>
    // (no scorer at all is no run's fault: each would wait for a scorer again, alone)
    answers.failure === undefined || works.length === 1 || answers.failure.kind === "no-scorer"
      ? Effect.succeed(answers.outcomes.map((o) => o ?? answers.failure!))
      : Effect.forEach(works, (work, i) => {
          const outcome = answers.outcomes[i]
          return outcome !== undefined ? Effect.succeed<Result>(outcome) : runIsolated(context, work, budget, workers)
        })
  )

/**
 * Runs in isolated scorers, `workers` batches at once (`batchesOf` their `sizes`, MiB), each
 * result in `works`' order. `hold` wraps each batch's job given its MiB (`rank`'s bound on the
 * run files in flight); none by default. `each` is given each result as its batch ends.
 */
export const runBatches = (
  context: Context,
  works: ReadonlyArray<Work>,
  sizes: ReadonlyArray<number>,
  budget: Pool.Budget,
  workers: number,
  hold: (mb: number) => <A>(job: Effect.Effect<A>) => Effect.Effect<A> = () => (job) => job,
  each: (index: number, result: Result) => void = () => {}
): Effect.Effect<ReadonlyArray<Result>> =>
  Effect.gen(function* () {
    const results: Array<Result> = []
    yield* Effect.forEach(
      batchesOf(sizes, workers),
      (batch) =>
        hold(batch.reduce((sum, k) => sum + sizes[k], 0))(
          Effect.map(runBatch(context, batch.map((k) => works[k]), budget, workers), (rs) =>
            rs.forEach((r, j) => {
              results[batch[j]] = r
              each(batch[j], r)
            })
          )
        ),
      { concurrency: workers, discard: true }
    )
    return results
  })

/** A scorer started now for a later scoring (`Isolation.warm`). */
export const warm = (budget: Pool.Budget, workers: number): void => void Pool.warm(entry(), budget, workers)

/** End the idle scorers (`Isolation.release`). */
export const release = (): void => Pool.releaseIdle()

/** A run that has no outcome as a failed run: listed with the reason, never ranked. */
const failedFor = (context: Context, meta: Submissions.RunMeta, path: string, failure: Pool.Failure): ScoredRun =>
  failedRun(context.edition, meta, path, failure.message, [
    Issue.error(failure.kind === "over-budget" ? "over-budget" : "scorer-crashed", path, failure.message)
  ])

/** Aligned gold arrays already handed out, per context and dataset (see `shareGold`). */
const goldSeen = new WeakMap<Context, Map<string, Array<Float64Array | ReadonlyArray<string>>>>()

const sameValues = (a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean => {
  if (a.length !== b.length) return false
  // numbers: their bytes compared natively (a loop of Object.is took 40 ms on 2,000 runs); two NaNs
  // of other bit patterns then differ, and the run keeps its own copy, which is only less sharing
  if (a instanceof Float64Array && b instanceof Float64Array) return bytesOf(a).equals(bytesOf(b))
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

const bytesOf = (a: Float64Array) => process.getBuiltinModule("node:buffer").Buffer.from(a.buffer, a.byteOffset, a.byteLength)

/**
 * A validation from a scorer with each dataset's aligned gold replaced by an equal one an earlier
 * run of this context was given: every run of a dataset shares one gold array, as `Validation`
 * says (a scorer's copies cross the thread boundary one per run).
 */
const shareGold = (context: Context, v: RunValidation): RunValidation => {
  let seen = goldSeen.get(context)
  if (seen === undefined) goldSeen.set(context, (seen = new Map<string, Array<Float64Array | ReadonlyArray<string>>>()))
  const byDataset = seen
  return {
    ...v,
    datasets: v.datasets.map((d) => {
      if (d.aligned === undefined) return d
      const known = byDataset.get(d.dataset) ?? []
      // (a worker sends each gold once, `protocol.ts`: its runs come with the very same array)
      const same = known.find((g) => g === d.aligned!.gold || sameValues(g, d.aligned!.gold))
      if (same === undefined) {
        byDataset.set(d.dataset, [...known, d.aligned.gold])
        return d
      }
      return { ...d, aligned: { ...d.aligned, gold: same } as typeof d.aligned }
    })
  }
}

/**
 * The figures of a run read and validated, computed as soon as its outcome is here (`meta` not yet
 * final: a folder's ids come once every run is read), for `scoredOf`; undefined for a run that has
 * none. Done while the scorers read the other runs, they are not all left for the end.
 */
export const scoredEarly = (context: Context, result: Result): ScoredRun | undefined =>
  isFailure(result) || result.kind !== "run" ? undefined : scoreValidated(context.edition, shareGold(context, result.validation), context.figuresRead)

/**
 * The scored run of a run's outcome (`meta` is the run's, with its id): its figures computed here
 * from the scorer's validation (linear in the gold's pairs; `early`, when `scoredEarly` computed
 * them), or a failed run saying why it has none.
 */
export const scoredOf = (context: Context, meta: Submissions.RunMeta, path: string, result: Result, early?: ScoredRun): ScoredRun => {
  // a scored run's meta is its validation's, given as is (`scoreValidated`): the final one put in its place
  if (early !== undefined) return { ...early, meta }
  if (isFailure(result)) return failedFor(context, meta, path, result)
  if (result.kind === "run") return scoreValidated(context.edition, shareGold(context, { ...result.validation, meta }), context.figuresRead)
  if (result.kind === "skipped") return failedRun(context.edition, meta, path, result.issue.message, [result.issue])
  return failedRun(context.edition, meta, path, result.message, [Issue.error("file-unreadable", path, result.message)])
}
