// The resampling pass's generic path: each resample's draws recorded per lane, and the figures of
// metrics with no kernel of their own taken over them (`Metric.figureAt`).
import { Aggregate, Metric as Declared, MetricValue } from "@stseval/metrics"
import type { Job } from "./intervals.js"
import { atOf } from "./metric.js"
import * as Random from "./random.js"

/**
 * `picks`: lane r's draws at [r N, r N + N), dataset d's at [start[d], start[d + 1]) of it; `fill`
 * writes a lane's generic figures into a row; `pool` is a run's `pooled` / `allnrm` over a lane's
 * draws. Undefined when the job has nothing generic.
 */
export const makeGeneric = (job: Job) => {
  const g = job.generic
  const { start, metric, runs: K, has, x, gold } = job
  const D = metric.length
  const N = start[D]
  const datasets = Int32Array.from(metric.flatMap((m, d) => (m === "generic" && start[d + 1] > start[d] ? [d] : [])))
  if (g === undefined || (datasets.length === 0 && g.pooled === undefined)) return undefined
  const ats = g.metrics.map((m, d) => atOf(m, g.labels[d]))
  const runScores = Array.from({ length: K }, (_, k) => x.subarray(k * N, (k + 1) * N))
  const runConfidence = Array.from({ length: K }, (_, k) => g.confidence?.subarray(k * N, (k + 1) * N))
  const confidenceOf = (k: number, d: number) => (g.hasConfidence?.[k * D + d] === 1 ? runConfidence[k] : undefined)
  // views made once: a metric may keep what it learnt about an array between calls (kendallAt)
  const labels = g.metrics.map((m) => m.kind === "labels")
  const part = (a: Float64Array | Int32Array | undefined, at: number, d: number) => a?.subarray(at + start[d], at + start[d + 1])
  const goldOf = Array.from(datasets, (d) => (labels[d] ? part(g.goldCodes, 0, d)! : part(gold, 0, d)!))
  const runOf = Array.from(datasets, (d) => Array.from({ length: K }, (_, k) => (labels[d] ? part(g.codes, k * N, d)! : part(x, k * N, d)!)))
  const confidenceIn = Array.from(datasets, (d) => Array.from({ length: K }, (_, k) => part(confidenceOf(k, d), 0, d) as Float64Array | undefined))
  const relative = new Int32Array(N)
  const picks = new Int32Array(Random.CHUNK * N)
  const identity = Int32Array.from({ length: N }, (_, i) => i)
  const lanes = Array.from({ length: Random.CHUNK }, (_, r) => picks.subarray(r * N, (r + 1) * N))
  const laneSegments = lanes.map((lane) => Array.from(datasets, (d) => lane.subarray(start[d], start[d + 1])))

  /** The generic datasets' figures over `lane`'s draws (-1: the original pairs). */
  const fill = (lane: number, row: Float64Array, base: number, FIG: number): void => {
    for (let j = 0; j < datasets.length; j++) {
      const d = datasets[j]
      if (lane < 0) {
        for (let k = 0; k < K; k++) if (has[k * D + d] === 1) row[base + k * FIG + d] = g.original(k, d)
        continue
      }
      const at = ats[d]
      const idx = laneSegments[lane][j]
      const n = idx.length
      const a = start[d]
      for (let q = 0; q < n; q++) relative[q] = idx[q] - a
      for (let k = 0; k < K; k++) {
        if (has[k * D + d] === 0) continue
        row[base + k * FIG + d] = at(goldOf[j], runOf[j][k], relative, n, confidenceIn[j][k])
      }
    }
  }

  /** values[idx[j]] for each j: a loop, as Float64Array.from with a mapping function costs about 100 ns a value (ALLnrm took 40 s for 100 runs x 7 tracks) */
  const at = (values: Float64Array, idx: Int32Array): Float64Array => {
    const out = new Float64Array(idx.length)
    for (let j = 0; j < idx.length; j++) out[j] = values[idx[j]]
    return out
  }
  const gathered = new Int32Array(N)
  /** `pooled` (or `allnrm`) of run k over `buffer`'s draws of the datasets it has. */
  const pool = (k: number, buffer: Int32Array, nrm: boolean): number => {
    const m = g.pooled!
    let n = 0
    // confidences only when the run gives them on every dataset it has
    let confident = true
    for (let d = 0; d < D; d++) {
      if (has[k * D + d] === 0) continue
      if (confidenceOf(k, d) === undefined) confident = false
      for (let i = start[d]; i < start[d + 1]; i++) gathered[n++] = buffer[i]
    }
    const confidence = confident ? runConfidence[k] : undefined
    if (!nrm) return Declared.figureAt(m, gold, runScores[k], gathered, n, confidence)
    // ALLnrm: each dataset's draws, the run fitted to the gold, then the metric over them all
    const xs: Array<Float64Array> = []
    const ys: Array<Float64Array> = []
    for (let d = 0; d < D; d++) {
      if (has[k * D + d] === 0 || start[d + 1] === start[d]) continue
      const seg = buffer.subarray(start[d], start[d + 1])
      xs.push(at(runScores[k], seg))
      ys.push(at(gold, seg))
    }
    const c = confidence === undefined ? undefined : at(confidence, gathered.subarray(0, n))
    const r = Aggregate.allNrm(xs, ys, (goldAll, fittedRun) => m.compute(goldAll, fittedRun, c))
    return MetricValue.getOrNaN(r)
  }
  return { picks, lanes, identity, fill, pool: g.pooled !== undefined ? pool : undefined }
}
