// Plain two-pass Pearson for turning scores into the inputs of the analytic tests. Kept local
// (rather than @stseval/metrics' pearson) so this package's analytic API does not change with the
// metrics package's result type.
//
// Scores of any magnitude: when the plain sums leave their safe range (squares that overflow, as
// for scores near 1e200, or underflow, near 1e-200), r is taken again with each side brought to
// unit scale by an exact power of two (metrics' `Rescale.unitScale`), so it is the same at any
// scale. Ordinary scores keep the plain sums, bit for bit, at their old cost: `compare` and
// `significance` call this three times per pair of runs (r(gold, A), r(gold, B), r(A, B)).
import { Rescale } from "@stseval/metrics"

/** Sums of squares in this range leave sxx * syy (and r) free of overflow and underflow. */
const LOW = 1e-140
const HIGH = 1e140

export const pearson = (x: Float64Array, y: Float64Array): number => twoPass(x, y, 1, 1, false)

/** The same two passes on x and y times their powers of two (a constant side still gives NaN). */
const atUnitScale = (x: Float64Array, y: Float64Array): number =>
  twoPass(x, y, Rescale.unitScale(Rescale.maxAbs(x)), Rescale.unitScale(Rescale.maxAbs(y)), true)

/**
 * r from two passes over x times px and y times py. The plain sums (px = py = 1: a value times 1
 * is that value, so the same bits) are taken again at unit scale (`atUnitScale`) when their squares
 * leave the safe range; the `rescaled` ones are r whatever they are.
 */
const twoPass = (x: Float64Array, y: Float64Array, px: number, py: number, rescaled: boolean): number => {
  const n = x.length
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i] * px
    my += y[i] * py
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i] * px - mx
    const dy = y[i] * py - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  if (rescaled || (sxx > LOW && sxx < HIGH && syy > LOW && syy < HIGH)) return sxy / Math.sqrt(sxx * syy)
  return atUnitScale(x, y)
}

/** One side of `pearson`, computed once: its values minus their mean, and its sum of squares. */
export interface Centred {
  readonly values: Float64Array
  readonly centred: Float64Array
  readonly ss: number
}

/** `pearson`'s first pass and its squares for one side: the same operations, so the same bits. */
export const centre = (x: Float64Array): Centred => {
  const n = x.length
  let m = 0
  for (let i = 0; i < n; i++) m += x[i]
  m /= n
  const centred = new Float64Array(n)
  let ss = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] - m
    centred[i] = d
    ss += d * d
  }
  return { values: x, centred, ss }
}

/**
 * `pearson(x.values, y.values)`, bit for bit, from the sides' `centre`: one pass over the pair
 * instead of two. All pairs of 500 runs is 124,750 pairs, each with r(A, B), and every pair shares
 * its runs' means and squares; `pearson`'s own passes computed them again for each pair.
 */
export const pearsonCentred = (x: Centred, y: Centred): number => {
  const dx = x.centred
  const dy = y.centred
  const n = dx.length
  let sxy = 0
  for (let i = 0; i < n; i++) sxy += dx[i] * dy[i]
  return finish(x, y, sxy)
}

/** r from the cross sum of two centred sides, as `pearson` ends. */
const finish = (x: Centred, y: Centred, sxy: number): number => {
  const sxx = x.ss
  const syy = y.ss
  if (sxx > LOW && sxx < HIGH && syy > LOW && syy < HIGH) return sxy / Math.sqrt(sxx * syy)
  return atUnitScale(x.values, y.values)
}

/**
 * `pearsonCentred(x, ys[j])` into out[at + j] for every j, bit for bit: four of the ys per pass
 * over x. Each cross sum is still one chain of additions in index order (so the same bits), but
 * four independent chains run side by side, where one chain waits on each addition's latency:
 * r(A, B) of every pair of 500 runs (124,750 pairs of 1,379 scores) was most of `significance
 * --against all`'s time.
 */
export const pearsonCentredRow = (x: Centred, ys: ReadonlyArray<Centred>, out: Float64Array, at: number): void => {
  const dx = x.centred
  const n = dx.length
  let j = 0
  for (; j + 4 <= ys.length; j += 4) {
    const d0 = ys[j].centred
    const d1 = ys[j + 1].centred
    const d2 = ys[j + 2].centred
    const d3 = ys[j + 3].centred
    let s0 = 0
    let s1 = 0
    let s2 = 0
    let s3 = 0
    for (let i = 0; i < n; i++) {
      const v = dx[i]
      s0 += v * d0[i]
      s1 += v * d1[i]
      s2 += v * d2[i]
      s3 += v * d3[i]
    }
    out[at + j] = finish(x, ys[j], s0)
    out[at + j + 1] = finish(x, ys[j + 1], s1)
    out[at + j + 2] = finish(x, ys[j + 2], s2)
    out[at + j + 3] = finish(x, ys[j + 3], s3)
  }
  for (; j < ys.length; j++) out[at + j] = pearsonCentred(x, ys[j])
}
