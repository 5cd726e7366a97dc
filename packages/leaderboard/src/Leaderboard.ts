/**
 * The leaderboard: a pure function of the published runs and the organiser's rules. Its JSON form,
 * `leaderboard.json` (docs/watch.md), holds no clock time, so the same folder gives the same bytes.
 * Ranking is `@stseval/scoring`'s `rank`.
 *
 * @since 0.1.0
 */
import { Issue, Submissions } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Rank, ResultJson, ResultSchema, Uncertainty } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { Schema } from "effect"
import { DatasetFigure, datasetFigures, OfficialFigure, officialFigures } from "./Scorer.js"
import type { RunOutcome } from "./Scorer.js"

/**
 * The format tag of `leaderboard.json`.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * const tag: "stseval/leaderboard@1" = Leaderboard.FORMAT // leaderboard.json's format
 * ```
 * @since 0.1.0
 */
export const FORMAT = "stseval/leaderboard@1"

/**
 * Marks on a run (`Rank.Flag`): `late` / `corrected` (printed `*`), `post-deadline` (a dagger),
 * `over-limit` (not ranked), `extra-primary` (ranked as an ordinary run).
 *
 * @since 0.1.0
 */
export type Flag = Rank.Flag

/**
 * A run as the watcher publishes it.
 *
 * @since 0.1.0
 */
export interface RunRecord {
  /** the run's name in the submissions folder (file, folder or zip name) */
  readonly entry: string
  readonly kind: "file" | "folder" | "zip"
  readonly team: string
  readonly run: number | undefined
  readonly primary: boolean
  readonly late: boolean
  readonly corrected: boolean
  /** declared post-deadline in its run.json (`"postDeadline": true`), whatever its submission time */
  readonly postDeadline?: boolean | undefined
  readonly description?: string | undefined
  /**
   * its run.json could not be used: who submitted it is unknown (`Submissions.RunMeta.identityUnknown`);
   * `team` is then its name, and it counts toward no team's run limit. @since 0.2.0
   */
  readonly identityUnknown?: true | undefined
  /** SHA-256 content hash of the run */
  readonly hash: string
  /** ms since the epoch: the run's submission time for the deadline rule (see docs/watch.md) */
  readonly submittedAt: number
  readonly outcome: RunOutcome
  /** the engine's scored run behind `outcome`, kept in memory (never written) with intervals on @since 0.2.0 */
  readonly scored?: ScoredRun.ScoredRun | undefined
}

/**
 * How a board ranks the runs: the task, the team run limit, the deadline after which runs are
 * listed but never ranked, primary runs only or all, and the scorer's signature it publishes.
 *
 * @since 0.1.0
 */
export interface BuildOptions {
  readonly task: string
  /** the scorer's signature (edition, gold, rule, engine), published with the board */
  readonly signature?: string | undefined
  readonly runLimit: number
  /** ms since the epoch */
  readonly deadline?: number | undefined
  /** rank primary runs only (default false: every run within the limit is ranked) */
  readonly primaryOnly?: boolean | undefined
}

const RunNumber = Schema.NullOr(Schema.Int).annotate({ description: "run number; null when the name has none" })
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const who = {
  id: Schema.String.annotate({ description: "the run's id, as `stseval rank` gives it: team/runN (the name without extension when it has no run number; ~2, ~3 on a clash)" }),
  team: Schema.String,
  run: RunNumber,
  primary: Schema.Boolean.annotate({ description: "the team's primary run (after the one-primary rule)" }),
  late: Schema.Boolean.annotate({ description: "late submission (run.json); printed *" }),
  corrected: Schema.Boolean.annotate({ description: "corrected resubmission (run.json); printed *" }),
  postDeadline: Schema.Boolean.annotate({ description: "after the deadline (run.json or its submission time); printed with a dagger" }),
  identityUnknown: ResultSchema.RunJson.fields.identityUnknown,
  flags: Schema.Array(ResultSchema.FlagJson)
}

/**
 * An official figure on the board: with intervals (`--ci`), its interval too (`ResultSchema.ciFields`).
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 * import { Schema } from "effect"
 *
 * const figure = Schema.decodeUnknownSync(Leaderboard.BoardFigure)({ ranking: "relatedness", metric: "pearson", value: 0.8264 })
 * ```
 * @since 0.2.0
 */
export const BoardFigure = Schema.Struct({ ...OfficialFigure.fields, ...ResultSchema.ciFields }).annotate({ identifier: "BoardFigure" })
/**
 * A dataset's figure on the board: with intervals (`--ci`), its interval too.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 * import { Schema } from "effect"
 *
 * const figure = Schema.decodeUnknownSync(Leaderboard.BoardDatasetFigure)({ dataset: "headlines", value: 0.7 })
 * ```
 * @since 0.2.0
 */
export const BoardDatasetFigure = Schema.Struct({ ...DatasetFigure.fields, ...ResultSchema.ciFields }).annotate({ identifier: "BoardDatasetFigure" })

/**
 * One run of `leaderboard.json`.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const failed: ReadonlyArray<Leaderboard.LeaderboardRun> = board.runs.filter((r) => r.status === "failed")
 * ```
 * @since 0.1.0
 */
export const LeaderboardRun = Schema.Struct({
  ...who,
  entry: Schema.String.annotate({ description: "the run's name in the submissions folder" }),
  kind: Schema.Literals(["file", "folder", "zip"]),
  status: Schema.Literals(["scored", "failed"]),
  failure: Schema.NullOr(Schema.String).annotate({ description: "why the run failed" }),
  hash: Schema.String.annotate({ description: "SHA-256 of the run's content" }),
  official: Schema.Array(BoardFigure).annotate({ description: "empty in the hidden phase's public view" }),
  datasets: Schema.Array(BoardDatasetFigure).annotate({
    description: "per-dataset figures (each dataset's ranked metric: Pearson on STS, Spearman on SemRel), in the edition's order; empty for a one-dataset edition and in the hidden phase's public view"
  }),
  errors: Schema.Array(Issue.Issue),
  warnings: Schema.Array(Issue.Issue).annotate({ description: "empty in the hidden phase's public view" })
}).annotate({ identifier: "LeaderboardRun" })
/** @since 0.1.0 */
export type LeaderboardRun = typeof LeaderboardRun.Type

/**
 * One row of a ranking.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const first: Leaderboard.LeaderboardEntry | undefined = board.rankings[0]?.entries[0]
 * ```
 * @since 0.1.0
 */
export const LeaderboardEntry = Schema.Struct({
  rank: Schema.NullOr(Schema.Int).annotate({ description: "1-based competition rank; null when not ranked (reason says why)" }),
  ...who,
  value: Schema.NullOr(Schema.Finite),
  ...ResultSchema.ciFields,
  rankInterval: Schema.optionalKey(ResultSchema.RankIntervalJson),
  overlapsBest: Schema.optionalKey(Schema.Boolean.annotate({ description: "with --ci: its rank interval overlaps the rank interval of a run ranked first" })),
  reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "LeaderboardEntry" })
/** @since 0.1.0 */
export type LeaderboardEntry = typeof LeaderboardEntry.Type

/**
 * One ranking of the board: its name and metric, its entries (ranked runs best first, then the runs
 * not ranked) and, with `--ci`, the runs whose rank interval overlaps the best run's.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const relatedness: Leaderboard.Ranking | undefined = board.rankings.find((r) => r.ranking === "relatedness")
 * ```
 * @since 0.1.0
 */
export const Ranking = Schema.Struct({
  ranking: Schema.String,
  metric: Schema.String,
  bestGroup: Schema.optionalKey(
    Schema.Array(Schema.String).annotate({ description: "with --ci: ids of the runs whose rank interval overlaps the best run's, by rank" })
  ),
  entries: Schema.Array(LeaderboardEntry).annotate({ description: "ranked entries (best first), then the runs not ranked" })
})
/** @since 0.1.0 */
export type Ranking = typeof Ranking.Type

/**
 * The content of `leaderboard.json` (and, with `view: "public"`, `leaderboard.public.json`).
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Leaderboard } from "@stseval/leaderboard"
 * import { Schema } from "effect"
 *
 * // leaderboard.json, as the watcher writes it, read back through its Schema
 * const board: Leaderboard.Leaderboard = Schema.decodeUnknownSync(Leaderboard.Leaderboard)(JSON.parse(fs.readFileSync("board/leaderboard.json", "utf8")))
 * ```
 * @since 0.1.0
 */
export const Leaderboard = Schema.Struct({
  format: Schema.Literal(FORMAT),
  view: Schema.Literals(["full", "public"]).annotate({ description: "full: leaderboard.json; public: leaderboard.public.json" }),
  hidden: Schema.Boolean.annotate({ description: "hidden phase: the public view has no figures and no ranks" }),
  task: Schema.String.annotate({ description: "task edition id" }),
  signature: Schema.String.annotate({ description: "what the runs were scored with: edition@hash|gold:hash|agg:rule|engine@version" }),
  runLimit: Count.annotate({ description: "runs per team" }),
  deadline: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 instant, or null" }),
  primaryOnly: Schema.Boolean,
  counts: Schema.Struct({ runs: Count, scored: Count, failed: Count, ranked: Count }),
  rankings: Schema.Array(Ranking).annotate({ description: "one per official figure; empty in the hidden phase's public view" }),
  runs: Schema.Array(LeaderboardRun).annotate({ description: "every published run, by team, run number, name" }),
  /** with --ci: the intervals' settings and signature; absent in the hidden phase's public view */
  intervals: Schema.optionalKey(ResultSchema.IntervalsJson),
  marks: Schema.optionalKey(
    Schema.Array(Marks.FigureMarksJson).annotate({
      description:
        "the tied-with-best marks of every figure (each ranking's official figure, each dataset's ranked metric), as `stseval report` prints them bold (`@stseval/scoring/Marks`); absent until every scored run's aligned scores are in memory, and in the hidden phase's public view"
    })
  )
}).annotate({ identifier: "Leaderboard", title: "stseval watch: leaderboard.json and leaderboard.public.json (stseval/leaderboard@1)" })
/** @since 0.1.0 */
export type Leaderboard = typeof Leaderboard.Type

/**
 * A run of the board as `Rank.rank` ranks it: its record, and its figures as the ranking reads them.
 *
 * @since 0.4.0
 */
export interface BoardRun extends Rank.Rankable {
  readonly record: RunRecord
  /** the official figures as `leaderboard.json` lists them; `official` is read from the same JSON (`ResultJson.rankFigure`) */
  readonly listed: ReadonlyArray<OfficialFigure>
}

/**
 * The board and the ranking it was made from, so its marks and intervals neither re-rank nor
 * re-read the board's JSON.
 *
 * @since 0.4.0
 */
export interface Ranked {
  readonly board: Leaderboard
  readonly ranking: Rank.RankedResults<BoardRun>
}

/**
 * The leaderboard of the published runs and the ranking it was made from: `@stseval/scoring`'s
 * `rank` (the tie rule of `stseval rank`), with ids from `Submissions.assignIds`. Runs beyond
 * `runLimit` in run-number order are flagged `over-limit` (a failed run takes its place: the team
 * can replace it); of a team's primary runs the lowest number keeps it, the others `extra-primary`.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const records: ReadonlyArray<Leaderboard.RunRecord>
 * // ranked with the scoring package's rank: one tie rule, the run limit, post-deadline runs listed and never ranked
 * const { board } = Leaderboard.rankRuns(records, { task: "sick2014", runLimit: 5 })
 * ```
 * @since 0.4.0
 */
export const rankRuns = (records: ReadonlyArray<RunRecord>, options: BuildOptions): Ranked => {
  const sorted = [...records].sort((a, b) =>
    Submissions.compareRuns({ team: a.team, run: a.run, name: a.entry }, { team: b.team, run: b.run, name: b.entry })
  )
  const ids = Submissions.assignIds(sorted.map((r) => ({ team: r.team, run: r.run, name: r.entry, identityUnknown: r.identityUnknown })))
  const rankable = sorted.map((r, i): BoardRun => {
    const listed = officialFigures(r.outcome)
    return {
      record: r,
      listed,
      meta: {
        id: ids[i],
        team: r.team,
        run: r.run,
        primary: r.primary,
        late: r.late,
        corrected: r.corrected,
        postDeadline: r.postDeadline === true || (options.deadline !== undefined && r.submittedAt > options.deadline),
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(r.identityUnknown === true ? { identityUnknown: true as const } : {})
      },
      status: r.outcome.status,
      failure: r.outcome.failure,
      official: r.outcome.official.map(ResultJson.rankFigure)
    }
  })
  const primaryOnly = options.primaryOnly ?? false
  const ranked = Rank.rank(rankable, {
    primaryOnly,
    runLimit: options.runLimit,
    onePrimary: true
  })
  // names that are one team (`Submissions.teamKey`) are said so on each of the team's runs
  const merged = new Map(ranked.merged.map((m) => [m.team, m.spellings]))
  const mergedWarning = (entry: string, team: string): ReadonlyArray<Issue.Issue> => {
    const spellings = merged.get(team)
    return spellings === undefined
      ? []
      : [Issue.warning("run-limit", entry, `team names ${spellings.map((t) => JSON.stringify(t)).join(", ")} are one team, "${team}", for the run limit and the one primary run`)]
  }
  const runs: Array<LeaderboardRun> = ranked.standings.map(({ run: { record: r, meta, listed }, primary, flags, team }) => ({
    id: meta.id,
    entry: r.entry,
    kind: r.kind,
    team,
    run: r.run ?? null,
    primary,
    late: meta.late,
    corrected: meta.corrected,
    postDeadline: meta.postDeadline,
    ...(meta.identityUnknown === true ? { identityUnknown: true as const } : {}),
    status: r.outcome.status,
    failure: r.outcome.failure ?? null,
    hash: r.hash,
    flags,
    official: listed,
    datasets: datasetFigures(r.outcome),
    errors: r.outcome.errors,
    warnings: [...r.outcome.warnings, ...mergedWarning(r.entry, team)]
  }))
  const rankedIds = new Set<string>()
  const rankings = ranked.rankings.map((k): Ranking => ({
    ranking: k.ranking,
    metric: k.metric,
    entries: k.entries.map((e): LeaderboardEntry => {
      if (e.rank !== undefined) rankedIds.add(e.meta.id)
      return { ...ResultJson.entryJson(e), reason: e.reason ?? null }
    })
  }))
  const board: Leaderboard = {
    format: FORMAT,
    view: "full",
    hidden: false,
    task: options.task,
    signature: options.signature ?? "",
    runLimit: options.runLimit,
    deadline: options.deadline !== undefined ? new Date(options.deadline).toISOString() : null,
    primaryOnly,
    counts: {
      runs: runs.length,
      scored: runs.filter((r) => r.status === "scored").length,
      failed: runs.filter((r) => r.status === "failed").length,
      ranked: rankedIds.size
    },
    rankings,
    runs
  }
  return { board, ranking: ranked }
}

/**
 * The board alone (`rankRuns`'s).
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const records: ReadonlyArray<Leaderboard.RunRecord>
 * const board = Leaderboard.build(records, { task: "sick2014", runLimit: 5 })
 * ```
 * @since 0.1.0
 */
export const build = (records: ReadonlyArray<RunRecord>, options: BuildOptions): Leaderboard => rankRuns(records, options).board

/**
 * Intervals on every figure and rank of a board (`--ci`): `Uncertainty.compute`, as `rank --ci`,
 * over the board's scored runs by board id, ranking the runs the board ranks (a run over the limit
 * gets intervals on its figures, none on a rank). No Spearman pass: the board shows none.
 * Undefined while a run's `scored` run is not in memory (after a restart): intervals over some of
 * the runs would give wrong rank intervals.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const records: ReadonlyArray<Leaderboard.RunRecord> // with their scored runs
 * const ranked = Leaderboard.rankRuns(records, { task: "sick2014", runLimit: 5 })
 * const iv = Leaderboard.intervals(ranked, Registry.get("sick2014")!, { level: 0.95, resamples: 1000, seed: 12345 })
 * ```
 * @since 0.2.0
 */
export const intervals = (ranked: Ranked, edition: Registry.TaskEdition, options: Uncertainty.Options): Uncertainty.ResultIntervals | Uncertainty.Invalid | undefined => {
  const runs = scoredRuns(ranked)
  if (runs === undefined) return undefined
  const ids = [...new Set(ranked.ranking.rankings.flatMap((k) => k.entries.flatMap((e) => (e.rank !== undefined ? [e.meta.id] : []))))]
  return Uncertainty.compute({ edition, runs: [...runs.values()] }, { ...options, ranked: ids, others: false })
}

/** The engine's scored runs of the board's, by board run, named by their board ids; undefined while one is not in memory (after a restart). */
const scoredRuns = (ranked: Ranked): ReadonlyMap<BoardRun, ScoredRun.ScoredRun> | undefined => {
  const runs = new Map<BoardRun, ScoredRun.ScoredRun>()
  for (const { run } of ranked.ranking.standings) {
    if (run.status !== "scored") continue
    const scored = run.record.scored
    if (scored === undefined) return undefined
    runs.set(run, { ...scored, meta: { ...scored.meta, id: run.meta.id } })
  }
  return runs
}

/**
 * The tied-with-best marks of a board (`Marks.compute`, what `report` prints bold) on the board's
 * own ranking (`rankRuns`: `Rank.rank` over the outcomes), never another. Undefined while a scored
 * run of the board has no `scored` run in memory.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const records: ReadonlyArray<Leaderboard.RunRecord> // the watcher's published runs
 * const edition = Registry.get("sts2017")!
 * const ranked = Leaderboard.rankRuns(records, { task: edition.id, runLimit: edition.runLimit })
 * const marks = Leaderboard.marks(ranked, edition)
 * const withMarks = marks !== undefined ? Leaderboard.withMarks(ranked.board, marks) : ranked.board
 * ```
 * @since 0.3.0
 */
export const marks = (ranked: Ranked, edition: Registry.TaskEdition, options: Marks.Options = {}): Marks.Marks | undefined => {
  const runs = scoredRuns(ranked)
  if (runs === undefined) return undefined
  const rankings = ranked.ranking.rankings.map((k) => ({
    ...k,
    entries: k.entries.flatMap((e) => {
      const run = runs.get(e.run)
      // a failed run has no figure to compare
      return run === undefined ? [] : [{ ...e, run, meta: run.meta }]
    })
  }))
  return Marks.compute({ edition, runs: [...runs.values()], ranked: { ...ranked.ranking, rankings, standings: [] } }, options)
}

/**
 * The board with its marks (`leaderboard.json`'s `marks`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const records: ReadonlyArray<Leaderboard.RunRecord> // the watcher's published runs
 * const edition = Registry.get("sts2017")!
 * const ranked = Leaderboard.rankRuns(records, { task: edition.id, runLimit: edition.runLimit })
 * const marks = Leaderboard.marks(ranked, edition)
 * const tied = marks !== undefined ? Leaderboard.withMarks(ranked.board, marks).marks?.find((m) => m.key === "aggregate:official")?.tied : undefined
 * ```
 * @since 0.3.0
 */
export const withMarks = (board: Leaderboard, m: Marks.Marks): Leaderboard => ({ ...board, marks: m.figures.map(Marks.toJson) })

/**
 * The board with its intervals: each figure's `ci` (`ResultJson.ciOf`, as `rank --json`), each ranked
 * entry's `rankInterval` and `overlapsBest`, each ranking's `bestGroup`, and the settings once.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard } from "@stseval/leaderboard"
 * import { Uncertainty } from "@stseval/scoring"
 *
 * declare const ranked: Leaderboard.Ranked
 * const iv = Leaderboard.intervals(ranked, Registry.get("sick2014")!, { level: 0.95 })
 * const shown = iv === undefined || Uncertainty.isError(iv) ? ranked.board : Leaderboard.withIntervals(ranked.board, iv)
 * ```
 * @since 0.2.0
 */
export const withIntervals = (board: Leaderboard, iv: Uncertainty.ResultIntervals): Leaderboard => ({
  ...board,
  rankings: board.rankings.map((k) => ({
    ranking: k.ranking,
    metric: k.metric,
    bestGroup: [...Uncertainty.bestGroup(iv, k.ranking)],
    entries: k.entries.map(({ reason, ...e }): LeaderboardEntry => {
      const ri = Uncertainty.runIntervals(iv, k.ranking, e.id)
      return {
        ...e,
        ...ResultJson.ciOf(ri?.official),
        ...(ri?.rankInterval !== undefined ? { rankInterval: { low: ri.rankInterval.low, high: ri.rankInterval.high }, overlapsBest: ri.overlapsBest } : {}),
        reason
      }
    })
  })),
  runs: board.runs.map((r) => ({
    ...r,
    official: r.official.map((o) => ({ ...o, ...ResultJson.ciOf(Uncertainty.rankedFigure(iv, o.ranking, r.id)) })),
    datasets: r.datasets.map((d) => ({ ...d, ...ResultJson.ciOf(Uncertainty.datasetFigure(iv, r.id, d.dataset, d.metric)) }))
  })),
  intervals: ResultJson.intervalsToJson(iv)
})

/**
 * What participants see (`leaderboard.public.*`). Outside the hidden phase it is the full board.
 * In the hidden phase it carries each run's validation status only: no rankings, no figures, and
 * no warnings (a warning can reveal a figure); errors stay, since they tell a team what to fix.
 *
 * @example
 * ```ts
 * import { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * // the hidden phase: each run's validation status, no scores
 * const published = Leaderboard.publicView(board, true)
 * ```
 * @since 0.1.0
 */
export const publicView = (board: Leaderboard, hidden: boolean): Leaderboard => {
  if (!hidden) return { ...board, view: "public", hidden: false }
  // no intervals nor marks either: they name runs and their figures
  const { intervals: _intervals, marks: _marks, ...rest } = board
  return {
    ...rest,
    view: "public",
    hidden: true,
    counts: { ...board.counts, ranked: 0 },
    rankings: [],
    runs: board.runs.map((r) => ({ ...r, official: [], datasets: [], warnings: [] }))
  }
}

