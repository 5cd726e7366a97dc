// Independent references for tests: the textbook formulas written out once, apart from the
// metrics package they check (its kernels scale, branch and use typed arrays; this does none of that).
import { mulberry32 } from "./random.js"

/**
 * Pearson's r, textbook two-pass formula: sum((x-mx)(y-my)) / sqrt(sum((x-mx)^2) sum((y-my)^2)).
 *
 * @param {ArrayLike<number>} x
 * @param {ArrayLike<number>} y
 * @returns {number}
 */
export const pearson = (x, y) => {
  const n = x.length
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i]
    my += y[i]
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my)
    sxx += (x[i] - mx) ** 2
    syy += (y[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}

/**
 * Average ranks (ties share the mean of their 1-based positions).
 *
 * @param {ArrayLike<number>} xs
 * @returns {Array<number>}
 */
export const averageRanks = (xs) => {
  const order = Array.from(xs, (x, i) => [x, i]).sort((a, b) => a[0] - b[0])
  const out = new Array(xs.length)
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1
    i = j + 1
  }
  return out
}

/**
 * Spearman's rho: Pearson of the average ranks.
 *
 * @param {ArrayLike<number>} x
 * @param {ArrayLike<number>} y
 * @returns {number}
 */
export const spearman = (x, y) => pearson(averageRanks(x), averageRanks(y))

/**
 * Holm's step-down adjusted p-values (Holm 1979), written out: sort ascending, multiply the i-th
 * smallest by (m - i), keep them monotone, cap at 1.
 *
 * @param {ReadonlyArray<number>} p
 * @returns {Array<number>}
 */
export const holm = (p) => {
  const m = p.length
  const order = p.map((_, i) => i).sort((a, b) => p[a] - p[b])
  const out = new Array(m)
  let running = 0
  order.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p[i]))
    out[i] = running
  })
  return out
}

/** erfc by Numerical Recipes' Chebyshev fit (erfcc, fractional error below 1.2e-7), for p = erfc(|z| / sqrt 2). */
const erfc = (x) => {
  const z = Math.abs(x)
  const t = 1 / (1 + 0.5 * z)
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
  return x >= 0 ? r : 2 - r
}

/**
 * "Tied with the best" by a paired bootstrap with Holm, written apart from the significance
 * package: the best run (highest figure, first of equals), every other run compared with it over
 * the same `resamples` resamples of the pairs (its own generator, mulberry32), each resample's
 * figure recomputed from scratch (Spearman: the resample ranked again), p two-sided by the normal
 * approximation (z = difference / standard deviation of the resampled differences) or, with
 * `shift: true`, by the shift method ((count of |d* - d| >= |d| + 1) / (B + 1)); Holm over the
 * comparisons; tied = not rejected at alpha, the best included. Returns the tied runs' indices and
 * each comparison's raw and adjusted p.
 *
 * @param {ArrayLike<number>} gold
 * @param {ReadonlyArray<ArrayLike<number>>} runs
 * @param {{ metric?: "spearman" | "pearson", resamples?: number, seed?: number, alpha?: number, shift?: boolean }} [options]
 */
export const boldByBootstrap = (gold, runs, options = {}) => {
  const figure = options.metric === "pearson" ? pearson : spearman
  const B = options.resamples ?? 1000
  const alpha = options.alpha ?? 0.05
  const next = mulberry32(options.seed ?? 1)
  const n = gold.length
  const estimates = runs.map((r) => figure(gold, r))
  let best = 0
  estimates.forEach((e, k) => {
    if (e > estimates[best]) best = k
  })
  const others = runs.map((_, k) => k).filter((k) => k !== best)
  const diffs = others.map(() => new Array(B))
  const g = new Array(n)
  const x = new Array(n)
  for (let b = 0; b < B; b++) {
    const idx = Array.from({ length: n }, () => Math.floor(next() * n))
    for (let i = 0; i < n; i++) g[i] = gold[idx[i]]
    const at = (k) => {
      for (let i = 0; i < n; i++) x[i] = runs[k][idx[i]]
      return figure(g, x)
    }
    const top = at(best)
    others.forEach((k, j) => (diffs[j][b] = top - at(k)))
  }
  const p = others.map((k, j) => {
    const d = estimates[best] - estimates[k]
    const ds = diffs[j].filter((v) => Number.isFinite(v))
    if (options.shift === true) return (ds.filter((v) => Math.abs(v - d) >= Math.abs(d) - 1e-12).length + 1) / (ds.length + 1)
    const mean = ds.reduce((a, v) => a + v, 0) / ds.length
    const sd = Math.sqrt(ds.reduce((a, v) => a + (v - mean) ** 2, 0) / (ds.length - 1))
    if (!(sd > 0)) return d === 0 ? 1 : 0
    return Math.min(1, erfc(Math.abs(d / sd) / Math.SQRT2))
  })
  const adjusted = holm(p)
  const tied = [best, ...others.filter((_, j) => adjusted[j] > alpha)]
  return { best, estimates, tied: tied.sort((a, b) => a - b), compared: others, p, adjusted }
}
