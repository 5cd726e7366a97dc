/**
 * The way into scoring: `score` loads an edition, its gold and runs, scores every run
 * independently, ranks them and returns one `Results` (figures, aligned scores, ranking,
 * signature). One bad run never stops the others: it becomes a failed `ScoredRun` carrying its
 * issues. `loadContext` and `scoreSubmission` are its two halves, for a caller that loads the gold
 * once and scores runs as they come (the live leaderboard). Requires `FileSystem` and `Path`.
 *
 * @example
 * ```ts
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const results = yield* Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" })
 *   results.signature.text // "sick2014@...|gold:...|agg:single|stseval-scoring@..."
 *   return results.ranked.rankings[0].entries[0]?.meta.id // the best run of the first ranking (relatedness)
 * })
 * ```
 * @since 0.1.0
 */
import * as nodePath from "node:path"
import { DataStore, Glue, Gold, Issue, Registry, Submissions } from "@stseval/formats"
import { Effect, FileSystem, Schema } from "effect"
import * as Groups from "./internal/groups.js"
import * as Isolated from "./internal/isolated.js"
import { scoreLoaded } from "./internal/scoreLoaded.js"
import * as Isolation from "./Isolation.js"
import { rank } from "./Rank.js"
import type { RankedResults, RankOptions } from "./Rank.js"
import type { ScoredRun } from "./ScoredRun.js"
import * as Signature from "./Signature.js"

// A relative path is resolved from the process's folder, which is not always the one the user typed
// the command in (`pnpm stseval` runs from the repository's root): the reason says which it was.
const resolvedFrom = (p: string) => (nodePath.isAbsolute(p) ? "" : ` (resolved from ${process.cwd()})`)
const notFound = (p: string) => new InputError({ path: p, reason: `no such file or folder${resolvedFrom(p)}` })

/**
 * The gold cannot be found: none was given and the data store has none, or the path given does
 * not exist. The message says what to do.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const scored = Engine.score({ task: "sts2017", folder: "submissions" }).pipe(
 *   // no --gold and none in the data store: the message names both ways out
 *   Effect.catchTag("GoldError", (e: Engine.GoldError) => Effect.fail(e.message)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class GoldError extends Schema.TaggedError<GoldError>()("GoldError", {
  message: Schema.String
}) {}

/**
 * A run or submissions folder given by path that does not exist or cannot be read.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const checked = Engine.submissionsFolder("submisions").pipe(
 *   Effect.catchTag("InputError", (e: Engine.InputError) => Effect.fail(`${e.path}: ${e.reason}`)), // "submisions: no such file or folder"
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class InputError extends Schema.TaggedError<InputError>()("InputError", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.path}: ${this.reason}`
  }
}

/**
 * A submissions folder that cannot be read at all.
 *
 * @example
 * ```ts
 * import { Engine } from "@stseval/scoring"
 *
 * const describe = (e: Engine.FolderError): string => `${e.folder}: ${e.reason}`
 * ```
 * @since 0.1.0
 */
export class FolderError extends Schema.TaggedError<FolderError>()("FolderError", {
  folder: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.folder}: ${this.reason}`
  }
}

/**
 * An edition with its gold, loaded once and reused for every run (e.g. by the watcher).
 *
 * @since 0.1.0
 */
export interface Context {
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  /** where the gold was read from, when a location was known */
  readonly goldPath: string | undefined
  /** read headerless SICK runs leniently (`Validation.ValidateOptions`); default strict, as the official scorer */
  readonly lenient?: boolean | undefined
  /**
   * which figures of each scored dataset the caller will read (`FiguresRead`); default `"ranked"`
   * @since 0.6.0
   */
  readonly figuresRead?: FiguresRead | undefined
}

/**
 * Which figures of each scored dataset a caller will read: `"ranked"`, the ranked metric's (the
 * others are computed when first read, and only then); `"all"`, every metric its ranking declares,
 * each computed as its run is scored, while the scorers still read the other runs, instead of
 * one after another when an output reads them at the end (`rank --json` of 2,000 runs: 0.1 s of
 * Spearman figures). The figures are the same either way.
 *
 * @example
 * ```ts
 * import { Engine } from "@stseval/scoring"
 *
 * // a document that prints every figure of every run
 * const options: Engine.ScoreOptions = { task: "sick2014", folder: "submissions", figuresRead: "all" }
 * ```
 * @since 0.6.0
 */
export type FiguresRead = "ranked" | "all"

/**
 * What `load` resolves: the edition (a built-in id, a user edition file or an edition), and where
 * its gold and the data store are.
 *
 * @since 0.1.0
 */
export interface LoadOptions {
  /** a built-in edition id (`sts2014`) or the path of a user edition file (`.json` / `.yaml`) */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's data folder under the data store root (`DataStore.goldDir`) */
  readonly gold?: string | undefined
  /** the data store root (default `DataStore.defaultRoot()`; the CLI passes the one its environment names) */
  readonly dataRoot?: string | undefined
}

/**
 * Resolve the edition and load its gold. A missing gold is not a failure (`gold.issues` say so);
 * fails only when the edition cannot be resolved.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Submissions } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * // once for many runs (the watcher): the gold is read and checked one time
 * const context = await Effect.runPromise(Engine.loadContext({ task: "sick2014", gold: "SICK_test_annotated.txt" }).pipe(Effect.provide(NodeServices.layer)))
 * declare const submission: Submissions.Submission
 * const scored = Engine.scoreSubmission(context, submission)
 * ```
 * @since 0.1.0
 */
export const loadContext = Effect.fnUntraced(function* (options: LoadOptions) {
  const edition = typeof options.task === "string" ? yield* Registry.resolve(options.task) : options.task
  // the one rule for the default gold folder: DataStore.goldDir (the folder `data fetch` fills)
  const goldPath = options.gold ?? DataStore.goldDir(edition, options.dataRoot ?? DataStore.defaultRoot())
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
 * Score one loaded run as `score` scores each of its runs (isolated, under `options`' budget):
 * `scoreSubmissions` of one run. Never fails: a run over budget, whose scorer crashed or that
 * could not be handled is a failed run that says why.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * declare const context: Engine.Context
 * declare const submission: Submissions.Submission
 * const scored = await Effect.runPromise(Engine.scoreSubmission(context, submission, { budget: { timeMs: 10_000 } }))
 * scored.status // "scored", or "failed" with the reason (e.g. over the time budget)
 * ```
 * @since 0.1.0
 */
export const scoreSubmission = (context: Context, submission: Submissions.Submission, options: Isolation.Options = {}): Effect.Effect<ScoredRun> =>
  Effect.map(scoreSubmissions(context, [submission], options), (runs) => runs[0])

/**
 * Score loaded runs together, each as `scoreSubmission` scores it (its own budget, its own fate),
 * in `submissions`' order: small runs on this thread in batches, each batch under one watchdog
 * (a run it stops is checked again alone, under a budget of its own), larger ones in isolated
 * scorers in batches. Never fails.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * declare const context: Engine.Context
 * declare const submissions: ReadonlyArray<Submissions.Submission>
 * // the watcher's first scan: every run it read, in one call
 * const scored = await Effect.runPromise(Engine.scoreSubmissions(context, submissions))
 * ```
 * @since 0.5.0
 */
export const scoreSubmissions = (
  context: Context,
  submissions: ReadonlyArray<Submissions.Submission>,
  options: Isolation.Options = {}
): Effect.Effect<ReadonlyArray<ScoredRun>> =>
  Effect.map(scoreLoaded(context, submissions, options), (results) => results.map((result, i) => Isolated.scoredOf(context, submissions[i].meta, submissions[i].path, result)))

// ---------------------------------------------------------------------------------------------
// The entry: score
// ---------------------------------------------------------------------------------------------

/**
 * Where the gold of an edition is: `gold` as given (it must exist), else the edition's folder in
 * the data store, when it is there; else a `GoldError` naming both ways out.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * // --gold as given, else the data store's folder for the edition
 * const gold = await Effect.runPromise(Engine.goldPath({ edition: Registry.get("sts2017")!, dataRoot: "/data/stseval" }).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.2.0
 */
export const goldPath = Effect.fnUntraced(function* (options: {
  readonly edition: Registry.TaskEdition
  readonly gold?: string | undefined
  readonly dataRoot?: string | undefined
}) {
  const fs = yield* FileSystem.FileSystem
  const exists = (p: string) => fs.exists(p).pipe(Effect.orElseSucceed(() => false))
  const { edition } = options
  if (options.gold !== undefined) {
    if (!(yield* exists(options.gold))) return yield* new GoldError({ message: `--gold: ${options.gold} does not exist${resolvedFrom(options.gold)}` })
    return options.gold
  }
  if (edition.data === undefined) {
    return yield* new GoldError({ message: `${edition.id}: the registry knows no public source for its gold; give it with --gold <file|folder>` })
  }
  const dir = DataStore.goldDir(edition, options.dataRoot ?? DataStore.defaultRoot())!
  if (yield* exists(dir)) return dir
  return yield* new GoldError({
    // every way to give the gold: fetch it, name it, or point at a data store that holds it
    message: `${edition.id}: no gold given and none in the data store (${dir}); run \`stseval data fetch ${edition.id}\`, pass --gold <file|folder>, or point at a data store that has it with --data-root <folder> or the STSEVAL_DATA environment variable`
  })
})

/**
 * A folder that holds one run's files, not a submissions folder: it has a `run.json` or GLUE's
 * `STS-B.tsv`, or (folder edition) a file named like a dataset file or only plain files, so a run
 * with misnamed files is reported (`missing-dataset`) instead of read as a folder of nothing.
 */
const isRunFolder = Effect.fnUntraced(function* (edition: Registry.TaskEdition, dir: string) {
  const fs = yield* FileSystem.FileSystem
  const names = yield* fs.readDirectory(dir).pipe(Effect.orElseSucceed(() => [] as Array<string>))
  if (edition.submission === "file") return names.includes(Submissions.RUN_JSON) || names.includes(Glue.STSB_FILE)
  if (names.some((n) => Registry.datasetOfRunFile(edition, n) !== undefined)) return true
  const visible = names.filter((n) => !n.startsWith(".") && n !== "run.json" && !/\.zip$/i.test(n))
  if (visible.length === 0 || visible.length < names.filter((n) => !n.startsWith(".") && n !== "run.json").length) return false
  for (const n of visible) {
    const info = yield* fs.stat(nodePath.join(dir, n)).pipe(Effect.option)
    if (info._tag === "Some" && info.value.type !== "File") return false
  }
  return true
})

/**
 * A submissions folder given by path, checked before anything is read from it (`InputError`).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const folder = await Effect.runPromise(Engine.submissionsFolder("submissions").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.2.0
 */
export const submissionsFolder = Effect.fnUntraced(function* (folder: string) {
  const fs = yield* FileSystem.FileSystem
  const info = yield* fs.stat(folder).pipe(Effect.mapError(() => notFound(folder)))
  if (info.type !== "Directory") return yield* new InputError({ path: folder, reason: "is not a folder (a submissions folder holds one file, folder or zip per run)" })
  return folder
})

/**
 * The runs that paths name, in order: a run (file, zip, or a folder edition's run folder) or a
 * submissions folder's discovered runs. Fails with an `InputError` for a path that cannot be read.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * // one run file and a whole submissions folder: each run once, in order
 * const found = await Effect.runPromise(
 *   Engine.inputs(Registry.get("sick2014")!, ["extra/Team_run3.txt", "submissions"]).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.2.0
 */
export const inputs = Effect.fnUntraced(function* (edition: Registry.TaskEdition, paths: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  const one = (p: string) =>
    Effect.gen(function* () {
      const info = yield* fs.stat(p).pipe(Effect.mapError(() => notFound(p)))
      if (info.type === "Directory" && !(yield* isRunFolder(edition, p))) {
        return yield* Submissions.discover(p, edition).pipe(Effect.mapError((e) => new InputError({ path: p, reason: e.message })))
      }
      const run = yield* Submissions.loadRun(p, edition).pipe(Effect.mapError((e) => new InputError({ path: p, reason: e.message })))
      return { runs: [run], issues: [] } satisfies Submissions.Discovered
    })
  // Read concurrently (each read waits on the file system), reported in the order given: the
  // first path in that order that cannot be read is the error, whichever failed first in time.
  const each = yield* Effect.forEach(paths, (p) => Effect.result(one(p)), { concurrency: 16 })
  const runs: Array<Submissions.Submission> = []
  const issues: Array<Issue.Issue> = []
  for (const r of each) {
    if (r._tag === "Failure") return yield* Effect.fail(r.failure)
    runs.push(...r.success.runs)
    issues.push(...r.success.issues)
  }
  return { runs, issues } satisfies Submissions.Discovered
})

/**
 * One scored result: edition, gold, every run (scored or failed, with its aligned scores), the
 * ranking and the signature (JSON form: `ResultSchema.ScoredResults`).
 *
 * @since 0.2.0
 */
export interface Results extends Context {
  /** issues about the submissions as a whole (run limits, entries that are not runs) */
  readonly issues: ReadonlyArray<Issue.Issue>
  /** every run, scored or failed: the runs given by path in order, then those discovered in `folder` */
  readonly runs: ReadonlyArray<ScoredRun>
  readonly ranked: RankedResults<ScoredRun>
  readonly signature: Signature.Signature
}

/**
 * What `score` needs: the edition, its gold, the runs and how they are ranked.
 *
 * @since 0.2.0
 */
export interface ScoreOptions extends RankOptions<ScoredRun> {
  /** a built-in edition id (`sts2014`), the path of a user edition file, or an edition */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's folder in the data store */
  readonly gold?: string | undefined
  /**
   * a gold already built, scored against instead of reading `gold` (a sealed Codabench test phase holds its values back)
   * @since 0.3.0
   */
  readonly goldData?: Gold.Gold | undefined
  /** data store root for the default gold (default `DataStore.defaultRoot()`) */
  readonly dataRoot?: string | undefined
  /** runs (files, run folders, zips) or submissions folders, scored in the order given */
  readonly runs?: ReadonlyArray<string> | undefined
  /** a submissions folder: its runs are discovered (after `runs`, if both are given) */
  readonly folder?: string | undefined
  /** score a headerless SICK run whose columns are unambiguous, with a warning (default: an error, as the official scorer) */
  readonly lenient?: boolean | undefined
  /**
   * which figures of each scored dataset the caller will read (`FiguresRead`); default `"ranked"`
   * @since 0.6.0
   */
  readonly figuresRead?: FiguresRead | undefined
  /**
   * each run's budget and how many at once (`Isolation.Options`)
   * @since 0.3.0
   */
  readonly isolation?: Isolation.Options | undefined
}

/**
 * Score runs: load the edition, its gold and every run, score each independently, rank them
 * (`RankOptions`) and sign the result. Fails only on what stops everything (`EditionError`,
 * `GoldError`, `InputError`, `FolderError`).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const results = await Effect.runPromise(
 *   Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" }).pipe(Effect.provide(NodeServices.layer))
 * )
 *
 * results.ranked.rankings[0].entries.map((e) => [e.rank, e.meta.id]) // [[1, "MeaningFactory/run1"], ...]
 * ```
 * @since 0.2.0
 */
export const score = Effect.fnUntraced(function* (options: ScoreOptions) {
  const edition = typeof options.task === "string" ? yield* Registry.resolve(options.task) : options.task
  const budget = Isolation.budgetOf(options.isolation)
  const problem = Isolation.checkBudget(budget)
  if (problem !== undefined) return yield* new InputError({ path: "budget", reason: problem })
  const context: Context =
    options.goldData !== undefined
      ? { edition, gold: options.goldData, goldPath: undefined, lenient: options.lenient, figuresRead: options.figuresRead }
      : { ...(yield* loadContext({ task: edition, gold: yield* goldPath({ edition, gold: options.gold, dataRoot: options.dataRoot }) })), lenient: options.lenient, figuresRead: options.figuresRead }
  const groups: Array<Group> = []
  for (const p of options.runs ?? []) groups.push(yield* groupOf(edition, p))
  if (options.folder !== undefined) {
    const folder = options.folder
    const fail = (e: { readonly message: string }) => new FolderError({ folder, reason: e.message })
    groups.push(yield* folderGroup(yield* submissionsFolder(folder), fail))
  }
  const scored = yield* Groups.scoreGroups(context, groups, options.isolation ?? {})
  const runs = scored.flatMap((g) => g.runs)
  return {
    ...context,
    issues: scored.flatMap((g) => g.issues),
    runs,
    ranked: rank(runs, options),
    signature: Signature.make(edition, context.gold)
  } satisfies Results
})

// ---------------------------------------------------------------------------------------------
// Runs read a few at a time, each in isolation
// ---------------------------------------------------------------------------------------------

/** What `score` reads (`internal/groups.ts`), failing with the error a command names. */
type Group = Groups.Group<InputError | FolderError>

const folderGroup = (folder: string, fail: (e: { readonly message: string }) => InputError | FolderError) =>
  Effect.gen(function* () {
    const listing = yield* Submissions.listFolder(folder).pipe(Effect.mapError(fail))
    return { kind: "folder", folder, listing, within: yield* Submissions.folderWithin(folder), fail } satisfies Group
  })

/** A path given: a run, or a submissions folder of runs (`inputs`' rule). */
const groupOf = Effect.fnUntraced(function* (edition: Registry.TaskEdition, p: string) {
  const fs = yield* FileSystem.FileSystem
  const fail = (e: { readonly message: string }) => new InputError({ path: p, reason: e.message })
  const info = yield* fs.stat(p).pipe(Effect.mapError(() => notFound(p)))
  if (info.type === "Directory" && !(yield* isRunFolder(edition, p))) return yield* folderGroup(p, fail)
  return { kind: "run", path: p, fail } satisfies Group
})
