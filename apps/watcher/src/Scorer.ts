/**
 * What the watcher needs from a scoring engine, injected as an Effect service so that the watcher
 * can be tested with a fake engine and wired to `@stseval/scoring` by `ScoringAdapter`.
 *
 * The engine scores one loaded run (the `Submission` the watcher read and hashed, so the score and
 * the cache key always describe the same bytes) and answers a JSON-serialisable `RunOutcome`: the
 * official figure of each ranking, the run's errors and warnings, and optionally its full detail.
 *
 * @since 0.1.0
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { Issue, Registry, Submissions } from "@stseval/formats"

/**
 * One official figure of a run, e.g. `{ ranking: "official", metric: "wmean", value: 0.761 }`.
 * `value` is `null` when it could not be computed; `reason` then says why.
 *
 * @since 0.1.0
 */
export interface OfficialFigure {
  /** ranking name: `official` (STS), `relatedness` / `entailment` (SICK) */
  readonly ranking: string
  /** the figure ranked: `pearson`, `accuracy`, `wmean`, `mean`... */
  readonly metric: string
  /** higher is better */
  readonly value: number | null
  readonly reason?: string | undefined
}

/**
 * A scored (or failed) run, as the engine reports it. A `failed` run is listed with its errors and
 * never ranked.
 *
 * @since 0.1.0
 */
export interface RunOutcome {
  readonly status: "scored" | "failed"
  /** why the run failed, in one sentence */
  readonly failure?: string | undefined
  readonly official: ReadonlyArray<OfficialFigure>
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: ReadonlyArray<Issue.Issue>
  /** the engine's full result (e.g. `@stseval/scoring` ScoredRun JSON), kept in the cache */
  readonly detail?: unknown
}

/**
 * The scoring engine as the watcher sees it.
 *
 * - `edition`: the task edition (run layout, run limit, id for the cache key);
 * - `goldHash`: a fingerprint of the gold (SHA-256 of its bytes), part of the cache key;
 * - `engineVersion`: bump it when scores may change, to invalidate the cache;
 * - `score`: score one run. It must not fail: a run that cannot be scored is a `failed` outcome.
 *   A defect (a thrown exception) is caught by the watcher and reported as a failed run that is not
 *   cached.
 *
 * @since 0.1.0
 */
export class Scorer extends Context.Service<
  Scorer,
  {
    readonly edition: Registry.TaskEdition
    readonly goldHash: string
    readonly engineVersion: string
    readonly score: (submission: Submissions.Submission) => Effect.Effect<RunOutcome>
  }
>()("@stseval/watcher/Scorer") {}
