// Benchmark: intervals on every figure and every rank (Intervals.compute), on synthetic data shaped
// like STS 2017 (100 runs x 7 tracks x 250 pairs, the official unweighted mean, every labelled
// aggregate) and SICK 2014 (20 runs x 4,927 pairs, relatedness by Pearson and entailment by
// accuracy). The target: 100 runs x 7 tracks at 1,000 resamples well under 2 s through the
// CLI, so well under 0.5 s here.
// Run: pnpm bench intervals   (or npx tsx packages/significance/bench/intervals.bench.ts)
import * as os from "node:os"
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"
import { Intervals } from "../src/index.js"
import { synthetic } from "./significance.bench.js"

export interface IntervalsBench {
  readonly name: string
  /** wall-clock seconds of one Intervals.compute call */
  readonly seconds: number
  /** CPU seconds of this process for the call (the machine may be shared) */
  readonly cpuSeconds: number
  readonly resamples: number
  readonly runs: number
  readonly pairs: number
  readonly engine: string
  /** the machine's 1-minute load average when the row was taken (other jobs inflate wall time) */
  readonly load: number
}

const TRACKS = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en", "track6.tr-en"]

const sts2017 = (metric: Intervals.Metric): Intervals.Input => {
  const data = TRACKS.map((_, d) => synthetic(250, 100, 100 + d))
  return {
    datasets: TRACKS.map((name) => ({ name, metric })),
    runs: Array.from({ length: 100 }, (_, k) => ({
      id: `team${k}_run1`,
      scores: Object.fromEntries(TRACKS.map((name, d) => [name, { run: data[d].runs[k], gold: data[d].gold }]))
    })),
    official: "mean",
    missingDataset: "no-official-score",
    aggregates: metric === "pearson" ? ["wmean", "mean", "pooled", "allnrm"] : ["wmean", "mean"]
  }
}

const sick = () => {
  const { gold, runs } = synthetic(4927, 20, 7)
  const labels = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
  const rng = xoroshiro128plus(9)
  const draw = () => (rng.next() >>> 0) / 4294967296
  const goldLabels = Array.from(gold, () => labels[Math.floor(draw() * 3)])
  const relatedness: Intervals.Input = {
    datasets: [{ name: "relatedness", metric: "pearson" }],
    runs: runs.map((run, k) => ({ id: `run${k}`, scores: { relatedness: { run, gold } } })),
    official: "single",
    missingDataset: "no-official-score"
  }
  const entailment: Intervals.Input = {
    datasets: [{ name: "entailment", metric: "accuracy" }],
    runs: runs.map((_, k) => ({
      id: `run${k}`,
      scores: { entailment: { run: goldLabels.map((g) => (draw() < 0.6 + k / 100 ? g : labels[(labels.indexOf(g) + 1) % 3])), gold: goldLabels } }
    })),
    official: "single",
    missingDataset: "no-official-score"
  }
  return { relatedness, entailment }
}

const time = (name: string, input: Intervals.Input, options: Intervals.Options, pairs: number): IntervalsBench => {
  const t0 = process.hrtime.bigint()
  const c0 = process.cpuUsage()
  const result = Intervals.compute(input, options)
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  const cpu = process.cpuUsage(c0)
  if (result instanceof Error) throw result
  if (result.runs.some((r) => r.rankInterval === undefined)) throw new Error(`${name}: a run has no rank interval`)
  return {
    name,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    resamples: result.resamples,
    runs: input.runs.length,
    pairs,
    engine: result.engine,
    load: os.loadavg()[0]
  }
}

export const run = (): Promise<Array<IntervalsBench>> =>
  Promise.resolve().then(() => {
    const pearson = sts2017("pearson")
    const rows: Array<IntervalsBench> = []
    // the first call pays for compiling the WebAssembly kernel and JIT warm-up, as a CLI run does
    rows.push(time("intervals-sts2017-100runs-7tracks-1000resamples-first", pearson, { resamples: 1000 }, 1750))
    const warm = [1, 2, 3].map(() => time("intervals-sts2017-100runs-7tracks-1000resamples", pearson, { resamples: 1000 }, 1750))
    rows.push(warm.sort((a, b) => a.seconds - b.seconds)[1])
    rows.push(time("intervals-sts2017-100runs-7tracks-1000resamples-js", pearson, { resamples: 1000, engine: "js" }, 1750))
    rows.push(time("intervals-sts2017-100runs-7tracks-10000resamples", pearson, { resamples: 10_000 }, 1750))
    rows.push(time("intervals-sts2017-100runs-7tracks-1000resamples-spearman", sts2017("spearman"), { resamples: 1000 }, 1750))
    const { relatedness, entailment } = sick()
    rows.push(time("intervals-sick2014-20runs-relatedness-1000resamples", relatedness, { resamples: 1000 }, 4927))
    rows.push(time("intervals-sick2014-20runs-entailment-1000resamples", entailment, { resamples: 1000 }, 4927))
    return rows
  })

if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)))
}
