// Every run's figure over one set of (optionally stratified) pairs for the paired bootstrap and
// `Compare.many`: a job of one dataset per stratum (job.ts), so that they resample by the intervals' pass.
import type { Metric } from "@stseval/metrics"
import type * as Intervals from "../Intervals.js"
import type { Values } from "./inputs.js"
import * as Engine from "./intervals.js"
import { layOut } from "./job.js"
import { layout } from "./strata.js"
import * as Threads from "./threads.js"

/** What the callers resample: runs on the same (optionally stratified) pairs. */
export interface Runs {
  readonly metric: Metric.Metric
  readonly gold: Values
  readonly runs: ReadonlyArray<Values>
  readonly confidences: ReadonlyArray<Float64Array | undefined> | undefined
  readonly stratumOf: Int32Array
  readonly aggregate: "weighted" | "unweighted"
}

/** The runs as the intervals' input: stratum s is dataset `s`, every run has every one. */
const inputOf = ({ aggregate, confidences, gold, metric, runs, stratumOf }: Runs): Intervals.Input => {
  const { start, position, strata: S } = layout(stratumOf)
  const names = Array.from({ length: S }, (_, s) => String(s))
  // strata one after another (Datasets.join's): views of the scores, no copy
  const inOrder = position.every((q, i) => q === i)
  const part = <T extends Values | Float64Array>(v: T, s: number): T => {
    if (S === 1) return v
    const a = start[s]
    const n = start[s + 1] - a
    if (inOrder && v instanceof Float64Array) return v.subarray(a, a + n) as T
    // a loop, not Array.from / Float64Array.from with a mapping function (their per-value call
    // cost about 18 ms of the all-pairs bootstrap of 44 runs x 7 tracks)
    const out = v instanceof Float64Array ? new Float64Array(n) : new Array<string>(n)
    for (let j = 0; j < n; j++) out[j] = v[position[a + j]]
    return out as T
  }
  const golds = names.map((_, s) => part(gold, s))
  return {
    datasets: names.map((name) => ({ name, metric })),
    runs: runs.map((run, k) => {
      const c = confidences?.[k]
      return {
        id: String(k),
        scores: Object.fromEntries(
          names.map((name, s) => [name, { run: part(run, s), gold: golds[s], ...(c === undefined ? {} : { confidence: part(c, s) }) } as Intervals.Scores])
        )
      }
    }),
    official: S === 1 ? "single" : aggregate === "weighted" ? "wmean" : "mean",
    missingDataset: "no-official-score"
  }
}

/** Each run's figure on the pairs as given, and the prepared pass (the input checked by `checkValues`: not read again). */
const prepare = (given: Runs, resamples: number, threads: number | undefined) => {
  const input = inputOf(given)
  const job = layOut(input, input.datasets.map(() => given.metric), input.datasets.map((ds) => input.runs[0].scores[ds.name]))
  const prepared = Engine.estimate(job, "auto", { resamples, threads })
  const FIG = prepared.figures.figures
  const estimates = Float64Array.from(given.runs, (_, k) => prepared.estimates[k * FIG + FIG - 1])
  return { prepared, estimates, pairs: job.start[job.start.length - 1] }
}

/** Each run's figure on the pairs as given. */
export const estimates = (runs: Runs): Float64Array => prepare(runs, 1, 1).estimates

/**
 * Each run's figure on the pairs as given, and in each of B resamples of the documented stream for
 * `seed`, run-major (`samples[k * B + b]`, NaN: undefined).
 */
export const resample = (runs: Runs, B: number, seed: number, options: Pick<Intervals.Options, "progress" | "threads">) => {
  const { prepared, estimates, pairs } = prepare(runs, B, options.threads)
  const [pass] = Threads.interleave([Engine.passSteps(prepared, Engine.startWalks(prepared, B, seed, options.progress, { threads: options.threads }))])
  const K = runs.runs.length
  const FIG = prepared.figures.figures
  const samples = new Float64Array(K * B)
  for (let b = 0; b < B; b++) {
    const row = b * K * FIG + FIG - 1
    for (let k = 0; k < K; k++) samples[k * B + b] = pass.samples[row + k * FIG]
  }
  return { estimates, samples, pairs }
}
