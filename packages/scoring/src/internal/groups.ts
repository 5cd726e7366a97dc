/**
 * How `Engine.score` reads its runs: every run of every group (a run given by path, or a
 * submissions folder's entries), each read, parsed and validated under the budget, a few at a time,
 * small runs on the engine's thread (`inThread.ts`) and the others in isolated scorers
 * (`isolated.ts`), its figures computed here; then each folder's runs given their ids.
 *
 * @internal
 */
import * as nodePath from "node:path"
import { Submissions } from "@stseval/formats"
import type { Files, Issue } from "@stseval/formats"
import { Effect, Semaphore } from "effect"
import type { Context } from "../Engine.js"
import * as Isolation from "../Isolation.js"
import type { ScoredRun } from "../ScoredRun.js"
import { IN_THREAD_RUNS, lookAt, MB_PER_WORKER } from "./batches.js"
import { scoredHere, scoreInThread } from "./inThread.js"
import * as Isolated from "./isolated.js"
import type { Work } from "./protocol.js"

/**
 * What `score` reads: a run given by path, or a submissions folder's entries (read one by one and
 * given their ids together, by `Submissions.settle`). `fail` is the error a run that cannot be read
 * at all stops everything with (as `inputs` and `Submissions.discover` do).
 */
export type Group<E> =
  | { readonly kind: "run"; readonly path: string; readonly fail: (e: { readonly message: string }) => E }
  | {
      readonly kind: "folder"
      readonly folder: string
      readonly listing: Submissions.FolderListing
      readonly within: Files.Within
      readonly fail: (e: { readonly message: string }) => E
    }

/**
 * Runs scored at once hold at most this many MiB of run files between them, unless one run is
 * larger (it is then scored alone): a folder then takes the memory of its largest run (about three
 * times its size, see `Isolation`), or of 32 MiB of runs at once, whichever is more, plus each
 * scorer's own (about 20 MiB), never the sum of its runs'.
 */
const IN_FLIGHT_MB = 32

/** Small runs read at once on the engine's thread (`inThread.ts`). */
const IN_THREAD_AT_ONCE = 8

export interface ScoredGroup {
  readonly runs: ReadonlyArray<ScoredRun>
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * Every run of every group, each read, parsed and validated by an isolated scorer under the
 * budget, a few at a time (`IN_FLIGHT_MB`), its figures computed here; then each folder's runs
 * given their ids. A run that cannot be read at all stops everything, as before isolation.
 */
export const scoreGroups = <E>(context: Context, groups: ReadonlyArray<Group<E>>, options: Isolation.Options): Effect.Effect<ReadonlyArray<ScoredGroup>, E> =>
  Effect.gen(function* () {
    const budget = Isolation.budgetOf(options)
    const options_: Submissions.DiscoverOptions = {}
    const jobs = groups.flatMap((g, gi): ReadonlyArray<{ readonly group: number; readonly path: string; readonly mb: number; readonly work: Work }> => {
      if (g.kind === "run") return [{ group: gi, path: g.path, mb: lookAt(g.path).mb, work: { kind: "path", path: g.path, options: options_ } as const }]
      return g.listing.names.map((name) => {
        const path = nodePath.join(g.folder, name)
        // the one look at an entry: its size shares the runs out, and its scorer is told what it is
        const look = lookAt(path)
        // the run.json files beside it from the folder's one listing: no look per absent name
        const options = { ...options_, runJsonBeside: Submissions.runJsonBeside(g.listing, name, context.edition), ...(look.kind !== undefined ? { lookedAt: look.kind } : {}) }
        return { group: gi, path, mb: look.mb, work: { kind: "entry", folder: g.folder, name, within: g.within, options } as const }
      })
    })
    const sizes = jobs.map((j) => j.mb)
    const results: Array<Isolated.Result> = []
    // small runs here, under the same checks and budget (`inThread.ts`); the others in scorers
    // (many small runs pay a scorer's start back: sent to scorers in batches, where their reads
    // are synchronous and two threads share them)
    const few = jobs.filter((_, i) => scoredHere(sizes[i], options)).length <= IN_THREAD_RUNS
    const small = jobs.flatMap((_, i) => (few && scoredHere(sizes[i], options) ? [i] : []))
    const large = jobs.flatMap((_, i) => (few && scoredHere(sizes[i], options) ? [] : [i]))
    const total = large.reduce((sum, i) => sum + sizes[i], 0)
    const workers = Math.max(1, Math.min(options.workers ?? Isolated.defaultWorkers(), large.length, Math.ceil(total / MB_PER_WORKER)))
    const inFlight = yield* Semaphore.make(IN_FLIGHT_MB)
    // each run's figures once its batch is answered and the next batch sent, while the scorers
    // read it: computed at once, before the next batch left, they held a scorer waiting for them
    const early: Array<ScoredRun | undefined> = []
    const answered: Array<readonly [number, Isolated.Result]> = []
    const figures = () => {
      for (const [i, r] of answered.splice(0)) early[i] = Isolated.scoredEarly(context, r)
    }
    const isolated = Effect.map(
      Isolated.runBatches(
        context,
        large.map((i) => jobs[i].work),
        large.map((i) => sizes[i]),
        budget,
        workers,
        (mb) => inFlight.withPermits(Math.min(IN_FLIGHT_MB, Math.max(1, Math.ceil(mb)))),
        (k, r) => void (answered.push([large[k], r]) === 1 && setImmediate(figures))
      ),
      (rs) => rs.forEach((r, k) => (results[large[k]] = r))
    )
    // a few at once: their reads overlap, their checks take turns on this thread
    const here = Effect.forEach(small, (i) => Effect.map(Effect.promise(() => scoreInThread(context, jobs[i].work, budget)), (r) => void (results[i] = r)), {
      concurrency: IN_THREAD_AT_ONCE,
      discard: true
    })
    yield* Effect.all([isolated, here], { concurrency: 2, discard: true })
    figures()
    const out: Array<ScoredGroup> = []
    for (const [gi, g] of groups.entries()) {
      const mine = jobs.flatMap((j, i) => (j.group === gi ? [{ job: j, result: results[i], early: early[i] }] : []))
      for (const { result } of mine) {
        if (!Isolated.isFailure(result) && result.kind === "error" && result.io) return yield* Effect.fail(g.fail(result))
      }
      if (g.kind === "run") {
        const { job, result } = mine[0]
        const meta = !Isolated.isFailure(result) && result.kind === "run" && result.meta.id !== undefined ? { ...result.meta, id: result.meta.id } : Submissions.metaFromName(nodePath.basename(job.path), context.edition)
        out.push({ runs: [Isolated.scoredOf(context, meta, job.path, result, mine[0].early)], issues: [] })
        continue
      }
      const issues: Array<Issue.Issue> = []
      const read: Array<{ readonly meta: Omit<Submissions.RunMeta, "id">; readonly path: string; readonly result: Isolated.Result; readonly early: ScoredRun | undefined }> = []
      for (const { job, result, early: figures } of mine) {
        if (!Isolated.isFailure(result) && result.kind === "skipped") {
          issues.push(result.issue)
          continue
        }
        // the name read again only for a run that has no meta of its own (a failure)
        const meta = !Isolated.isFailure(result) && result.kind === "run" ? withoutId(result.meta) : withoutId(Submissions.metaFromName(nodePath.basename(job.path), context.edition))
        read.push({ meta, path: job.path, result, early: figures })
      }
      const settled = Submissions.settle(g.folder, context.edition, read)
      out.push({ runs: settled.runs.map((r) => Isolated.scoredOf(context, r.meta, r.path, r.result, r.early)), issues: [...issues, ...settled.issues] })
    }
    return out
  })

const withoutId = ({ id: _id, ...meta }: Omit<Submissions.RunMeta, "id"> & { readonly id?: string }): Omit<Submissions.RunMeta, "id"> => meta
