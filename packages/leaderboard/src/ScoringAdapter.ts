/**
 * The watcher wired to the real engine (`@stseval/scoring`) and report renderer (`@stseval/tables`).
 *
 * `layer({ task, gold })` loads the edition and gold once (`Engine.loadContext`), signs it (the
 * cache key's part), and scores each run in isolation (`Engine.scoreSubmission`; the runs settled
 * together, `Engine.scoreSubmissions`): the watcher's figures are the engine's, run for run.
 * `rendererLayer` prints the board through the report's tables, styled for the edition.
 *
 * @since 0.1.0
 */
import { Files } from "@stseval/formats"
import type { Registry, Submissions } from "@stseval/formats"
import { Engine, ResultJson, Signature } from "@stseval/scoring"
import type { Isolation, ScoredRun } from "@stseval/scoring"
import { Effect, FileSystem, Layer, Option, Path } from "effect"
import * as BoardPage from "./BoardPage.js"
import { Renderer } from "./BoardPage.js"
import { Scorer } from "./Scorer.js"
import type { RunOutcome } from "./Scorer.js"

/**
 * What the watcher scores against: the edition, its gold, and each run's budget in isolation.
 *
 * @since 0.1.0
 */
export interface Options {
  /** a built-in edition id, a user edition file, or an edition */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's data folder under the data store root */
  readonly gold?: string | undefined
  /**
   * each run's budget in isolation (`Isolation.Options` of @stseval/scoring; default its
   * `defaultBudget`): a run over it is published failed with the reason, and the watcher goes on
   *
   * @since 0.3.0
   */
  readonly isolation?: Isolation.Options | undefined
}

/**
 * A `ScoredRun` of the engine as the watcher's outcome: scoring's JSON of it (`ResultJson`), the
 * part the board reads (each dataset's figure by its ranked metric alone: the others are not
 * computed for the board).
 *
 * @example
 * ```ts
 * import { ScoringAdapter } from "@stseval/leaderboard"
 * import type { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * const outcome = ScoringAdapter.toOutcome(run) // what the cache keeps of a scored run
 * ```
 * @since 0.1.0
 */
export const toOutcome = (run: ScoredRun.ScoredRun): RunOutcome => ({
  status: run.status,
  ...(run.failure !== undefined ? { failure: run.failure } : {}),
  official: run.official.map((o) => ResultJson.officialJson(o)),
  errors: run.errors,
  warnings: run.warnings,
  ...(run.datasets.length > 1
    ? {
        datasets: run.datasets.map((d) => {
          const figure = d.figures[d.metric]
          return { dataset: d.dataset, status: d.status, figures: { [d.metric]: figure !== undefined ? ResultJson.figureJson(figure) : null } }
        })
      }
    : {})
})

/**
 * The real engine as the watcher's `Scorer`. Fails only when the edition cannot be resolved; a
 * missing gold makes every run fail with the gold's issues (as `stseval rank` does).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // scores with the scoring engine (gold read once); the minimal board renderer
 * const summary = await Effect.runPromise(
 *   Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *     Effect.provide(ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" })),
 *     Effect.provide(NodeServices.layer)
 *   )
 * )
 * ```
 * @since 0.1.0
 */
export const layer = (options: Options) =>
  Layer.effect(Scorer)(
    Effect.gen(function* () {
      const context = yield* Engine.loadContext({ task: options.task, gold: options.gold })
      // the gold's folder, resolved and real: messages name it one way or the other
      const path = yield* Path.Path
      const fs = yield* FileSystem.FileSystem
      const goldFolders: Array<string> = []
      if (context.goldPath !== undefined) {
        const info = yield* fs.stat(context.goldPath).pipe(Effect.option)
        const folder = Option.isSome(info) && info.value.type === "Directory" ? context.goldPath : path.dirname(context.goldPath)
        const real = yield* Files.realPath(folder)
        goldFolders.push(...new Set([path.resolve(folder), ...(real !== undefined ? [real] : [])]))
      }
      for (const issue of context.gold.issues) {
        if (issue.severity === "error") yield* Effect.logWarning(`gold: ${issue.file}: ${issue.message}`)
      }
      // Intervals (`--ci`) need each run's aligned scores, which the cached JSON outcome lacks. The
      // run `score` just made is handed to `scoreRun` (keyed by the submission: nothing is kept
      // without `--ci`); a cached run is scored again from its bytes, which the watcher reads and
      // hashes anyway: milliseconds, against a second way from JSON back to a `ScoredRun` and cache
      // files as large as the run, and the scores always come from the engine that signed them.
      const justScored = new WeakMap<Submissions.Submission, ScoredRun.ScoredRun>()
      return {
        edition: context.edition,
        // names the edition, the gold's content and the engine version: the cache key's part
        signature: Signature.make(context.edition, context.gold).text,
        reads: goldFolders,
        // each run read in a scorer of its own, under its budget (@stseval/scoring's Isolation):
        // a run that takes too long or too much, or crashes its scorer, fails; the watcher goes on
        isolated: true,
        score: (submission) =>
          Effect.map(Engine.scoreSubmission(context, submission, options.isolation), (run) => {
            justScored.set(submission, run)
            return toOutcome(run)
          }),
        // the runs settled together (the first scan), checked a batch at a time (`Engine.scoreSubmissions`)
        scoreBatch: (submissions) =>
          Effect.map(Engine.scoreSubmissions(context, submissions, options.isolation), (runs) =>
            runs.map((run, i) => {
              justScored.set(submissions[i], run)
              return toOutcome(run)
            })
          ),
        scoreRun: (submission) => {
          const known = justScored.get(submission)
          return known !== undefined ? Effect.succeed(known) : Engine.scoreSubmission(context, submission, options.isolation)
        }
      }
    })
  )

/**
 * Provide the report renderer to the watcher, styled for the `Scorer`'s edition.
 *
 * @example
 * ```ts
 * import { ScoringAdapter } from "@stseval/leaderboard"
 * import { Layer } from "effect"
 *
 * // the papers' tables for the edition the scorer scores (what layerWithReport provides)
 * const engine = Layer.provideMerge(ScoringAdapter.rendererLayer, ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" }))
 * ```
 * @since 0.1.0
 */
export const rendererLayer = Layer.effect(Renderer)(
  Effect.gen(function* () {
    const scorer = yield* Scorer
    return BoardPage.renderer(scorer.edition)
  })
)

/**
 * The real engine and the report renderer together: what `stseval watch` provides to `Watcher.watch`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // the scoring engine, and the papers' tables on the board
 * const summary = await Effect.runPromise(
 *   Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *     Effect.provide(ScoringAdapter.layerWithReport({ task: "sick2014", gold: "SICK_test_annotated.txt" })),
 *     Effect.provide(NodeServices.layer)
 *   )
 * )
 * summary.scored
 * ```
 * @since 0.1.0
 */
export const layerWithReport = (options: Options) => Layer.provideMerge(rendererLayer, layer(options))
