/**
 * Micro-benchmark of the hot metric kernels, wired into `pnpm bench` by tooling/bench.
 * Sizes: 1379 (STS Benchmark test), 4927 (SICK test), 1e6 (stress). Inputs are deterministic
 * pseudo-random 0-5 scores with ties (4 decimals), so Spearman exercises its tie handling.
 *
 * @since 0.1.0
 */
import { Pearson, Spearman } from "../src/index.js"

export interface BenchResult {
  readonly name: string
  readonly opsPerSec: number
  readonly n: number
}

// Deterministic LCG (no dependency needed for benchmark inputs).
const scores = (n: number, seed: number): Float64Array => {
  const out = new Float64Array(n)
  let s = seed >>> 0
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    out[i] = Math.round((s / 4294967296) * 50000) / 10000
  }
  return out
}

let sink = 0

const time = (name: string, n: number, f: () => number): BenchResult => {
  // Warm up (lets the JIT optimise), then run for ~200 ms or at least 3 iterations.
  for (let i = 0; i < 3; i++) sink += f()
  let iterations = 0
  const start = performance.now()
  let elapsed = 0
  while (iterations < 3 || elapsed < 200) {
    sink += f()
    iterations++
    elapsed = performance.now() - start
  }
  return { name, n, opsPerSec: (iterations * 1000) / elapsed }
}

/**
 * Time pearson, pearsonAt (bootstrap kernel) and spearman at each size.
 *
 * @since 0.1.0
 */
export const run = (): Array<BenchResult> => {
  const results: Array<BenchResult> = []
  for (const n of [1379, 4927, 1_000_000]) {
    const x = scores(n, 1)
    const y = scores(n, 2)
    const idx = new Int32Array(n)
    let s = 7
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0
      idx[i] = s % n
    }
    results.push(time("pearson", n, () => Pearson.pearsonRaw(y, x)))
    results.push(time("pearsonAt (resample)", n, () => Pearson.pearsonAt(x, y, idx)))
    results.push(
      time("spearman", n, () => {
        const r = Spearman.spearman(y, x)
        return r._tag === "Defined" ? r.value : 0
      })
    )
  }
  if (Number.isNaN(sink)) results.push({ name: "sink", n: 0, opsPerSec: 0 })
  return results
}
