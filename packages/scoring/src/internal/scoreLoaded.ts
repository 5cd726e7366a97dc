/**
 * Runs already read (the watcher reads and hashes each run first), scored together
 * (`Engine.scoreSubmissions`): the small ones on the engine's thread in batches, each batch under
 * one node:vm watchdog (`underOneTimeout`), the others in isolated scorers in batches
 * (`Isolated.runBatch`). Each run's fate is decided alone, as in `groups.ts`.
 *
 * A node:vm timeout starts a watchdog thread for its script and joins it at the end: one per run
 * was 3.0 s of the 13.4 s of the watcher's first board of 500 STS-B runs (a busy 2-core machine,
 * its checking 0.2 s), most of it the main thread waiting on the watchdog's start and end.
 *
 * @internal
 */
import type { Submissions } from "@stseval/formats"
import { Effect } from "effect"
import type { Context } from "../Engine.js"
import * as Isolation from "../Isolation.js"
import { batchesOf } from "./batches.js"
import { scoredHere, scoreInThread, underTimeout } from "./inThread.js"
import * as Isolated from "./isolated.js"
import type { Budget } from "./pool.js"
import type { Work } from "./protocol.js"
import { run } from "./worker.js"

/**
 * `step` over `items` in order, all under one timeout of `ms` (a run's time budget): what is left
 * when it fires (the item it stopped, and those after it), or when a step throws, is handed to
 * `alone` one by one, each under a budget of its own. So one item never fails for another's time:
 * a run that loops is stopped twice, after two budgets (as `Isolated.runBatch`'s runs are).
 */
export const underOneTimeout = <W, R>(items: ReadonlyArray<W>, step: (item: W) => R, ms: number, alone: (item: W) => R): Array<R> => {
  const out: Array<R> = []
  try {
    underTimeout(() => {
      for (const item of items.slice(out.length)) out.push(step(item))
    }, ms)
  } catch {
    // the time was up (or a step threw): the rest, each alone
  }
  for (const item of items.slice(out.length)) out.push(alone(item))
  return out
}

/**
 * Every loaded run's outcome (or the failure saying why it has none), in `submissions`' order:
 * `scoreInThread`'s checks and budget for a small run, a scorer's for the others.
 */
export const scoreLoaded = (
  context: Context,
  submissions: ReadonlyArray<Submissions.Submission>,
  options: Isolation.Options
): Effect.Effect<ReadonlyArray<Isolated.Result>> =>
  Effect.gen(function* () {
    const budget = Isolation.budgetOf(options)
    const works = submissions.map((submission): Work => ({ kind: "submission", submission }))
    const sizes = submissions.map((s) => s.files.reduce((sum, f) => sum + f.bytes.length, 0) / 2 ** 20)
    const here = works.flatMap((_, i) => (scoredHere(sizes[i], options) ? [i] : []))
    const there = works.flatMap((_, i) => (scoredHere(sizes[i], options) ? [] : [i]))
    const results: Array<Isolated.Result> = []
    const workers = options.workers ?? Isolated.defaultWorkers()
    const inThread = Effect.forEach(
      batchesOf(here.map((i) => sizes[i]), 1).map((batch) => batch.map((k) => here[k])),
      (batch) =>
        Effect.promise(() => (batch.length === 1 ? scoreInThread(context, works[batch[0]], budget).then((r) => [r]) : inThreadBatch(context, batch.map((i) => works[i]), budget))).pipe(
          Effect.map((rs) => rs.forEach((r, k) => (results[batch[k]] = r)))
        ),
      { discard: true }
    )
    const isolated = Effect.map(Isolated.runBatches(context, there.map((i) => works[i]), there.map((i) => sizes[i]), budget, workers), (rs) =>
      rs.forEach((r, k) => (results[there[k]] = r))
    )
    yield* Effect.all([isolated, inThread], { concurrency: 2, discard: true })
    return results
  })

/** Small loaded runs checked here under one watchdog (`underOneTimeout`); a run it stopped, alone with its own budget. */
const inThreadBatch = (context: Context, works: ReadonlyArray<Work>, budget: Budget): Promise<Array<Isolated.Result>> => {
  const loaded = { id: 0, edition: context.edition, gold: context.gold, lenient: context.lenient === true }
  // (`run` checks a loaded run synchronously: its promise is settled when it returns)
  // (`scoreInThread` too, for a loaded run: each run alone is checked before the next is started)
  return Promise.all(underOneTimeout<Work, Promise<Isolated.Result>>(works, (work) => run(loaded, work), budget.timeMs, (work) => scoreInThread(context, work, budget)))
}
