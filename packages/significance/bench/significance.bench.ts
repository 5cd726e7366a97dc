// Benchmark: all-pairs paired bootstrap, 10,000 resamples, on synthetic data shaped like
// (a) STS 2017: 44 runs x 7 tracks x 250 pairs, stratified, unweighted mean of track Pearsons;
// (b) SICK 2014 relatedness: 20 runs on 4927 pairs.
// Run: npx tsx packages/significance/bench/significance.bench.ts   (prints JSON)
// The same jobs with NumPy (bench/numpy_bootstrap.py) run in the same benchmark run, after ours.
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"
import { Bootstrap } from "../src/index.js"

export interface BenchResult {
  readonly name: string
  readonly seconds: number
  readonly resamples: number
  readonly runs: number
  readonly pairs: number
  /** NumPy rows: how many times longer NumPy took than our default run of the same job */
  readonly numpyOverStseval?: number
}

/** Synthetic gold in [0, 5] and runs = gold + run-specific noise (seeded, Box-Muller). */
export const synthetic = (pairs: number, runs: number, seed: number) => {
  const rng = xoroshiro128plus(seed)
  const uniform = () => ((rng.next() >>> 0) + 0.5) / 4294967296
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())
  const gold = new Float64Array(pairs)
  for (let i = 0; i < pairs; i++) gold[i] = 5 * uniform()
  const runScores: Array<Float64Array> = []
  for (let k = 0; k < runs; k++) {
    const noise = 0.5 + 2 * (k / runs)
    const x = new Float64Array(pairs)
    for (let i = 0; i < pairs; i++) x[i] = gold[i] + noise * normal()
    runScores.push(x)
  }
  return { gold, runs: runScores }
}

const time = (name: string, job: () => { resamples: number; runs: number; pairs: number }): BenchResult => {
  const t0 = process.hrtime.bigint()
  const shape = job()
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  return { name, seconds, ...shape }
}

/** `fast` (pnpm bench --fast): 1,000 resamples instead of 10,000. */
export const run = (options: { readonly fast?: boolean; readonly resamples?: number } = {}): Promise<Array<BenchResult>> =>
  Promise.resolve().then(() => {
    const resamples = options.resamples ?? (options.fast === true ? 1000 : 10_000)
    const ours = jobs(resamples)
    return [...ours, ...numpyJobs(resamples, ours)]
  })

/**
 * The same two jobs with NumPy in its best formulation (bench/numpy_bootstrap.py: multiplicity
 * counts per block of resamples, one batched GEMM against the runs' sufficient statistics), in this
 * benchmark run, with OpenBLAS on one thread and on two, choosing its own kernel
 * (OPENBLAS_CORETYPE unset). Skipped, with a row saying so, when python3 with NumPy is not installed.
 */
const numpyJobs = (resamples: number, ours: ReadonlyArray<BenchResult>): Array<BenchResult> => {
  const script = path.join(import.meta.dirname, "numpy_bootstrap.py")
  const rows: Array<BenchResult> = []
  for (const threads of ["1", "2"]) {
    const out = spawnSync("python3", [script, "synthetic", "--resamples", String(resamples)], {
      encoding: "utf8",
      env: { ...process.env, OPENBLAS_NUM_THREADS: threads, OMP_NUM_THREADS: threads, OPENBLAS_CORETYPE: undefined, OPENBLAS_L2_SIZE: undefined }
    })
    if (out.status !== 0) {
      rows.push({ name: `numpy skipped: ${(out.stderr || String(out.error)).trim().split("\n").pop() ?? "python3 failed"}`, seconds: Number.NaN, resamples, runs: 0, pairs: 0 })
      return rows
    }
    const parsed = JSON.parse(out.stdout) as { results: ReadonlyArray<BenchResult> }
    for (const r of parsed.results) {
      const job = r.name.replace(/^numpy-counts-/, "")
      const mine = ours.find((o) => o.name === job)
      rows.push({ ...r, name: `${r.name}-blas${threads}thread`, ...(mine !== undefined ? { numpyOverStseval: r.seconds / mine.seconds } : {}) })
    }
  }
  return rows
}

const jobs = (resamples: number): Array<BenchResult> => {
  const sts = synthetic(7 * 250, 44, 1)
  const strata = new Int32Array(7 * 250).map((_, i) => Math.floor(i / 250))
  const sick = synthetic(4927, 20, 2)
  const results: Array<BenchResult> = []
  // Default threads (every core for jobs this size), then one thread, for comparison with
  // single-threaded BLAS. The first row also pays for starting the worker thread and for JIT
  // warm-up; the -1thread rows run warm (start a fresh process for a cold single-thread figure).
  for (const [suffix, threads] of [["", undefined], ["-1thread", 1]] as const) {
    results.push(time(`sts2017-44runs-7tracks-250pairs-allpairs${suffix}`, () => {
      const d = Bootstrap.resample(sts.gold, sts.runs, { resamples, seed: 12345, strata, aggregate: "unweighted", threads })
      if (d instanceof Error) throw d
      const pairs = Bootstrap.comparePairs(d)
      if (pairs.length !== (44 * 43) / 2) throw new Error("wrong number of pairs")
      return { resamples, runs: 44, pairs: 7 * 250 }
    }))
    results.push(time(`sick2014-20runs-4927pairs-allpairs${suffix}`, () => {
      const d = Bootstrap.resample(sick.gold, sick.runs, { resamples, seed: 12345, threads })
      if (d instanceof Error) throw d
      const pairs = Bootstrap.comparePairs(d)
      if (pairs.length !== (20 * 19) / 2) throw new Error("wrong number of pairs")
      return { resamples, runs: 20, pairs: 4927 }
    }))
  }
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)))
}
