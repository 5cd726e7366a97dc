/**
 * "Tied with the best" marks, decided once for every output (tables, the live leaderboard,
 * Codabench: none compares runs itself): per ranking's official figure and per dataset's figure,
 * the best RANKED run, the runs not significantly different from it (the papers' bold:
 * `Cluster.best` over Holm-adjusted p-values by default), the test, the comparisons that could not
 * be made and why, and optionally the p-value matrix of the best runs (the HTML heat map).
 *
 * Only runs a ranking ranks are compared, as `stseval significance` does: a run unranked for what
 * it is (late, over the limit, failed) is never the best nor bold. On a dataset of a ranking over
 * several datasets, a run unranked only for lacking the official figure (STS 2017 without every
 * track) is compared, never the best. The test follows the figure (`Compare.testFor`).
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * declare const results: Engine.Results // Engine.score's, every run ranked
 * Marks.find(Marks.compute(results), "aggregate:official")?.tied // e.g. ["ECNU/run1", "BIT/run2"]
 * ```
 * @since 0.3.0
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { Cluster, Compare, Correction, Datasets, TestResult } from "@stseval/significance"
import type { Bootstrap } from "@stseval/significance"
import * as Aligned from "./Aligned.js"
import type { Results } from "./Engine.js"
import { rankingName } from "./internal/edition.js"
import { knownInputs, matrixOf, pOf, sameUpToScale } from "./internal/marksCompare.js"
import * as Rule from "./internal/marksRule.js"
import type { Ranking } from "./Rank.js"
import type { ScoredRun } from "./ScoredRun.js"

/**
 * The settings of `compute`.
 *
 * @since 0.3.0
 */
export interface Options {
  /**
   * A test asked for (`report --test`), used where it applies (cocor's only on one dataset's
   * Pearson); default each figure's own (`Compare.testFor`).
   */
  readonly test?: Compare.TestName | undefined
  /** "different" means p <= alpha; default 0.05 */
  readonly alpha?: number | undefined
  /** over the comparisons with the best: `holm` (default) or `none` (raw p-values, as the STS 2017 paper) */
  readonly correction?: "holm" | "none" | undefined
  /** the p-value matrix between the best `matrix` runs of each dataset (the HTML heat map); default 0: none */
  readonly matrix?: number | undefined
  /** resampling tests: resamples (default 1,000, as the intervals) and seed (default 12345) */
  readonly resamples?: number | undefined
  /**
   * The bootstrap's p-value: `normal` (default, `Bootstrap.CompareOptions.bootstrapP`, not floored by the resamples)
   * or `shift` ((count + 1) / (B + 1): with Holm over m comparisons it rejects nothing once
   * m > alpha x (B + 1))
   */
  readonly bootstrapP?: "normal" | "shift" | undefined
  readonly seed?: number | undefined
  /** only these figures (keys, see `FigureMarks.key`); default every figure of every ranking */
  readonly only?: ReadonlyArray<string> | undefined
}

/**
 * The one rule for "tied with the best", the defaults of `Options`: each figure's test
 * (`Compare.testFor`), Holm over the comparisons with the best, alpha 0.05, and the bootstrap's p
 * by the normal approximation from 1,000 resamples (seed 12345). Not the shift p-value: floored at
 * 1 / (B + 1), it lets Holm reject nothing past m = alpha x (B + 1) comparisons (51 at 1,000
 * resamples), and lifting the floor costs B >= m / alpha per run (docs/significance.md, "One rule
 * for the bold").
 *
 * @example
 * ```ts
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * const alpha = Marks.defaults.alpha // 0.05
 * ```
 * @since 0.3.0
 */
export const defaults = { alpha: 0.05, correction: "holm", resamples: 1000, seed: 12345, bootstrapP: "normal" } as const

/**
 * The rule a figure's marks were decided by, as the footnote under every bold says it.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * declare const results: Engine.Results // Engine.score's
 * const primary = Marks.find(Marks.compute(results), "aggregate:official")
 * // "paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05"
 * if (primary !== undefined) Marks.describe(primary)
 * ```
 * @since 0.4.0
 */
export const describe: (m: Rule.Described) => string = Rule.describe

/**
 * The most runs a p-value matrix holds (it grows with runs squared: 2,000 runs made a 521 MB
 * page); every run is still compared with the best for the marks.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * // the heat map of the 50 best runs of each dataset
 * const marks = Marks.compute(results, { matrix: Marks.MATRIX_MAX_RUNS })
 * ```
 * @since 0.3.0
 */
export const MATRIX_MAX_RUNS = 50

/**
 * A comparison with the best that could not be made: the run, and why.
 *
 * @since 0.3.0
 */
export interface Failed {
  readonly id: string
  readonly reason: string
}

/**
 * p-values between the best runs of a dataset, best first.
 *
 * @since 0.3.0
 */
export interface Matrix {
  readonly runs: ReadonlyArray<string>
  /** p[i][j] (raw, not adjusted); NaN where the comparison could not be made; 1 on the diagonal */
  readonly p: ReadonlyArray<ReadonlyArray<number>>
  /** how many runs were compared, when the matrix holds only the best of them */
  readonly total?: number | undefined
}

/**
 * The marks of one figure.
 *
 * @since 0.3.0
 */
export interface FigureMarks {
  /** `aggregate:<ranking>` for an official figure over several datasets, else `<dataset>:<metric>` (`track5.en-en:pearson`) */
  readonly key: string
  /** the ranking the figure belongs to (`official`, `relatedness`, SemRel's `eng`) */
  readonly ranking: string
  /** the dataset, for a dataset's figure */
  readonly dataset?: string | undefined
  readonly metric: string
  /** the test the comparisons used; undefined when none could be made (then `reason`) */
  readonly test?: Compare.TestName | undefined
  /** several datasets: how the resampling combined them (the ranking's rule) */
  readonly aggregate?: Datasets.Aggregate | undefined
  readonly alpha: number
  readonly correction: "holm" | "none"
  /** the best ranked run */
  readonly best?: string | undefined
  /** the runs not significantly different from the best, the best first, in ranking order */
  readonly tied: ReadonlyArray<string>
  /** how many runs were compared with the best */
  readonly compared: number
  readonly failed: ReadonlyArray<Failed>
  /** why the figure has no marks (no ranked run, no test for the metric yet...) */
  readonly reason?: string | undefined
  /** resampling tests: their reproducibility signature */
  readonly signature?: string | undefined
  /** resampling tests: the resamples, the seed and the p-value's method (`Options.bootstrapP`) */
  readonly resamples?: number | undefined
  readonly seed?: number | undefined
  readonly pMethod?: "normal" | "shift" | undefined
  readonly matrix?: Matrix | undefined
}

/**
 * Every figure's marks.
 *
 * @since 0.3.0
 */
export interface Marks {
  readonly figures: ReadonlyArray<FigureMarks>
}

/**
 * The marks of a figure by key (`aggregate:official`, `track5.en-en:pearson`).
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * const best = Marks.find(Marks.compute(results), "eng:spearman")?.best // SemRel: the best ranked run in eng
 * ```
 * @since 0.3.0
 */
export const find = (marks: Marks | undefined, key: string): FigureMarks | undefined => marks?.figures.find((f) => f.key === key)

/**
 * The key of a ranking's official figure over several datasets.
 *
 * @example
 * ```ts
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * Marks.aggregateKey("official") // "aggregate:official"
 * ```
 * @since 0.3.0
 */
export const aggregateKey = (ranking: string): string => `aggregate:${ranking}`

/**
 * The key of a dataset's figure by a metric.
 *
 * @example
 * ```ts
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * Marks.datasetKey("track5.en-en", "pearson") // "track5.en-en:pearson"
 * ```
 * @since 0.3.0
 */
export const datasetKey = (dataset: string, metric: string): string => `${dataset}:${metric}`


/**
 * A test's name as printed (footnotes, heat-map headings).
 *
 * @example
 * ```ts
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * Marks.testLabel("williams1959") // "Williams' t"
 * ```
 * @since 0.3.0
 */
export const testLabel: (test: string) => string = Rule.testLabel

/** The values compared: one dataset as it is (graded scores or labels), several joined by the ranking's rule. */
interface Joined {
  readonly gold: Bootstrap.Values
  readonly runs: ReadonlyArray<Bootstrap.Values>
  readonly strata?: Int32Array | undefined
  readonly aggregate?: "weighted" | "unweighted" | undefined
}

/** A figure to mark: its ranking, its dataset (undefined: the official figure over several datasets). */
interface Target {
  readonly key: string
  readonly ranking: Registry.Ranking
  readonly name: string
  readonly dataset: string | undefined
  readonly metric: string
}

/** Every figure of the edition that marks are decided for, in the edition's order. */
const targets = (edition: Registry.TaskEdition): ReadonlyArray<Target> => {
  const out: Array<Target> = []
  for (const ranking of edition.ranking) {
    const name = rankingName(edition, ranking)
    const datasets = Registry.datasetsOf(edition, ranking)
    if (!Registry.isRankedPerDataset(ranking) && datasets.length > 1) {
      out.push({ key: aggregateKey(name), ranking, name, dataset: undefined, metric: ranking.metric })
    }
    for (const d of datasets) {
      // a ranking per dataset: each dataset is a ranking of its own, named by it
      out.push({ key: datasetKey(d.name, ranking.metric), ranking, name: Registry.isRankedPerDataset(ranking) ? d.name : name, dataset: d.name, metric: ranking.metric })
    }
  }
  return out
}

const valueOf = (run: ScoredRun, target: Target): number | undefined => {
  const f =
    target.dataset === undefined
      ? run.official.find((o) => o.ranking === target.name)?.value
      : run.datasets.find((d) => d.dataset === target.dataset && d.status === "scored")?.figures[target.metric]
  return f?._tag === "Defined" && Number.isFinite(f.value) ? f.value : undefined
}

interface Candidate {
  readonly run: ScoredRun
  readonly id: string
  readonly value: number
}

/** The aligned values of the candidates that can be compared on the target's datasets (`Aligned.comparable`), and why the others cannot. */
const comparable = (edition: Registry.TaskEdition, target: Target, candidates: ReadonlyArray<Candidate>) => {
  const options = { ranking: target.ranking, metric: target.metric, ...(target.dataset !== undefined ? { only: target.dataset } : {}) }
  const { kept, left, aligned } = Aligned.comparable(edition, candidates, (c) => c.run, options)
  const failed: Array<Failed> = left.map(({ item, skipped }) => ({ id: item.id, reason: skipped.map((s) => `${s.dataset}: ${s.reason}`).join("; ") || "nothing to compare" }))
  return { kept, failed, aligned }
}

const markOne = (results: Pick<Results, "edition" | "runs" | "ranked">, target: Target, ranking: Ranking<ScoredRun> | undefined, options: Options): FigureMarks => {
  const alpha = options.alpha ?? defaults.alpha
  const correction = options.correction ?? defaults.correction
  const base = { key: target.key, ranking: target.name, ...(target.dataset !== undefined ? { dataset: target.dataset } : {}), metric: target.metric, alpha, correction }
  const none = (reason: string, failed: ReadonlyArray<Failed> = []): FigureMarks => ({ ...base, tied: [], compared: 0, failed, reason })
  if (ranking === undefined) return none("no run is ranked by this figure")
  const descriptor = Metrics.getOrThrow(target.metric)
  const better = (a: number, b: number) => (descriptor.direction === "higher" ? a > b : a < b)
  // the runs the ranking ranks, with a figure, in its order; on a dataset of a ranking over several,
  // also those unranked only for lacking the official figure (never the best)
  const onePart = target.dataset !== undefined && !Registry.isRankedPerDataset(target.ranking) && Registry.datasetsOf(results.edition, target.ranking).length > 1
  const eligible = (e: Ranking<ScoredRun>["entries"][number]) =>
    e.rank !== undefined ||
    (onePart && e.run.status === "scored" && e.meta.identityUnknown !== true && !e.flags.includes("post-deadline") && !e.flags.includes("over-limit"))
  const listed: Array<Candidate & { readonly ranked: boolean }> = []
  for (const e of ranking.entries) {
    const value = eligible(e) ? valueOf(e.run, target) : undefined
    if (value !== undefined) listed.push({ run: e.run, id: e.meta.id, value, ranked: e.rank !== undefined })
  }
  let best: (typeof listed)[number] | undefined
  for (const c of listed) if (c.ranked && (best === undefined || better(c.value, best.value))) best = c
  if (best === undefined) return none("no run is ranked by this figure")
  const datasets = target.dataset !== undefined ? 1 : Registry.datasetsOf(results.edition, target.ranking).length
  const test = Compare.testFor(target.metric, datasets, options.test)
  const { kept, failed, aligned } = comparable(results.edition, target, listed)
  const bestAt = kept.findIndex((c) => c.id === best.id)
  if (bestAt < 0) {
    const why = failed.find((f) => f.id === best.id)?.reason ?? "it cannot be compared"
    return { ...none(`the best run, ${best.id}, cannot be compared: ${why}`, failed.filter((f) => f.id !== best.id)), best: best.id, tied: [best.id] }
  }
  const scores = aligned.datasets.flatMap((d) => (d.kind === "scores" ? [d] : []))
  const how = target.dataset === undefined ? Aligned.aggregateOf(target.ranking) : undefined
  // one dataset as it is (labels too: accuracy by the paired bootstrap); several joined, graded only
  const one = aligned.datasets.length === 1 ? aligned.datasets[0] : undefined
  if (one === undefined && (scores.length === 0 || scores.length < aligned.datasets.length)) {
    return { ...none(aligned.skipped.map((s) => `${s.dataset}: ${s.reason}`).join("; ") || "no graded scores to compare"), best: best.id, tied: [best.id] }
  }
  const joined: Joined | TestResult.InvalidInput = one !== undefined ? { gold: one.gold, runs: one.runs } : Datasets.join(scores, how ?? "weighted")
  if (TestResult.isInvalid(joined)) return { ...none(joined.message), best: best.id, tied: [best.id] }
  const settings = {
    test,
    metric: target.metric,
    resamples: options.resamples ?? defaults.resamples,
    seed: options.seed ?? defaults.seed,
    bootstrapP: options.bootstrapP ?? defaults.bootstrapP,
    ...(joined.strata !== undefined ? { strata: joined.strata, aggregate: joined.aggregate } : {})
  }
  const resampling = test === "bootstrap" || test === "permutation"
  // Each run against the best: one resampling pass for every run (`Compare.many`), or one analytic
  // test per pair (`Compare.two`: a pair the test cannot take is a failed comparison, not an error of all).
  const raw = new Map<number, number>()
  let signature: string | undefined
  if (resampling && kept.length > 1) {
    const many = Compare.many(joined.gold, joined.runs, { ...settings, against: bestAt, correction: "none" })
    if (TestResult.isInvalid(many)) return { ...none(many.message, failed), best: best.id, tied: [best.id] }
    for (const c of many.comparisons) raw.set(c.a === bestAt ? c.b : c.a, pOf(c))
    signature = many.signature
  } else {
    // the gold and the best centred once, r(gold, best) once: per run only its own side (bit for bit `Dependent.inputFromScores`)
    const bestRun = joined.runs[bestAt]
    const inputOf = resampling ? () => undefined : knownInputs(joined.gold, bestRun)
    for (let j = 0; j < kept.length; j++) {
      if (j === bestAt) continue
      const run = joined.runs[j]
      if (!resampling && sameUpToScale(bestRun, run)) {
        raw.set(j, 1)
        continue
      }
      const c = Compare.two(joined.gold, bestRun, run, settings, inputOf(run))
      if (TestResult.isInvalid(c)) failed.push({ id: kept[j].id, reason: c.message })
      else {
        raw.set(j, pOf(c))
        signature ??= c.signature
      }
    }
  }
  // positions for Cluster: 0 is the best, then the other compared runs in ranking order
  const others = [...raw.keys()].sort((a, b) => a - b)
  const p = others.map((j) => raw.get(j)!)
  const adjusted = correction === "holm" ? Correction.holm(p) : p
  const tiedAt = Cluster.best(others.length + 1, Cluster.fromComparisons(others.length + 1, others.map((_, i) => ({ a: 0, b: i + 1, pValue: adjusted[i] }))), alpha)
  const tiedIds = new Set(tiedAt.map((i) => (i === 0 ? best.id : kept[others[i - 1]].id)))
  const matrix = target.dataset !== undefined && (options.matrix ?? 0) > 0 ? matrixOf(kept, joined, settings, descriptor.direction, options.matrix!, MATRIX_MAX_RUNS) : undefined
  return {
    ...base,
    test,
    ...(how !== undefined ? { aggregate: how } : {}),
    best: best.id,
    tied: [best.id, ...listed.filter((c) => c.id !== best.id && tiedIds.has(c.id)).map((c) => c.id)],
    compared: others.length,
    failed,
    ...(signature !== undefined && resampling ? { signature } : {}),
    // the permutation test's p is its count's: the normal approximation is the bootstrap's
    ...(resampling ? { resamples: settings.resamples, seed: settings.seed, pMethod: test === "bootstrap" ? settings.bootstrapP : "shift" } : {}),
    ...(matrix !== undefined ? { matrix } : {})
  }
}

/**
 * The marks of every figure of a scored result, from the runs `results.ranked` lists. Pure and
 * seeded: the same results and options give the same marks.
 *
 * @example
 * ```ts
 * import { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   // rank every run, as STS 2017's table lists them
 *   const results = yield* Engine.score({ task: "sts2017", folder: "submissions", primaryOnly: false })
 *   const marks = Marks.compute(results)
 *   return Marks.find(marks, "aggregate:official")?.tied // the runs bold in the Primary column
 * })
 * ```
 * @since 0.3.0
 */
export const compute = (results: Pick<Results, "edition" | "runs" | "ranked">, options: Options = {}): Marks => {
  const only = options.only !== undefined ? new Set(options.only) : undefined
  const figures: Array<FigureMarks> = []
  for (const target of targets(results.edition)) {
    if (only !== undefined && !only.has(target.key)) continue
    figures.push(markOne(results, target, results.ranked.rankings.find((r) => r.ranking === target.name), options))
  }
  return { figures }
}

// ---------------------------------------------------------------------------------------------
// JSON

/**
 * One figure's marks as JSON (in `leaderboard.json`; NaN p-values are null).
 *
 * @example
 * ```ts
 * import * as Marks from "@stseval/scoring/Marks"
 *  *
 * const decode = Schema.decodeUnknownSync(Marks.FigureMarksJson)
 * ```
 * @since 0.3.0
 */
export const FigureMarksJson = Rule.FigureMarksJson
/** @since 0.3.0 */
export type FigureMarksJson = typeof FigureMarksJson.Type

/**
 * A figure's marks as JSON (without the p-value matrix, which only the HTML report draws).
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * const json = Marks.compute(results).figures.map(Marks.toJson)
 * ```
 * @since 0.3.0
 */
export const toJson = (f: FigureMarks): FigureMarksJson => ({
  key: f.key,
  ranking: f.ranking,
  ...(f.dataset !== undefined ? { dataset: f.dataset } : {}),
  metric: f.metric,
  ...(f.test !== undefined ? { test: f.test } : {}),
  ...(f.aggregate !== undefined ? { aggregate: f.aggregate } : {}),
  alpha: f.alpha,
  correction: f.correction,
  ...(f.best !== undefined ? { best: f.best } : {}),
  tied: f.tied,
  compared: f.compared,
  failed: f.failed,
  ...(f.reason !== undefined ? { reason: f.reason } : {}),
  ...(f.signature !== undefined ? { signature: f.signature } : {}),
  ...(f.resamples !== undefined ? { resamples: f.resamples } : {}),
  ...(f.seed !== undefined ? { seed: f.seed } : {}),
  ...(f.pMethod !== undefined ? { pMethod: f.pMethod } : {}),
  ...(f.test !== undefined ? { rule: describe(f) } : {})
})
