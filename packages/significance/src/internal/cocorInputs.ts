// The cocor tests' inputs, r(gold, A), r(gold, B) and r(A, B), for one pair of runs or all pairs of
// many: each side centred once, at unit scale (times an exact power of two, metrics' `Rescale.
// unitScale`, 1 for ordinary scores: squares of scores near 1e200 overflow, near 1e-200 underflow),
// then per pair one cross sum, and r is the figure metrics' Pearson declares from its moments
// (`Moments.pearson`), not a copy of its own. All pairs of 500 runs is 124,750 pairs of 1,379 scores,
// each needing r(A, B): a row of pairs sharing their first run takes four cross sums per pass over
// it, four independent addition chains where one would wait on each addition's latency.
import { Moments, Rescale } from "@stseval/metrics"

/** One side, computed once: its values at unit scale minus their mean, and their sum and sum of squares. */
export interface Side {
  readonly centred: Float64Array
  readonly sum: number
  readonly squares: number
}

export const side = (x: Float64Array): Side => {
  const n = x.length
  const scale = Rescale.unitScale(Rescale.maxAbs(x))
  let mean = 0
  for (let i = 0; i < n; i++) mean += x[i] * scale
  mean /= n
  const centred = new Float64Array(n)
  let sum = 0
  let squares = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] * scale - mean
    centred[i] = d
    sum += d
    squares += d * d
  }
  return { centred, sum, squares }
}

const moments = new Float64Array(Moments.count)

/** r of two sides from their cross sum: Pearson's declared figure of the moments (NaN for a constant side). */
const figure = (x: Side, y: Side, cross: number): number => {
  moments[0] = x.centred.length
  moments[1] = x.sum
  moments[2] = x.squares
  moments[3] = y.sum
  moments[4] = y.squares
  moments[5] = cross
  return Moments.pearson(moments, 0)
}

/** r(x, y) of two sides. */
export const r = (x: Side, y: Side): number => {
  const dx = x.centred
  const dy = y.centred
  let cross = 0
  for (let i = 0; i < dx.length; i++) cross += dx[i] * dy[i]
  return figure(x, y, cross)
}

/** r(x, y) of two score arrays of one length. */
export const correlation = (x: Float64Array, y: Float64Array): number => r(side(x), side(y))

/** `r(x, ys[j])` into out[at + j] for every j, bit for bit: four cross sums per pass over x, each one chain in index order. */
export const row = (x: Side, ys: ReadonlyArray<Side>, out: Float64Array, at: number): void => {
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
    out[at + j] = figure(x, ys[j], s0)
    out[at + j + 1] = figure(x, ys[j + 1], s1)
    out[at + j + 2] = figure(x, ys[j + 2], s2)
    out[at + j + 3] = figure(x, ys[j + 3], s3)
  }
  for (; j < ys.length; j++) out[at + j] = r(x, ys[j])
}
