// The plan of the rank walks (rankSums.ts): each walked dataset's gold and runs sorted once, their
// groups of equal values, flattened for the kernel.
import { Spearman } from "@stseval/metrics"

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
 * Where a tile's plan is written, kept for the next tile (`PlanScratch`): buffers in shared memory
 * where there is any, so the walks' threads are sent the one copy, not each their own; and reused
 * while large enough, so that a pass tile by tile (2,000 STS-B runs: 4 tiles) leaves the collector
 * no plan to free, in the calling thread nor in a worker.
 */
export interface PlanScratch {
  order?: Int32Array | undefined
  bounds?: Int32Array | undefined
}

/** An Int32Array of at least n, the scratch's own when large enough (shared memory when there is any). */
const room = (last: Int32Array | undefined, n: number): Int32Array => {
  if (last !== undefined && last.length >= n) return last
  return typeof SharedArrayBuffer === "function" ? new Int32Array(new SharedArrayBuffer(4 * Math.max(1, n))) : new Int32Array(n)
}

/**
 * The plan for the walked datasets of a job (start: dataset d is pair positions [start[d],
 * start[d + 1]); `has[k * D + d]`: run k has dataset d; x run-major [k * N + position]). Datasets
 * without pairs are left out. Its order and bounds are views of `scratch`'s buffers when given
 * (valid until the next plan written there).
 */
export const plan = (
  start: Int32Array,
  walks: ReadonlyArray<Walk>,
  runs: number,
  has: Uint8Array,
  gold: Float64Array,
  x: Float64Array,
  scratch: PlanScratch = {}
): Plan => {
  const D = walks.length
  const N = start[D]
  const dataset: Array<number> = []
  const tau: Array<number> = []
  const walkAt: Array<number> = [0]
  const runOf: Array<number> = []
  let positions = 0
  for (let d = 0; d < D; d++) {
    const a = start[d]
    const n = start[d + 1] - a
    if (walks[d] === undefined || n === 0) continue
    if (walks[d] === "rho" && n > rhoPairs) {
      throw new Error(`rankSums: a Spearman walk over ${n.toLocaleString("en-US")} pairs; its sums are exact up to ${rhoPairs.toLocaleString("en-US")} pairs (job.ts resamples a larger dataset by its metric)`)
    }
    dataset.push(d)
    tau.push(walks[d] === "tau" ? 1 : 0)
    runOf.push(-1)
    for (let k = 0; k < runs; k++) if (has[k * D + d] === 1) runOf.push(k)
    positions += n * (runOf.length - walkAt[walkAt.length - 1])
    walkAt.push(runOf.length)
  }
  const walksCount = runOf.length
  // each walk's order, and its bounds (at most n + 1 of them), sorted straight into the buffers
  const order = (scratch.order = room(scratch.order, positions)).subarray(0, positions)
  const bounds = (scratch.bounds = room(scratch.bounds, positions + walksCount))
  const orderAt = new Int32Array(walksCount + 1)
  const boundsAt = new Int32Array(walksCount + 1)
  for (let s = 0, i = 0; s < dataset.length; s++) {
    const a = start[dataset[s]]
    const n = start[dataset[s] + 1] - a
    for (; i < walkAt[s + 1]; i++) {
      const values = runOf[i] < 0 ? gold.subarray(a, a + n) : x.subarray(runOf[i] * N + a, runOf[i] * N + a + n)
      orderAt[i + 1] = orderAt[i] + n
      // By (value, position): metrics' own order (`sortedGroupsInto`: a bucket sort by value, else
      // the radix sort of the values' bit patterns), several times faster than sorting positions
      // with a comparator, and than taking the average ranks and counting-sorting them. -0 and 0 tie.
      boundsAt[i + 1] = boundsAt[i] + Spearman.sortedGroupsInto(values, order.subarray(orderAt[i], orderAt[i + 1]), bounds.subarray(boundsAt[i]))
    }
  }
  return { dataset: Int32Array.from(dataset), tau: Uint8Array.from(tau), walkAt: Int32Array.from(walkAt), runOf: Int32Array.from(runOf), order, orderAt, bounds: bounds.subarray(0, boundsAt[walksCount]), boundsAt }
}
