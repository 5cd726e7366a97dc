// The plan of the rank walks (rankSums.ts): each walked dataset's gold and runs sorted once, their
// groups of equal values, flattened for the kernel.
import { Spearman } from "@stseval/metrics"

/** Positions 0..n-1 of `values[start..start + n)` in ascending order, and where each group of equal values begins. */
export interface Groups {
  readonly order: Int32Array
  /** group q is order[bounds[q] .. bounds[q + 1]) */
  readonly bounds: Int32Array
}

export const groups = (values: Float64Array, start: number, n: number): Groups => {
  // By (value, position): metrics' radix sort's own order (a stable sort of the values' bit
  // patterns), several times faster than sorting positions with a comparator, and than taking the
  // average ranks and counting-sorting them as this did (half the plan's time). -0 and 0 tie.
  const { order, bounds } = Spearman.sortedGroups(values.subarray(start, start + n))
  return { order, bounds }
}

/**
 * The walked datasets of a job, flattened for the kernel. Walk g (gold or run) of walked
 * dataset s: s's walks are g = walkAt[s] (the gold) .. walkAt[s + 1] - 1 (its runs, `runOf[g]`);
 * sort order order[orderAt[g] ..] (n positions) and groups bounds[boundsAt[g] .. boundsAt[g + 1]).
 */
export interface Plan {
  /** dataset index of each walked dataset */
  readonly dataset: Int32Array
  /** 1 where that dataset is Kendall's tau-b, 0 Spearman's rho */
  readonly tau: Uint8Array
  readonly walkAt: Int32Array
  /** the run of each walk (-1: the gold) */
  readonly runOf: Int32Array
  readonly order: Int32Array
  readonly orderAt: Int32Array
  readonly bounds: Int32Array
  readonly boundsAt: Int32Array
}

/**
 * The most pairs of a Spearman dataset whose walk sums are exact (rankSums.ts's file comment: the
 * largest m with 2 m^2 (m - 1) <= 2^53). Kendall's walks sum integers below m^2: no limit in reach.
 */
export const rhoPairs = 165_140

/** What a dataset's walks compute: Spearman's rho, Kendall's tau-b, or nothing (not walked). */
export type Walk = "rho" | "tau" | undefined

/**
 * The plan for the walked datasets of a job (start: dataset d is pair positions [start[d],
 * start[d + 1]); `has[k * D + d]`: run k has dataset d; x run-major [k * N + position]). Datasets
 * without pairs are left out.
 */
export const plan = (
  start: Int32Array,
  walks: ReadonlyArray<Walk>,
  runs: number,
  has: Uint8Array,
  gold: Float64Array,
  x: Float64Array
): Plan => {
  const D = walks.length
  const N = start[D]
  const dataset: Array<number> = []
  const tau: Array<number> = []
  const walkAt: Array<number> = [0]
  const runOf: Array<number> = []
  const all: Array<Groups> = []
  for (let d = 0; d < D; d++) {
    const a = start[d]
    const n = start[d + 1] - a
    if (walks[d] === undefined || n === 0) continue
    if (walks[d] === "rho" && n > rhoPairs) {
      throw new Error(`rankSums: a Spearman walk over ${n.toLocaleString("en-US")} pairs; its sums are exact up to ${rhoPairs.toLocaleString("en-US")} pairs (job.ts resamples a larger dataset by its metric)`)
    }
    dataset.push(d)
    tau.push(walks[d] === "tau" ? 1 : 0)
    all.push(groups(gold, a, n))
    runOf.push(-1)
    for (let k = 0; k < runs; k++) {
      if (has[k * D + d] === 0) continue
      all.push(groups(x, k * N + a, n))
      runOf.push(k)
    }
    walkAt.push(runOf.length)
  }
  const orderAt = new Int32Array(all.length + 1)
  const boundsAt = new Int32Array(all.length + 1)
  all.forEach((g, i) => {
    orderAt[i + 1] = orderAt[i] + g.order.length
    boundsAt[i + 1] = boundsAt[i] + g.bounds.length
  })
  const order = new Int32Array(orderAt[all.length])
  const bounds = new Int32Array(boundsAt[all.length])
  all.forEach((g, i) => {
    order.set(g.order, orderAt[i])
    bounds.set(g.bounds, boundsAt[i])
  })
  return {
    dataset: Int32Array.from(dataset),
    tau: Uint8Array.from(tau),
    walkAt: Int32Array.from(walkAt),
    runOf: Int32Array.from(runOf),
    order,
    orderAt,
    bounds,
    boundsAt
  }
}
