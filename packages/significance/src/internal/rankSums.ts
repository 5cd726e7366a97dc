// Spearman's rho on a bootstrap resample given as multiplicities, for the intervals engine: one
// pass per run over its values in sorted order, O(n) per run and resample, exact.
//
// The resample is a multiset: pair i appears w_i times. Its mid-ranks (ties share the mean of
// their positions, a pair drawn c times being c tied copies) follow from the original sorted
// order: pairs with equal values form fixed groups (the values never change, only the weights),
// and a group of total weight t after `cum` lighter copies has mid-rank cum + (t + 1) / 2. So per
// run and resample it is enough to walk the groups once, summing t and sum w rg (rg: the gold's
// centred mid-ranks in this resample); and the run's sum of squared centred ranks needs no pass at
// all: (m^3 - m - sum over groups (t^3 - t)) / 12, an integer identity, exact in doubles while
// m^3 < 2^53 (m < 208,000 pairs). The general kernel (ranks.ts + correlationKernel.ts) writes every
// rank out and then takes three weighted sums; this fuses both into the one walk.

/** Positions 0..n-1 of `values[start..start + n)` in ascending order, and where each group of equal values begins. */
export interface Groups {
  readonly order: Int32Array
  /** group q is order[bounds[q] .. bounds[q + 1]) */
  readonly bounds: Int32Array
}

export const groups = (values: Float64Array, start: number, n: number): Groups => {
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((a, b) => values[start + a] - values[start + b] || a - b)
  const bounds: Array<number> = [0]
  for (let j = 1; j < n; j++) if (values[start + order[j]] !== values[start + order[j - 1]]) bounds.push(j)
  bounds.push(n)
  return { order, bounds: Int32Array.from(bounds) }
}

/**
 * The gold's centred mid-ranks under weights `w` into `rg` (positions with weight 0 get a rank
 * too; it is never used), returning the sum of w (rank - mean)^2.
 */
export const centredRanks = (g: Groups, w: Float64Array, m: number, rg: Float64Array): number => {
  const { order, bounds } = g
  const centre = (m + 1) / 2
  let cum = 0
  let ties = 0
  for (let q = 0; q + 1 < bounds.length; q++) {
    const a = bounds[q]
    const e = bounds[q + 1]
    let t = 0
    for (let j = a; j < e; j++) t += w[order[j]]
    const r = cum + (t + 1) / 2 - centre
    for (let j = a; j < e; j++) rg[order[j]] = r
    ties += t * t * t - t
    cum += t
  }
  return (m * m * m - m - ties) / 12
}

/**
 * Spearman's rho of a run (its groups `x`) with the gold whose centred ranks are `rg` and sum of
 * squares `gss`, under weights `w` of total m. NaN when either side is constant in the resample.
 */
export const spearman = (x: Groups, w: Float64Array, m: number, rg: Float64Array, gss: number): number => {
  const { order, bounds } = x
  const centre = (m + 1) / 2
  let cum = 0
  let ties = 0
  let sxy = 0
  for (let q = 0; q + 1 < bounds.length; q++) {
    let t = 0
    let s = 0
    for (let j = bounds[q]; j < bounds[q + 1]; j++) {
      const i = order[j]
      const wi = w[i]
      t += wi
      s += wi * rg[i]
    }
    sxy += (cum + (t + 1) / 2 - centre) * s
    ties += t * t * t - t
    cum += t
  }
  const sxx = (m * m * m - m - ties) / 12
  if (!(sxx > 0) || !(gss > 0)) return Number.NaN
  const r = sxy / Math.sqrt(sxx * gss)
  return r > 1 ? 1 : r < -1 ? -1 : r
}
