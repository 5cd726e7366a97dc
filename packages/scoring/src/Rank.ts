/**
 * The one ranking of stseval: `rank`, `report` and the live leaderboard (`watch`) all call it.
 *
 * One ranking per official figure, as the papers' tables do, or per figure the caller names
 * (`by`), each in its metric's direction. Runs that failed, have no figure, are beyond their team's
 * run limit or came after the deadline are listed with the reason but never ranked: a late run
 * never pushes a ranked one down. A run of unknown identity belongs to no team (no run limit, no
 * team's primary) and is listed in every ranking, never ranked.
 *
 * Ties: standard competition ranking (1, 2, 2, 4), equal figures listed by team, run number and id
 * (`Submissions.compareRuns`), so the same runs come out in the same order on every machine.
 *
 * @since 0.1.0
 */
import { Submissions } from "@stseval/formats"
import type { MetricValue } from "@stseval/metrics"
import type { RunInfo } from "./Validation.js"

/**
 * Marks on a run: `late` / `corrected` (run.json; printed `*`), `post-deadline` (printed with a
 * dagger), `over-limit` (not ranked), `extra-primary` (ranked as an ordinary run), `zeroed` (a
 * missing or failed dataset counted as 0 under `missingDataset: zero`).
 *
 * @since 0.2.0
 */
export type Flag = "late" | "corrected" | "post-deadline" | "over-limit" | "extra-primary" | "zeroed"

/**
 * A figure a ranking orders by.
 *
 * @since 0.2.0
 */
export interface Figure {
  /** ranking name: `official` (STS), `relatedness` or `entailment` (SICK), or a table column */
  readonly ranking: string
  /** the metric of the figure: `pearson`, `accuracy`, `kendall`, `mse`... */
  readonly metric: string
  /** `lower`: smaller is better (an MSE); default `higher` */
  readonly direction?: "higher" | "lower" | undefined
  /** how the figure combines datasets (`wmean`, `mean`, `single`...), when it is an official figure */
  readonly rule?: string | undefined
  readonly value: MetricValue.MetricValue
  /**
   * the datasets the figure counts as the metric's missing value (r = 0) under `missingDataset:
   * zero`, each with why it has no figure (not submitted, or failed on an error): the run is
   * flagged `zeroed` @since 0.4.0
   */
  readonly zeroed?: ReadonlyArray<{ readonly dataset: string; readonly reason: string }> | undefined
}

/**
 * What `rank` needs of a run: who submitted it, whether it was scored, and its figures.
 *
 * @since 0.2.0
 */
export interface Rankable {
  readonly meta: RunInfo
  readonly status: "scored" | "failed"
  readonly failure: string | undefined
  /** the official figures, one per ranking, each in its metric's direction */
  readonly official: ReadonlyArray<Figure>
  /** when given, every run must be of the same edition */
  readonly edition?: string | undefined
}

/**
 * A ranking by a figure of the caller's choice (e.g. a table column).
 *
 * @since 0.2.0
 */
export interface By<R> {
  readonly ranking: string
  readonly metric: string
  /** how the figure combines datasets, when it is an official figure */
  readonly rule?: string | undefined
  readonly value: (run: R) => MetricValue.MetricValue | undefined
  /** MSE: smaller is better */
  readonly lowerIsBetter?: boolean | undefined
}

/**
 * How the runs are ranked (primary only, per-team limit, one primary, by which figures).
 *
 * @since 0.1.0
 */
export interface RankOptions<R = Rankable> {
  /** rank primary runs only (default true, as the papers' tables); others are counted in `excluded` */
  readonly primaryOnly?: boolean | undefined
  /** runs per team: those beyond it are flagged `over-limit`, not ranked (a failed run takes its place); default none */
  readonly runLimit?: number | undefined
  /** one primary run per team: the others are flagged `extra-primary` and ranked as ordinary runs; default false */
  readonly onePrimary?: boolean | undefined
  /** rank by these figures instead of the official ones */
  readonly by?: ReadonlyArray<By<R>> | undefined
}

/**
 * Where a run stands before any ranking: its effective primary flag and its marks.
 *
 * @since 0.2.0
 */
export interface Standing<R> {
  readonly run: R
  /** the run counts as its team's primary run (after the one-primary rule) */
  readonly primary: boolean
  readonly flags: ReadonlyArray<Flag>
  /** the team's name as shown: the first spelling in run order of its `Submissions.teamKey` */
  readonly team: string
}

/**
 * Team names that are one team (`Submissions.teamKey`): the name shown and every spelling seen.
 *
 * @since 0.2.0
 */
export interface MergedTeam {
  readonly team: string
  readonly spellings: ReadonlyArray<string>
}

/**
 * One run in a ranking: its rank (or why it has none), identity, flags and figure.
 *
 * @since 0.1.0
 */
export interface RankEntry<R = Rankable> {
  /** 1-based rank; `undefined` when the run is not ranked (then `reason` says why) */
  readonly rank: number | undefined
  readonly run: R
  readonly meta: RunInfo
  /** effective primary flag (see `Standing`) */
  readonly primary: boolean
  readonly flags: ReadonlyArray<Flag>
  readonly value: MetricValue.MetricValue
  readonly reason: string | undefined
}

/**
 * One ranking: the figure it orders the runs by, its direction, and its entries, ranked first.
 *
 * @since 0.1.0
 */
export interface Ranking<R = Rankable> {
  /** `official`, `relatedness`, `entailment`, or the `by` ranking's name */
  readonly ranking: string
  /** the metric of the figure ranked: `pearson`, `accuracy`, `kendall`... */
  readonly metric: string
  /** how that figure combines datasets (`wmean`, `mean`, `pooled`, `allnrm`, `single`, `dataset`), when known */
  readonly rule?: string | undefined
  readonly lowerIsBetter: boolean
  /** ranked entries first (best first), then the runs that are not ranked */
  readonly entries: ReadonlyArray<RankEntry<R>>
}

/**
 * Every ranking of one edition's runs, with each run's standing, the runs left out as not primary
 * and the team names merged as one.
 *
 * @since 0.1.0
 */
export interface RankedResults<R = Rankable> {
  readonly edition: string | undefined
  readonly primaryOnly: boolean
  readonly runLimit: number | undefined
  readonly rankings: ReadonlyArray<Ranking<R>>
  /** every run given, in run order (team, run number, id), with its effective primary flag and marks */
  readonly standings: ReadonlyArray<Standing<R>>
  /** runs left out because they are not primary (`primaryOnly`) */
  readonly excluded: number
  /** team names written differently that were counted as one team (empty when none) */
  readonly merged: ReadonlyArray<MergedTeam>
}

/**
 * The order of runs whose figures tie, and of `standings`: `Submissions.compareRuns`.
 *
 * @example
 * ```ts
 * import { Engine, Rank } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * // the one run order of every output: team (code points), run number, id
 * const ordered = [...results.runs].sort((a, b) => Rank.compareRuns(a.meta, b.meta))
 * ```
 * @since 0.2.0
 */
export const compareRuns = (a: RunInfo, b: RunInfo): number =>
  Submissions.compareRuns({ team: a.team, run: a.run, name: a.id }, { team: b.team, run: b.run, name: b.id })

// An entry shows its team under the name the team was first seen with.
const metaOf = <R extends { readonly meta: RunInfo }>(s: Standing<R>): RunInfo =>
  s.team === s.run.meta.team ? s.run.meta : { ...s.run.meta, team: s.team }

const noFigure: MetricValue.MetricValue = { _tag: "Undefined", reason: "not computed" }

/**
 * The standings of runs in run order, each with its flags and effective primary flag.
 *
 * @example
 * ```ts
 * import { Engine, Rank } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * // which runs count: the run limit applied, a team's extra primary runs flagged
 * const counted = Rank.standings(results.runs, { runLimit: 5, onePrimary: true })
 * ```
 * @since 0.2.0
 */
export const standings = <R extends { readonly meta: RunInfo }>(
  runs: ReadonlyArray<R>,
  options: Pick<RankOptions, "runLimit" | "onePrimary"> = {}
): ReadonlyArray<Standing<R>> => {
  const sorted = [...runs].sort((a, b) => compareRuns(a.meta, b.meta))
  // keyed by team identity, not spelling: `Ecnu` and `ECNU ` share ECNU's run limit
  const perTeam = new Map<string, number>()
  const shown = new Map<string, string>()
  const primaryTaken = new Set<string>()
  return sorted.map((run): Standing<R> => {
    const m = run.meta
    // who submitted it is unknown: it counts for no team (limit, primary, merged spellings)
    if (m.identityUnknown === true) return { run, primary: false, flags: [], team: m.team }
    const key = Submissions.teamKey(m.team)
    const team = shown.get(key) ?? m.team
    shown.set(key, team)
    const index = (perTeam.get(key) ?? 0) + 1
    perTeam.set(key, index)
    const flags: Array<Flag> = []
    if (m.late) flags.push("late")
    if (m.corrected) flags.push("corrected")
    if (m.postDeadline) flags.push("post-deadline")
    // a figure with a zero standing in for a dataset it lacks: ranked (the official rule) and marked
    if ("official" in run && (run.official as ReadonlyArray<Figure>).some((o) => (o.zeroed?.length ?? 0) > 0)) flags.push("zeroed")
    const overLimit = options.runLimit !== undefined && index > options.runLimit
    if (overLimit) flags.push("over-limit")
    let primary = m.primary
    if (options.onePrimary === true) {
      primary = false
      if (m.primary && !overLimit) {
        if (primaryTaken.has(key)) flags.push("extra-primary")
        else {
          primaryTaken.add(key)
          primary = true
        }
      }
    }
    return { run, primary, flags, team }
  })
}

/**
 * The team names of `standings` that were counted as one team, with every spelling in run order.
 *
 * @example
 * ```ts
 * import { Engine, Rank } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const merged = Rank.mergedTeams(Rank.standings(results.runs))
 * merged.map((t) => `${t.team}: ${t.spellings.join(", ")}`)
 * ```
 * @since 0.2.0
 */
export const mergedTeams = <R extends { readonly meta: RunInfo }>(all: ReadonlyArray<Standing<R>>): ReadonlyArray<MergedTeam> => {
  const spellings = new Map<string, Array<string>>()
  for (const s of all) {
    if (s.run.meta.identityUnknown === true) continue
    const seen = spellings.get(s.team) ?? []
    if (!seen.includes(s.run.meta.team)) seen.push(s.run.meta.team)
    spellings.set(s.team, seen)
  }
  return [...spellings].filter(([, names]) => names.length > 1).map(([team, names]) => ({ team, spellings: names }))
}

/**
 * Rank runs of one edition. Throws a RangeError when the runs say they come from different
 * editions (a programmer error: rank each edition separately).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine, Rank } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const results = await Effect.runPromise(
 *   Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * // every run, not only primary runs; competition ranking (1, 2, 2, 4)
 * const ranked = Rank.rank(results.runs, { primaryOnly: false })
 * const table = ranked.rankings[0].entries.map((e) => [e.rank, e.meta.id])
 * ```
 * @since 0.1.0
 */
export const rank = <R extends Rankable>(runs: ReadonlyArray<R>, options: RankOptions<R> = {}): RankedResults<R> => {
  const primaryOnly = options.primaryOnly ?? true
  const editions = [...new Set(runs.flatMap((r) => (r.edition !== undefined ? [r.edition] : [])))]
  if (editions.length > 1) throw new RangeError(`rank: runs of several editions (${editions.join(", ")}); rank each edition separately`)
  const all = standings(runs, options)
  // a run of unknown identity may be anyone's primary run: it is listed (never ranked) either way
  const pool = primaryOnly ? all.filter((s) => s.primary || s.run.meta.identityUnknown === true) : all
  const figures: ReadonlyArray<By<R>> =
    options.by ??
    (() => {
      const names: Array<By<R>> = []
      for (const r of runs) {
        for (const o of r.official) {
          if (!names.some((n) => n.ranking === o.ranking)) {
            names.push({
              ranking: o.ranking,
              metric: o.metric,
              rule: o.rule,
              lowerIsBetter: o.direction === "lower",
              value: (x) => x.official.find((f) => f.ranking === o.ranking)?.value
            })
          }
        }
      }
      return names
    })()
  const rankings = figures.map((by): Ranking<R> => {
    const lower = by.lowerIsBetter === true
    const ranked: Array<{ s: Standing<R>; value: number; figure: MetricValue.MetricValue }> = []
    const unranked: Array<RankEntry<R>> = []
    for (const s of pool) {
      const figure = by.value(s.run)
      const not = (reason: string) =>
        unranked.push({ rank: undefined, run: s.run, meta: metaOf(s), primary: s.primary, flags: s.flags, value: figure ?? noFigure, reason })
      if (s.run.status === "failed") not(`the run failed: ${s.run.failure ?? "nothing could be scored"}`)
      else if (s.run.meta.identityUnknown === true) not("its run.json could not be used, so its team, run number and flags are unknown")
      else if (s.flags.includes("over-limit")) not(`beyond the limit of ${options.runLimit} runs for team ${s.team}`)
      else if (s.flags.includes("post-deadline")) not("submitted after the deadline (listed, never ranked)")
      else if (figure === undefined || figure._tag === "Undefined" || !Number.isFinite(figure.value)) {
        const why = figure?._tag === "Undefined" ? figure.reason : figure === undefined ? "not computed" : "not a finite number"
        // a reason that already says so ("no official score: it needs every dataset, ...") is not prefixed again
        not(why.startsWith(`no ${by.ranking} `) ? why : `no ${by.ranking} figure: ${why}`)
      } else ranked.push({ s, value: figure.value, figure })
    }
    // `pool` is in run order and the sort is stable: equal figures stay in run order
    ranked.sort((a, b) => (lower ? a.value - b.value : b.value - a.value))
    const entries: Array<RankEntry<R>> = []
    ranked.forEach((r, i) => {
      // competition ranking: a tie shares the rank of the first of its group
      const rankOf = i > 0 && r.value === ranked[i - 1].value ? entries[i - 1].rank : i + 1
      entries.push({ rank: rankOf, run: r.s.run, meta: metaOf(r.s), primary: r.s.primary, flags: r.s.flags, value: r.figure, reason: undefined })
    })
    return { ranking: by.ranking, metric: by.metric, ...(by.rule !== undefined ? { rule: by.rule } : {}), lowerIsBetter: lower, entries: [...entries, ...unranked] }
  })
  return {
    edition: editions[0],
    primaryOnly,
    runLimit: options.runLimit,
    rankings,
    standings: all,
    excluded: all.length - pool.length,
    merged: mergedTeams(all)
  }
}

const isFigure = (v: number | null | undefined): v is number => v !== undefined && v !== null && Number.isFinite(v)

/**
 * The best of some figures in a direction; undefined when none is finite. The figure every table
 * and the live board mark with a bullet, decided here once.
 *
 * @example
 * ```ts
 * import { Rank } from "@stseval/scoring"
 *
 * Rank.best([0.81, 0.77, null], "higher") // 0.81
 * Rank.best([0.31, 0.25], "lower") // 0.25: an MSE
 * ```
 * @since 0.4.0
 */
export const best = (figures: Iterable<number | null | undefined>, direction: "higher" | "lower"): number | undefined => {
  let out: number | undefined
  for (const v of figures) if (isFigure(v) && (out === undefined || (direction === "lower" ? v < out : v > out))) out = v
  return out
}

/**
 * Rows in the order of a figure no ranking orders by (a table sorted by MSE): ranked runs first,
 * then best figure first, runs without one last, ties in the order given.
 *
 * @example
 * ```ts
 * import { Rank } from "@stseval/scoring"
 *
 * const rows = [{ id: "a", mean: 0.5 }, { id: "b", mean: 0.7 }]
 * Rank.orderBy(rows, { ranked: () => true, value: (r) => r.mean, direction: "higher" }).map((r) => r.id) // ["b", "a"]
 * ```
 * @since 0.4.0
 */
export const orderBy = <A>(
  rows: ReadonlyArray<A>,
  by: { readonly ranked: (row: A) => boolean; readonly value: (row: A) => number | null | undefined; readonly direction: "higher" | "lower" }
): ReadonlyArray<A> =>
  [...rows].sort((a, b) => {
    const ga = by.ranked(a) ? 0 : 1
    const gb = by.ranked(b) ? 0 : 1
    if (ga !== gb) return ga - gb
    const va = by.value(a)
    const vb = by.value(b)
    if (!isFigure(va) || !isFigure(vb)) return (isFigure(va) ? 0 : 1) - (isFigure(vb) ? 0 : 1)
    return by.direction === "lower" ? va - vb : vb - va
  })

/**
 * The rankings of one dataset that no run entered (SemRel: a language nobody submitted); outputs
 * name them in one line instead of a table of runs "not ranked".
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import { Rank } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's, SemRel
 * const names = Rank.unentered(results.ranked.rankings).map((r) => r.ranking) // e.g. ["hau"]
 * ```
 * @since 0.4.0
 */
export const unentered = <
  K extends {
    readonly ranking: string
    readonly rule?: string | undefined
    readonly entries: ReadonlyArray<{ readonly rank: number | undefined; readonly run: { readonly datasets: ReadonlyArray<{ readonly dataset: string; readonly status: string }> } }>
  }
>(
  rankings: ReadonlyArray<K>
): ReadonlyArray<K> =>
  rankings.filter(
    (r) => r.rule === "dataset" && r.entries.length > 0 && r.entries.every((e) => e.rank === undefined && (e.run.datasets.find((x) => x.dataset === r.ranking)?.status ?? "missing") === "missing")
  )
