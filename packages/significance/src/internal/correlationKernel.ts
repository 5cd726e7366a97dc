// The resampling kernel shared by the paired bootstrap and approximate randomisation: per-run
// correlation with the gold (Pearson, or Spearman via weighted mid-ranks) from multiplicities
// (how often each pair was drawn) rather than from a gathered copy of the resample, optionally
// per stratum (dataset / track) followed by a weighted or unweighted mean.
//
// Hand-written rather than calling @stseval/metrics per resample: the metrics functions take a
// gathered Float64Array per run (N allocations/copies per resample and run) and recompute the gold's
// sums for every run; here the gold's sums are computed once per resample and stratum, each run
// costs one sequential pass with three multiply-adds per pair, and nothing is allocated per resample.
import { Rescale } from "@stseval/metrics"
import { sortedSegment, weightedMidRanks } from "./ranks.js"

const { maxAbs, unitScale } = Rescale

export type Metric = "pearson" | "spearman"
export type Aggregate = "weighted" | "unweighted"

export interface Prepared {
  readonly pairs: number
  readonly runs: number
  readonly strata: number
  /** Stratum s occupies positions [start[s], start[s + 1]) of the reordered arrays. */
  readonly start: Int32Array
  /** Original pair index of each reordered position. */
  readonly position: Int32Array
  /** Gold, reordered by stratum and centred within each stratum. */
  readonly gold: Float64Array
  /** Runs, run-major ([run * pairs + position]), reordered and centred like the gold. */
  readonly x: Float64Array
  /** Aggregation coefficient of each stratum (sums to 1). */
  readonly coef: Float64Array
  readonly metric: Metric
  // Spearman only: per stratum sorted positions of the gold and of each run.
  readonly goldOrder: ReadonlyArray<Int32Array>
  readonly runOrder: ReadonlyArray<ReadonlyArray<Int32Array>>
}

/** Dense stratum ids (0..S-1 in order of first appearance) for each pair, or all 0. */
export const denseStrata = (strata: ArrayLike<number> | undefined, n: number): Int32Array => {
  const out = new Int32Array(n)
  if (strata === undefined) return out
  const ids = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    const key = strata[i]
    let id = ids.get(key)
    if (id === undefined) {
      id = ids.size
      ids.set(key, id)
    }
    out[i] = id
  }
  return out
}

/** The pairs grouped by stratum, and each stratum's coefficient in the aggregate. */
export interface Layout {
  readonly pairs: number
  readonly strata: number
  /** Stratum s occupies positions [start[s], start[s + 1]) of the reordered arrays. */
  readonly start: Int32Array
  /** Original pair index of each reordered position. */
  readonly position: Int32Array
  /** Aggregation coefficient of each stratum (sums to 1). */
  readonly coef: Float64Array
}

/** Pairs reordered by stratum (stable), as every resampling kernel and the documented draws see them. */
export const layout = (stratumOf: Int32Array, aggregate: Aggregate): Layout => {
  const N = stratumOf.length
  let S = 0
  for (let i = 0; i < N; i++) if (stratumOf[i] + 1 > S) S = stratumOf[i] + 1
  const start = new Int32Array(S + 1)
  for (let i = 0; i < N; i++) start[stratumOf[i] + 1]++
  for (let s = 0; s < S; s++) start[s + 1] += start[s]
  const fill = start.slice(0, S)
  const position = new Int32Array(N)
  for (let i = 0; i < N; i++) position[fill[stratumOf[i]]++] = i
  const coef = new Float64Array(S)
  for (let s = 0; s < S; s++) coef[s] = aggregate === "weighted" ? (start[s + 1] - start[s]) / N : 1 / S
  return { pairs: N, strata: S, start, position, coef }
}

export const prepare = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  stratumOf: Int32Array,
  metric: Metric,
  aggregate: Aggregate
): Prepared => {
  const K = runs.length
  const { pairs: N, strata: S, start, position, coef } = layout(stratumOf, aggregate)

  // Centring within each stratum leaves every correlation unchanged and keeps the raw sums below
  // free of catastrophic cancellation. Each side (the gold, each run) is first brought to unit
  // scale by an exact power of two (1 for ordinary scores, so their bits do not change), so that
  // scores like 1e200 (whose squares overflow) or 1e-200 (whose squares underflow) correlate as
  // they do at unit scale; a correlation, Spearman's ranks included, ignores the factor.
  const centred = (values: Float64Array, out: Float64Array, offset: number) => {
    const scale = unitScale(maxAbs(values))
    for (let s = 0; s < S; s++) {
      let mean = 0
      for (let p = start[s]; p < start[s + 1]; p++) mean += values[position[p]] * scale
      mean /= start[s + 1] - start[s]
      for (let p = start[s]; p < start[s + 1]; p++) out[offset + p] = values[position[p]] * scale - mean
    }
  }
  const g = new Float64Array(N)
  centred(gold, g, 0)
  const x = new Float64Array(K * N)
  for (let k = 0; k < K; k++) centred(runs[k], x, k * N)

  const goldOrder: Array<Int32Array> = []
  const runOrder: Array<Array<Int32Array>> = []
  if (metric === "spearman") {
    for (let s = 0; s < S; s++) goldOrder.push(sortedSegment(g, start[s], start[s + 1]))
    for (let k = 0; k < K; k++) {
      const view = x.subarray(k * N, (k + 1) * N)
      const perStratum: Array<Int32Array> = []
      for (let s = 0; s < S; s++) perStratum.push(sortedSegment(view, start[s], start[s + 1]))
      runOrder.push(perStratum)
    }
  }
  return { pairs: N, runs: K, strata: S, start, position, gold: g, x, coef, metric, goldOrder, runOrder }
}

/** Relative threshold below which a weighted variance counts as zero (undefined correlation). */
const EPS = 1e-13

/** Scratch buffers for `evaluate`, allocated once per job. */
export interface Scratch {
  readonly wg: Float64Array
  readonly goldRank: Float64Array
  readonly runRank: Float64Array
  readonly sums: Float64Array
}

export const scratch = (p: Prepared): Scratch => ({
  wg: new Float64Array(p.pairs),
  goldRank: new Float64Array(p.pairs),
  runRank: new Float64Array(p.pairs),
  sums: new Float64Array(6)
})

/**
 * Weighted sums (sum w x, sum w x^2, sum w g x) of the runs at offsets o and o + N over positions
 * [a, e), into sums[0..5]. Two runs per pass share the loads of w and w*g and give the CPU two
 * independent chains of additions (measured ~1.5x faster than one run per pass); a small
 * monomorphic function is what V8 optimises best.
 */
const sumsOfTwo = (
  xs: Float64Array,
  w: Float64Array,
  wg: Float64Array,
  o: number,
  a: number,
  e: number,
  sums: Float64Array
): void => {
  const o2 = o + w.length // the next run (run-major layout, N = w.length)
  let sx1 = 0
  let sxx1 = 0
  let sxg1 = 0
  let sx2 = 0
  let sxx2 = 0
  let sxg2 = 0
  for (let i = a; i < e; i++) {
    const wi = w[i]
    const gi = wg[i]
    const x1 = xs[o + i]
    const t1 = wi * x1
    sx1 += t1
    sxx1 += t1 * x1
    sxg1 += gi * x1
    const x2 = xs[o2 + i]
    const t2 = wi * x2
    sx2 += t2
    sxx2 += t2 * x2
    sxg2 += gi * x2
  }
  sums[0] = sx1
  sums[1] = sxx1
  sums[2] = sxg1
  sums[3] = sx2
  sums[4] = sxx2
  sums[5] = sxg2
}

/** As `sumsOfTwo` for one run. */
const sumsOfOne = (
  xs: Float64Array,
  w: Float64Array,
  wg: Float64Array,
  o: number,
  a: number,
  e: number,
  sums: Float64Array
): void => {
  let sx = 0
  let sxx = 0
  let sxg = 0
  for (let i = a; i < e; i++) {
    const xi = xs[o + i]
    const wxi = w[i] * xi
    sx += wxi
    sxx += wxi * xi
    sxg += wg[i] * xi
  }
  sums[0] = sx
  sums[1] = sxx
  sums[2] = sxg
}

/** Turns the weighted sums of one run in one stratum into its contribution to `out[k]`. */
const accumulate = (
  out: Float64Array,
  k: number,
  c: number,
  m: number,
  sx: number,
  sxx: number,
  sxg: number,
  sg: number,
  vg: number,
  goldOk: boolean
): void => {
  const vx = m * sxx - sx * sx
  if (goldOk && vx > EPS * m * sxx) {
    let r = (m * sxg - sx * sg) / Math.sqrt(vx * vg)
    if (r > 1) r = 1
    else if (r < -1) r = -1
    out[k] += c * r
  } else {
    out[k] = Number.NaN
  }
}

/**
 * Each run's (aggregated) correlation with the gold under weights `w` (by reordered position),
 * written to `out[k]`; NaN when some stratum's correlation is undefined (zero variance).
 * `xs` overrides the runs' values (used by approximate randomisation), else `p.x`.
 */
export const evaluate = (
  p: Prepared,
  w: Float64Array,
  out: Float64Array,
  buf: Scratch,
  xs: Float64Array = p.x
): void => {
  const { coef, pairs: N, runs: K, start, strata: S } = p
  const spearman = p.metric === "spearman"
  const wg = buf.wg
  out.fill(0)
  for (let s = 0; s < S; s++) {
    const a = start[s]
    const e = start[s + 1]
    let g = p.gold
    if (spearman) {
      weightedMidRanks(p.gold, 0, p.goldOrder[s], w, buf.goldRank)
      g = buf.goldRank
    }
    let m = 0
    let sg = 0
    let sgg = 0
    for (let i = a; i < e; i++) {
      const wi = w[i]
      const gi = g[i]
      const wgi = wi * gi
      wg[i] = wgi
      m += wi
      sg += wgi
      sgg += wgi * gi
    }
    const vg = m * sgg - sg * sg
    const goldOk = vg > EPS * m * sgg
    const c = coef[s]
    if (spearman) {
      const xv = buf.runRank
      for (let k = 0; k < K; k++) {
        weightedMidRanks(xs, k * N, p.runOrder[k][s], w, xv)
        let sx = 0
        let sxx = 0
        let sxg = 0
        for (let i = a; i < e; i++) {
          const xi = xv[i]
          const wxi = w[i] * xi
          sx += wxi
          sxx += wxi * xi
          sxg += wg[i] * xi
        }
        accumulate(out, k, c, m, sx, sxx, sxg, sg, vg, goldOk)
      }
      continue
    }
    const sums = buf.sums
    let k = 0
    for (; k + 1 < K; k += 2) {
      sumsOfTwo(xs, w, wg, k * N, a, e, sums)
      accumulate(out, k, c, m, sums[0], sums[1], sums[2], sg, vg, goldOk)
      accumulate(out, k + 1, c, m, sums[3], sums[4], sums[5], sg, vg, goldOk)
    }
    if (k < K) {
      sumsOfOne(xs, w, wg, k * N, a, e, sums)
      accumulate(out, k, c, m, sums[0], sums[1], sums[2], sg, vg, goldOk)
    }
  }
}
