/**
 * Confidence intervals on every figure of a results table and on every rank, from one stratified
 * percentile bootstrap over pairs: per resample, each dataset's pairs drawn within it (shared by
 * the gold and every run), every figure recomputed, then the aggregates and the ranks. Bounds are
 * type-7 quantiles at (1 -/+ level) / 2; a rank interval is widened to whole ranks. They describe
 * the variability of each figure when test pairs are drawn again, for fixed runs, gold and datasets
 * (docs/significance.md).
 *
 * @since 0.2.0
 */
import type { Metric as MetricDescriptor } from "@stseval/metrics"
import * as Decimal from "./internal/decimal.js"
import { rankInto, ranksInSteps } from "./internal/competitionRanks.js"
import * as Engine from "./internal/intervals.js"
import { checkDefinition, checkRuns, computeOn, engineOf, invalid, layOut, predates } from "./internal/job.js"
import { isPearson } from "./internal/metric.js"
import { integerQuantiles, quantiles, tail } from "./internal/select.js"
import * as Threads from "./internal/threads.js"
import * as V from "./internal/validate.js"
import { InvalidInput } from "./TestResult.js"
import type { Outcome } from "./TestResult.js"
import type { Figure, Input, Labelled, Options, RankInterval, Result, Rule, RunIntervals, Signature } from "./intervals/model.js"
import * as SignatureLine from "./Signature.js"

export * from "./intervals/model.js"

// Why a figure has no value; a reason names the kernels' metrics as their messages always have.
const metricName = (m: MetricDescriptor.Metric): string => (engineOf(m) === "correct" ? "accuracy" : m.label)

/** Why run k's figure on dataset d, or its aggregate by `rule`, has no value. */
const reasons = (input: Input, metrics: ReadonlyArray<MetricDescriptor.Metric>, weight: Float64Array, estimates: Float64Array, FIG: number) => {
  const dataset = (k: number, d: number): string => {
    const ds = input.datasets[d]
    const s = input.runs[k].scores[ds.name]
    if (s === undefined) return `the run has no scores for ${ds.name}`
    const m = metrics[d]
    if (predates(m)) return `${metricName(m)} is undefined on ${ds.name} (the run or the gold is constant)`
    const v = computeOn(m, s)
    return `${metricName(m)} is undefined on ${ds.name} (${v._tag === "Undefined" ? v.reason : "undefined"})`
  }
  const aggregate = (k: number, rule: Rule, official: boolean): string => {
    const absent = input.datasets.filter((ds) => input.runs[k].scores[ds.name] === undefined).map((ds) => ds.name)
    if (absent.length === input.datasets.length) return "no dataset was scored"
    const missing = input.datasets.flatMap((ds, d) => (estimates[k * FIG + d] !== estimates[k * FIG + d] ? [`${ds.name} (${dataset(k, d)})`] : []))
    if (rule === "single") return missing[0] ?? "undefined"
    if ((rule === "pooled" || rule === "allnrm") && official && absent.length > 0) {
      return `no official score: ${rule} pools every dataset, and the run has no scores for ${absent.join(", ")}`
    }
    if (rule === "pooled" || rule === "allnrm") return `${rule} is undefined (the run is constant on the pooled pairs)`
    if (official && input.missingDataset === "no-official-score") {
      return `no official score: it needs every dataset, and ${missing.join(", ")} ${missing.length > 1 ? "have" : "has"} no figure`
    }
    if (official && rule === "wmean") {
      const noWeight = input.datasets.filter((_, d) => estimates[k * FIG + d] !== estimates[k * FIG + d] && weight[d] === 0)
      if (noWeight.length > 0) return `the weight of ${noWeight.map((ds) => ds.name).join(", ")} is unknown (no gold)`
    }
    return `${metricName(metrics[0])} is undefined on every dataset`
  }
  return { dataset, aggregate }
}

/**
 * A level as a percentage, with exactly the decimals it has: `0.9999` is "99.99%", not "100%".
 *
 * @example
 * ```ts
 * import { Intervals } from "@stseval/significance"
 *
 * Intervals.formatLevel(0.95) // "95%"
 * Intervals.formatLevel(0.9999) // "99.99%"
 * Intervals.formatLevel(0.01) // "1%"
 * ```
 * @since 0.3.0
 */
export const formatLevel = (level: number): string => `${levelPercent(level)}%`

/**
 * The level of a percentage, exactly as written: `99.99` is 0.9999 (99.99 / 100 is not).
 *
 * @example
 * ```ts
 * import { Intervals } from "@stseval/significance"
 *
 * Intervals.levelOfPercent(99.99) // 0.9999
 * Intervals.levelOfPercent(1) // 0.01
 * ```
 * @since 0.3.0
 */
export const levelOfPercent = (percent: number): number => Number(Decimal.shift(percent, -2))

const levelPercent = (level: number): string => Decimal.shift(level, 2)

/**
 * Pairs below which an interval is marked in every output: 95% percentile intervals of Pearson's r
 * held their value in about 93% of normal samples of 50 pairs (docs/significance.md, "Coverage").
 *
 * @since 0.3.0
 */
export const fewPairs = 100

/**
 * The fewest pairs a figure gets an interval on: with 5 pairs most resamples hold three distinct
 * pairs or fewer, where a correlation is undefined or +-1.
 *
 * @since 0.4.0
 */
export const minimumPairs = 6

/**
 * The |sample skewness| of the gold or a run above which a Pearson figure's interval is marked
 * (`Figure.skewed`): on lognormal data 95% intervals held the true value in 90-93% of samples
 * (bench/coverage.py).
 *
 * @since 0.4.0
 */
export const skewLimit = 2

/** a[from], a[from + stride], .. (n of them) into b[to ..]: a loop of `steps`' would run through on-stack replacement every tile. */
const gather = (a: Float64Array, from: number, stride: number, n: number, b: Float64Array, to: number): void => {
  for (let i = 0; i < n; i++) b[to + i] = a[from + i * stride]
}

/** g1 = m3 / m2^(3/2) (0 for a constant sample). */
const sampleSkewness = (x: Float64Array): number => {
  const n = x.length
  const mean = Engine.meanOf(x, 0, n, 1)
  let m2 = 0
  let m3 = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean
    m2 += d * d
    m3 += d * d * d
  }
  const variance = m2 / n
  return variance > 0 ? m3 / n / (variance * Math.sqrt(variance)) : 0
}

/**
 * The fewest resamples `compute` takes an interval at `level` from: 1 + 2 / (1 - level), below
 * which a tail's type-7 quantile is the most extreme resample itself.
 *
 * @example
 * ```ts
 * import { Intervals } from "@stseval/significance"
 *
 * Intervals.minimumResamples(0.95) // 41
 * Intervals.minimumResamples(0.99) // 201
 * ```
 * @since 0.3.0
 */
export const minimumResamples = (level: number): number =>
  // 1 - level is inexact in doubles: a relative hair of tolerance keeps 2 / 0.05 at 40
  Math.ceil((2 / (1 - level)) * (1 - 1e-9)) + 1

/**
 * Resamples below which an interval's bounds move noticeably from seed to seed; outputs say so.
 *
 * @since 0.3.0
 */
export const recommendedResamples = 1000

/**
 * Intervals on every figure and every rank; an `InvalidInput` for bad input, never a throw on data.
 *
 * @example
 * ```ts
 * import { Intervals } from "@stseval/significance"
 *
 * const gold = Float64Array.from({ length: 50 }, (_, i) => (i * 7) % 11)
 * const run = Float64Array.from(gold, (g, i) => g + ((i * 3) % 5) - 2)
 * const result = Intervals.compute(
 *   {
 *     datasets: [{ name: "track5.en-en", metric: "pearson" }],
 *     official: "single",
 *     missingDataset: "no-official-score",
 *     runs: [{ id: "A", scores: { "track5.en-en": { run, gold } } }]
 *   },
 *   { level: 0.95, resamples: 1000, seed: 12345 }
 * )
 * ```
 * @since 0.2.0
 */
export const compute = (input: Input, options: Options = {}): Outcome<Result> => computeEach([input], options)[0]

/**
 * `compute` of several inputs with the same options, their passes interleaved: while one's rank
 * walks run on the helper threads, this thread works on the others (`rank --json`: Pearson's pass
 * and Spearman's, 2,000 STS-B runs). Each result is `compute`'s, whatever the order of the work.
 *
 * @example
 * ```ts
 * import { Intervals } from "@stseval/significance"
 *
 * declare const pearson: Intervals.Input, spearman: Intervals.Input // the same runs, by Pearson and by Spearman
 * const [byPearson, bySpearman] = Intervals.computeEach([pearson, spearman]) // Spearman's walks on a helper thread meanwhile
 * ```
 * @since 0.6.0
 */
export const computeEach = (inputs: ReadonlyArray<Input>, options: Options = {}): Array<Outcome<Result>> => {
  const finite = new WeakSet<Float64Array>()
  const results = Threads.interleave(inputs.map((input) => steps(input, options, finite)))
  Threads.release()
  return results
}

function* steps(input: Input, options: Options, finite: WeakSet<Float64Array>): Threads.Steps<Outcome<Result>> {
  const B = options.resamples ?? 1000
  const seed = options.seed ?? 12345
  const level = options.level ?? 0.95
  const engine = options.engine ?? "auto"
  const error = V.first(
    V.count("resamples", B, 1),
    V.seed(seed),
    V.level("level", level),
    options.threads === undefined ? undefined : V.count("threads", options.threads, 1),
    V.oneOf("engine", engine, ["auto", "js", "wasm"], "auto, js or wasm")
  )
  if (error !== undefined) return error
  const least = minimumResamples(level)
  if (B < least) {
    return invalid(
      "resamples",
      `at least ${least.toLocaleString("en-US")} for a ${levelPercent(level)}% interval (1 + 2 / (1 - level): fewer leave no resample beyond a bound, so the interval is the resamples' range)`,
      String(B)
    )
  }
  const metrics = checkDefinition(input)
  if (metrics instanceof InvalidInput) return metrics

  const D = input.datasets.length
  const K = input.runs.length
  const FIG = D + (input.aggregates?.length ?? 0) + 1
  const OFF = FIG - 1
  const KF = K * FIG
  // Tile by tile of runs, each tile's percentiles taken and the tile dropped: only the ranks need
  // every run of a resample, so only the official figures are kept
  const per = Math.max(1, Math.floor(Engine.tiling.elements / (FIG * B)))
  const golds = checkRuns(input, metrics, finite)
  if (golds instanceof InvalidInput) return golds
  // a pass with rank walks starts a tile's walks once the last tile's are done, the tile laid out
  // while they ran: two scratches in turn, so that it does not overwrite what the last tile reads
  const scratches = [Engine.scratch(), Engine.scratch()]
  let first = layOut(input, metrics, golds, 0, Math.min(K, per), true, scratches[0])
  // a generic metric's label codes are one table per dataset over every run: one tile
  if (first.generic !== undefined && first.runs < K) first = layOut(input, metrics, golds, 0, K, true, scratches[0])
  const tile = Math.max(1, first.runs)
  const tiles = Math.max(1, Math.ceil(K / tile))
  const { weight, start, direction } = first

  const alpha = 1 - level
  const ps = [alpha / 2, 1 - alpha / 2] as const
  // each figure's lower and upper tails, and its bounds and defined resamples (`quantiles`)
  const low = tail(B, ps[0], false)
  const high = tail(B, ps[1], true)
  const bounds = new Float64Array(3)
  // a figure undefined in more than (1 - level) of the resamples gets no interval (what is left
  // would describe a conditional distribution)
  const allowed = Math.floor(alpha * B + 1e-9)
  // `single` (one dataset): the official figure is the dataset's in every resample (`figure` reads its bounds)
  const copied = input.official === "single"
  const estimates = new Float64Array(KF)
  const degenerates = new Int32Array(KF)
  const used = new Int32Array(KF)
  const lows = new Float64Array(KF).fill(Number.NaN)
  const highs = new Float64Array(KF).fill(Number.NaN)
  const officials = input.runs.some((run) => run.ranked !== false) ? new Float64Array(B * K) : undefined
  // a tile's bounds, and its official figures for the ranks, in a function of their own: in
  // compute's body V8 took these loops through on-stack replacement and deoptimized them every tile
  const percentiles = (samples: Float64Array, k0: number, k1: number): void => {
    const TF = (k1 - k0) * FIG
    const o = k0 * FIG
    for (let i = 0; i < TF; i++) {
      if (estimates[o + i] !== estimates[o + i]) continue
      if (copied && i % FIG === OFF) continue
      const n = (used[o + i] = quantiles(samples, B, ps, i, TF, low, high, bounds)[2])
      if (B - n > allowed) continue
      lows[o + i] = bounds[0]
      highs[o + i] = bounds[1]
    }
    if (officials !== undefined) for (let b = 0; b < B; b++) gather(samples, b * TF + OFF, FIG, k1 - k0, officials, b * K + k0)
  }
  const { progress, threads } = options
  const prepare = (t: number, scratch: Engine.Scratch) => {
    const part = t === 0 ? first : layOut(input, metrics, golds, t * tile, Math.min(K, (t + 1) * tile), true, scratch)
    const prepared = Engine.estimate(part, engine, { resamples: B, threads, runs: K, scratch })
    return { prepared, walk: () => Engine.startWalks(prepared, B, seed, progress && ((done, total) => progress(t * total + done, tiles * total)), { threads }) }
  }
  let next = prepare(0, scratches[0])
  let walking = next.walk()
  const { walks } = walking
  for (let t = 0; t < tiles; t++) {
    const { prepared } = next
    const current = walking
    if (walks && t + 1 < tiles) next = prepare(t + 1, Object.assign(scratches[(t + 1) % 2], { draws: scratches[t % 2].draws }))
    const pass = yield* Engine.passSteps(prepared, current, walks && t + 1 < tiles ? () => void (walking = next.walk()) : undefined)
    Engine.tiling.held?.(pass.samples.length)
    estimates.set(prepared.estimates, t * tile * FIG)
    degenerates.set(pass.degenerate, t * tile * FIG)
    // another computation whose walks are done starts its next ones before this one's percentiles
    yield undefined
    percentiles(pass.samples, t * tile, Math.min(K, (t + 1) * tile))
    if (!walks && t + 1 < tiles) walking = (next = prepare(t + 1, scratches[0])).walk()
  }
  const ranked = Int32Array.from(input.runs.keys()).filter((k) => input.runs[k].ranked !== false && estimates[k * FIG + OFF] === estimates[k * FIG + OFF])
  const ranks = new Int32Array(ranked.length * B)
  const rankDegenerate = new Int32Array(ranked.length)
  if (officials !== undefined) yield* ranksInSteps(ranked, officials, K, ranks, B, rankDegenerate, direction === "lower")
  const originalRanks = new Int32Array(ranked.length)
  rankInto(ranked, estimates, 0, FIG, OFF, originalRanks, 1, 0, new Int32Array(ranked.length), direction === "lower")

  const notes: Array<string> = []
  const correlation = metrics.every((m) => m.correlation)
  const undefinedIn = correlation ? "a correlation was undefined in " : "a figure was undefined in "
  const because = correlation ? "(a resampled dataset with a constant run or gold)" : "(a resampled dataset on which it has none)"

  // each side's |sample skewness| once (a run's figures, and every run's gold, share it)
  const skews = new Map<Float64Array, number>()
  const skewness = (x: Float64Array): number => skews.get(x) ?? skews.set(x, Math.abs(sampleSkewness(x))).get(x)!
  const figure = (k: number, f: number, reasonIfUndefined: () => string, label: string): Figure => {
    const i = k * FIG + (copied && f === OFF ? 0 : f)
    const value = estimates[i]
    // the pairs a figure rests on: its dataset's, or for an aggregate those of the datasets the run has
    let pairs = 0
    for (let d = 0; d < D; d++) if ((f === d || f >= D) && input.runs[k].scores[input.datasets[d].name] !== undefined) pairs += start[d + 1] - start[d]
    if (value !== value) return { value: undefined, ci: undefined, reason: reasonIfUndefined(), degenerate: 0, used: 0, pairs }
    const degenerate = degenerates[i]
    const n = used[i]
    if (degenerate > 0) {
      notes.push(
        `${input.runs[k].id}, ${label}: ${undefinedIn}${degenerate} of ${B} resamples ${because}` +
          (n < B ? `; the figure itself was undefined in ${B - n} and they are left out of its interval` : "; the edition's rule was applied to them")
      )
    }
    const none = (reason: string): Figure => ({ value, ci: undefined, reason, degenerate, used: n, pairs })
    if (B - n > allowed) return none(`undefined in ${B - n} of ${B} resamples (more than ${Number((100 - Number(levelPercent(level))).toFixed(10))}% of them): no interval`)
    // no interval where the resamples cannot give one: too few pairs, or every resample alike
    if (pairs < minimumPairs) {
      return none(`${pairs} pairs: fewer than ${minimumPairs}, a resample repeats pairs so often that the figure is undefined or at its bound in most of them: no interval`)
    }
    if (!(highs[i] > lows[i])) {
      return none(`every resample within the interval gives ${lows[i]}: a zero-width interval says nothing of the uncertainty (${pairs} pairs): no interval`)
    }
    // the largest |sample skewness| of the gold and the run among the Pearson datasets the figure rests on
    let skew = 0
    for (let d = 0; d < D; d++) {
      if (!(f === d || f >= D) || !isPearson(metrics[d])) continue
      const s = input.runs[k].scores[input.datasets[d].name]
      if (s === undefined || !(s.run instanceof Float64Array)) continue
      skew = Math.max(skew, skewness(s.run), skewness(s.gold as Float64Array))
    }
    return { value, ci: { low: lows[i], high: highs[i], level }, reason: undefined, degenerate, used: n, pairs, ...(skew > skewLimit ? { skewed: skew } : {}) }
  }

  const counts = new Int32Array(ranked.length + 2)
  const rankIntervals = Array.from(ranked, (_, j): RankInterval => {
    const [lo, hi] = integerQuantiles(ranks, j * B, B, ps, counts)
    return { low: Math.floor(lo + 1e-9), high: Math.ceil(hi - 1e-9) }
  })
  // a ranked run's place among the ranked (one look each, not a search per run)
  const position = new Map(Array.from(ranked, (k, j) => [k, j]))
  const best = rankIntervals.filter((_, j) => originalRanks[j] === 1)
  const overlaps = (r: RankInterval) => best.some((b) => r.low <= b.high && b.low <= r.high)

  const labelled = input.aggregates ?? []
  const why = reasons(input, metrics, weight, estimates, FIG)
  const runs = input.runs.map((run, k): RunIntervals => {
    const datasets = input.datasets.map((ds, d): RunIntervals["datasets"][number] => ({
      dataset: ds.name,
      metric: metrics[d].name,
      ...figure(k, d, () => why.dataset(k, d), `${ds.name} ${metricName(metrics[d])}`)
    }))
    const aggregates: Partial<Record<Labelled, Figure>> = {}
    labelled.forEach((name, j) => {
      aggregates[name] = figure(k, D + j, () => why.aggregate(k, name, false), name)
    })
    const official = figure(k, OFF, () => why.aggregate(k, input.official, true), `official (${input.official})`)
    const place = position.get(k)
    const rankInterval = place === undefined ? undefined : rankIntervals[place]
    return {
      id: run.id,
      datasets,
      aggregates,
      official,
      rank: place === undefined ? undefined : originalRanks[place],
      rankInterval,
      rankReason:
        rankInterval !== undefined
          ? undefined
          : run.ranked === false
            ? "not ranked (left out of the ranking, e.g. not a primary run)"
            : `no official figure: ${official.reason ?? "undefined"}`,
      rankDegenerate: place === undefined ? 0 : rankDegenerate[place],
      overlapsBest: rankInterval !== undefined && overlaps(rankInterval)
    }
  })
  const bestGroup = Array.from(ranked)
    .filter((k) => runs[k].overlapsBest)
    .sort((a, b) => originalRanks[position.get(a)!] - originalRanks[position.get(b)!] || a - b)
    .map((k) => input.runs[k].id)

  const signature: Signature = {
    method: "percentile-bootstrap",
    resamples: B,
    seed,
    level,
    strata: D > 1 ? "dataset" : "none",
    quantile: "type7",
    official: input.official,
    missing: input.missingDataset,
    rng: "xoroshiro128plus",
    version: SignatureLine.VERSION,
    ...(metrics.some((m) => !predates(m)) ? { metrics: [...new Set(metrics.map((m) => m.name))].join("+") } : {})
  }
  return { signature, signatureText: SignatureLine.format(signature), level, resamples: B, runs, bestGroup, notes, engine: next.prepared.engine }
}
