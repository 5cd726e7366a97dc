/**
 * The Effect layer over the pure engine: load an edition (built-in id or user file), its gold and
 * runs from paths, score every run independently and rank them. One bad run never stops the
 * others: a run that cannot be loaded or scored becomes a failed `ScoredRun` carrying its issues.
 *
 * Requires `FileSystem` and `Path` (e.g. `@effect/platform-node/NodeServices`).
 *
 * @since 0.1.0
 */
import { DataStore, Gold, Issue, Registry, Submissions } from "@stseval/formats"
import { Effect, Path, Schema } from "effect"
import { rank } from "./Rank.js"
import type { RankedResults, RankOptions } from "./Rank.js"
import { failedRun, scoreValidated } from "./ScoredRun.js"
import type { ScoredRun } from "./ScoredRun.js"
import { validateRun } from "./Validation.js"
import type { RunValidation } from "./Validation.js"

/** A submissions folder that cannot be read at all. @since 0.1.0 */
export class FolderError extends Schema.TaggedError<FolderError>()("FolderError", {
  folder: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.folder}: ${this.reason}`
  }
}

/** An edition with its gold, loaded once and reused for every run (e.g. by the watcher). @since 0.1.0 */
export interface Context {
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  /** where the gold was read from, when a location was known */
  readonly goldPath: string | undefined
}

/** @since 0.1.0 */
export interface Session extends Context {
  /** issues about the submissions as a whole (run limits, entries that are not runs) */
  readonly issues: ReadonlyArray<Issue.Issue>
  /** every run, scored or failed, in the order given (`scorePaths`) or discovered (`rankFolder`) */
  readonly runs: ReadonlyArray<ScoredRun>
}

/** @since 0.1.0 */
export interface RankedSession extends Session {
  readonly ranked: RankedResults<ScoredRun>
}

/** @since 0.1.0 */
export interface LoadOptions {
  /** a built-in edition id (`sts2014`) or the path of a user edition file (`.json` / `.yaml`) */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's data folder under the data store root */
  readonly gold?: string | undefined
}

/**
 * Resolve the edition and load its gold. A gold that is missing or unreadable is not a failure:
 * `gold.issues` say so and the datasets concerned cannot be scored. Fails only when the edition
 * cannot be resolved.
 *
 * @since 0.1.0
 */
export const loadContext = Effect.fnUntraced(function* (options: LoadOptions) {
  const edition = typeof options.task === "string" ? yield* Registry.resolve(options.task) : options.task
  const pathApi = yield* Path.Path
  const goldPath = options.gold ?? (edition.data !== undefined ? pathApi.join(DataStore.defaultRoot(), edition.data.dir) : undefined)
  if (goldPath === undefined) {
    const issue = Issue.error("file-unreadable", edition.id, `no gold was given and ${edition.id} has no default data location; give the gold path`, {
      expected: "a gold folder or file"
    })
    const gold: Gold.Gold = { edition: edition.id, datasets: [], missing: edition.datasets.map((d) => d.name), issues: [issue] }
    return { edition, gold, goldPath } satisfies Context
  }
  const gold = yield* Gold.loadGold(edition, goldPath)
  return { edition, gold, goldPath } satisfies Context
})

/**
 * Score one loaded submission; pure and total (a defect in scoring becomes a failed run, so that
 * one run never stops the others).
 *
 * @since 0.1.0
 */
export const scoreSubmission = (context: Context, submission: Submissions.Submission): ScoredRun =>
  validateAndScore(context, submission).scored

/**
 * `scoreSubmission`, keeping the run's validation too: it holds the aligned gold and run scores that
 * significance tests and plots need (the report generator uses them). `validation` is undefined
 * only when validating the run itself hit a defect.
 *
 * @since 0.1.0
 */
export const validateAndScore = (
  context: Context,
  submission: Submissions.Submission
): { readonly scored: ScoredRun; readonly validation: RunValidation | undefined } => {
  let validation: RunValidation | undefined
  try {
    validation = validateRun(context.edition, context.gold, submission)
    return { scored: scoreValidated(context.edition, validation), validation }
  } catch (e) {
    const message = `internal error while scoring: ${e instanceof Error ? e.message : String(e)}`
    const scored = failedRun(context.edition, submission.meta, submission.path, message, [
      ...submission.issues,
      Issue.error("file-unreadable", submission.path, message)
    ])
    return { scored, validation }
  }
}

const unreadable = (context: Context, path: string, reason: string): ScoredRun => {
  const base = path.split(/[\\/]/).filter((p) => p !== "").pop() ?? path
  // the id `discover` and `loadRun` would give it: the same string in every output
  const meta = Submissions.metaFromName(base)
  const failure = `the run could not be loaded: ${reason}`
  return failedRun(context.edition, meta, path, failure, [Issue.error("file-unreadable", path, failure)])
}

/**
 * Load and score one run given by path (a file, a folder or a zip). Never fails: an unreadable
 * run is a failed `ScoredRun`.
 *
 * @since 0.1.0
 */
export const scoreRunPath = (context: Context, path: string) =>
  Submissions.loadRun(path, context.edition).pipe(
    Effect.map((submission) => scoreSubmission(context, submission)),
    Effect.catch((e) => Effect.succeed(unreadable(context, path, e.message)))
  )

/**
 * Score runs given by path, each independently, against an edition and its gold.
 *
 * @example
 * scorePaths({ task: "sts2014", gold: "data/sts2014/test-en", runs: ["subs/ECNU_run1"] })
 * @since 0.1.0
 */
export const scorePaths = Effect.fnUntraced(function* (options: LoadOptions & { readonly runs: ReadonlyArray<string> }) {
  const context = yield* loadContext(options)
  const runs = yield* Effect.forEach(options.runs, (p) => scoreRunPath(context, p))
  return { ...context, issues: [], runs } satisfies Session
})

/**
 * Discover the runs of a submissions folder, score each independently and rank them (primary runs
 * only by default). Fails only when the edition cannot be resolved or the folder cannot be read.
 *
 * @since 0.1.0
 */
export const rankFolder = Effect.fnUntraced(function* (options: LoadOptions & RankOptions & { readonly folder: string }) {
  const context = yield* loadContext(options)
  const found = yield* Submissions.discover(options.folder, context.edition).pipe(
    Effect.mapError((e) => new FolderError({ folder: options.folder, reason: e.message }))
  )
  const runs = found.runs.map((s) => scoreSubmission(context, s))
  const ranked = rank(runs, options.primaryOnly !== undefined ? { primaryOnly: options.primaryOnly } : {})
  return { ...context, issues: found.issues, runs, ranked } satisfies RankedSession
})
