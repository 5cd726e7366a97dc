/**
 * The leaderboard: a pure function of the published runs and the organiser's rules (run limit per
 * team, one primary run per team, deadline). Its JSON form is `leaderboard.json`, documented in
 * docs/watch.md; it holds no clock time, so the same folder always gives the same bytes.
 *
 * Ranking follows `@stseval/scoring`'s `rank`: per ranking, by the official figure (higher first),
 * ties share a rank (1, 2, 2, 4), then by team, run number and run name; failed runs and runs
 * without a figure are listed with the reason, never ranked.
 *
 * @since 0.1.0
 */
import { Submissions } from "@stseval/formats"
import type { Issue } from "@stseval/formats"
import { MetricValue } from "@stseval/metrics"
import { Rank } from "@stseval/scoring"
import type { OfficialFigure, RunOutcome } from "./Scorer.js"

/** The format tag of `leaderboard.json`. @since 0.1.0 */
export const FORMAT = "stseval/leaderboard@1"

/**
 * Marks on a run: `late` / `corrected` (from run.json; published tables print `*`),
 * `post-deadline` (submitted after the deadline; printed `†`), `over-limit` (beyond the team's run
 * limit: not ranked), `extra-primary` (the team already has a primary run: this one is ranked as an
 * ordinary run).
 *
 * @since 0.1.0
 */
export type Flag = Rank.Flag

/** A run as the watcher publishes it. @since 0.1.0 */
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
  /** SHA-256 content hash of the run */
  readonly hash: string
  /** ms since the epoch: the run's submission time for the deadline rule (see docs/watch.md) */
  readonly submittedAt: number
  readonly outcome: RunOutcome
}

/** @since 0.1.0 */
export interface BuildOptions {
  readonly task: string
  readonly runLimit: number
  /** ms since the epoch */
  readonly deadline?: number | undefined
  /** `mark` (default): post-deadline runs are ranked and marked `†`; `exclude`: listed, not ranked */
  readonly postDeadline?: "mark" | "exclude" | undefined
  /** rank primary runs only (default false: every run within the limit is ranked) */
  readonly primaryOnly?: boolean | undefined
}

/** One run of `leaderboard.json`. @since 0.1.0 */
export interface LeaderboardRun {
  /** `team/runN` (`team/<name>` without a run number; `~2`, `~3` on a clash) */
  readonly id: string
  readonly entry: string
  readonly kind: "file" | "folder" | "zip"
  readonly team: string
  readonly run: number | null
  /** the run counts as the team's primary run (after the one-primary rule) */
  readonly primary: boolean
  readonly status: "scored" | "failed"
  readonly failure: string | null
  readonly hash: string
  readonly flags: ReadonlyArray<Flag>
  readonly official: ReadonlyArray<OfficialFigure>
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: ReadonlyArray<Issue.Issue>
}

/** One row of a ranking. @since 0.1.0 */
export interface LeaderboardEntry {
  /** 1-based; `null` when not ranked (then `reason` says why) */
  readonly rank: number | null
  readonly id: string
  readonly team: string
  readonly run: number | null
  readonly primary: boolean
  readonly value: number | null
  readonly reason: string | null
  readonly flags: ReadonlyArray<Flag>
}

/** @since 0.1.0 */
export interface Ranking {
  readonly ranking: string
  readonly metric: string
  /** ranked entries (best first), then the runs that are not ranked */
  readonly entries: ReadonlyArray<LeaderboardEntry>
}

/** The content of `leaderboard.json` (and, with `view: "public"`, `leaderboard.public.json`). @since 0.1.0 */
export interface Leaderboard {
  readonly format: typeof FORMAT
  /** `full`: the organisers' view; `public`: what participants see */
  readonly view: "full" | "public"
  /** hidden phase: the public view carries validation status only, no figures and no ranks */
  readonly hidden: boolean
  readonly task: string
  readonly runLimit: number
  readonly deadline: string | null
  readonly primaryOnly: boolean
  readonly counts: { readonly runs: number; readonly scored: number; readonly failed: number; readonly ranked: number }
  readonly rankings: ReadonlyArray<Ranking>
  /** every published run, sorted by team, run number, name */
  readonly runs: ReadonlyArray<LeaderboardRun>
}

const figureOf = (o: OfficialFigure): Rank.Figure => ({
  ranking: o.ranking,
  metric: o.metric,
  value: o.value !== null ? MetricValue.defined(o.value) : MetricValue.undefined_(o.reason ?? "not computed")
})

/**
 * Build the leaderboard from the published runs, ranked by `@stseval/scoring`'s `rank` (the same
 * ranking and tie rule as `stseval rank` and `stseval report`), with ids from `Submissions.assignIds`
 * (the same ids as `stseval rank` gives the same folder).
 *
 * Run limit: a team's runs are taken in run-number order (then by name); those beyond `runLimit`
 * are flagged `over-limit` and not ranked (a failed run still takes its place: the team can replace
 * or delete it). One primary per team: among the runs within the limit marked primary, the lowest
 * run number keeps it; the others are flagged `extra-primary` and ranked as ordinary runs.
 *
 * @since 0.1.0
 */
export const build = (records: ReadonlyArray<RunRecord>, options: BuildOptions): Leaderboard => {
  const sorted = [...records].sort((a, b) =>
    Submissions.compareRuns({ team: a.team, run: a.run, name: a.entry }, { team: b.team, run: b.run, name: b.entry })
  )
  const ids = Submissions.assignIds(sorted.map((r) => ({ team: r.team, run: r.run, name: r.entry })))
  const rankable = sorted.map((r, i) => ({
    record: r,
    meta: {
      id: ids[i],
      team: r.team,
      run: r.run,
      primary: r.primary,
      late: r.late,
      corrected: r.corrected,
      postDeadline: r.postDeadline === true || (options.deadline !== undefined && r.submittedAt > options.deadline),
      ...(r.description !== undefined ? { description: r.description } : {})
    },
    status: r.outcome.status,
    failure: r.outcome.failure,
    official: r.outcome.official.map(figureOf)
  }))
  const primaryOnly = options.primaryOnly ?? false
  const ranked = Rank.rank(rankable, {
    primaryOnly,
    runLimit: options.runLimit,
    onePrimary: true,
    postDeadline: options.postDeadline ?? "mark"
  })
  const runs: Array<LeaderboardRun> = ranked.standings.map(({ run: { record: r, meta }, primary, flags }) => ({
    id: meta.id,
    entry: r.entry,
    kind: r.kind,
    team: r.team,
    run: r.run ?? null,
    primary,
    status: r.outcome.status,
    failure: r.outcome.failure ?? null,
    hash: r.hash,
    flags,
    official: r.outcome.official,
    errors: r.outcome.errors,
    warnings: r.outcome.warnings
  }))
  const rankedIds = new Set<string>()
  const rankings = ranked.rankings.map((k): Ranking => ({
    ranking: k.ranking,
    metric: k.metric,
    entries: k.entries.map((e): LeaderboardEntry => {
      if (e.rank !== undefined) rankedIds.add(e.meta.id)
      return {
        rank: e.rank ?? null,
        id: e.meta.id,
        team: e.meta.team,
        run: e.meta.run ?? null,
        primary: e.primary,
        value: e.value._tag === "Defined" ? e.value.value : null,
        reason: e.reason ?? null,
        flags: e.flags
      }
    })
  }))
  return {
    format: FORMAT,
    view: "full",
    hidden: false,
    task: options.task,
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
}

/**
 * What participants see (`leaderboard.public.*`). Outside the hidden phase it is the full board.
 * In the hidden phase it carries each run's validation status only: no rankings, no figures, and
 * no warnings (a warning can reveal a figure); errors stay, since they tell a team what to fix.
 *
 * @since 0.1.0
 */
export const publicView = (board: Leaderboard, hidden: boolean): Leaderboard =>
  !hidden
    ? { ...board, view: "public", hidden: false }
    : {
        ...board,
        view: "public",
        hidden: true,
        counts: { ...board.counts, ranked: 0 },
        rankings: [],
        runs: board.runs.map((r) => ({ ...r, official: [], warnings: [] }))
      }
