// The pairwise step of the bootstrap (Bootstrap.comparePairs: the differences' quantiles from
// each end's heap) against the plain definition written here: every defined difference, sorted, R's
// type 7 quantiles, and the shift-method count.
import { describe, expect, it } from "vitest"
import { Bootstrap, TestResult } from "../src/index.js"
import { makeRuns, mulberry32, normals } from "./data.js"

type Alternative = "two.sided" | "greater" | "less"

/** [lower, upper, extreme, valid] of pair (a, b), the plain way. */
const reference = (
  samples: Float64Array,
  B: number,
  estimates: Float64Array,
  a: number,
  b: number,
  alternative: Alternative,
  confLevel: number
): [number, number, number, number] => {
  const delta = estimates[a] - estimates[b]
  const diffs: Array<number> = []
  let extreme = 0
  for (let i = 0; i < B; i++) {
    const d = samples[a * B + i] - samples[b * B + i]
    if (Number.isNaN(d)) continue
    diffs.push(d)
    if (alternative === "two.sided") extreme += Math.abs(d - delta) >= Math.abs(delta) - 1e-12 ? 1 : 0
    else if (alternative === "greater") extreme += d - delta >= delta - 1e-12 ? 1 : 0
    else extreme += d - delta <= delta + 1e-12 ? 1 : 0
  }
  const sorted = diffs.sort((x, y) => x - y)
  const n = sorted.length
  const q = (p: number) => {
    if (n === 0) return Number.NaN
    const h = (n - 1) * p
    const k = Math.floor(h)
    return k + 1 >= n || h === k ? sorted[k] : sorted[k] + (h - k) * (sorted[k + 1] - sorted[k])
  }
  const alpha = 1 - confLevel
  return [q(alpha / 2), q(1 - alpha / 2), extreme, n]
}

/** K runs x B resamples of statistics shaped like a bootstrap's (a shared part plus each run's own). */
const distribution = (K: number, B: number, seed: number, shape: "smooth" | "ties" | "equal" | "nan") => {
  const rand = mulberry32(seed)
  const normal = normals(rand)
  const common = Float64Array.from({ length: B }, () => normal())
  const estimates = Float64Array.from({ length: K }, (_, k) => 0.8 - 0.01 * k)
  const samples = new Float64Array(K * B)
  for (let k = 0; k < K; k++) {
    for (let i = 0; i < B; i++) {
      let v = estimates[k] + 0.03 * common[i] + 0.01 * (k + 1) * normal() * 0.3
      if (shape === "ties") v = Math.round(v * 50) / 50 // few distinct values: many equal differences
      if (shape === "equal") v = estimates[k] // every difference the same
      if (shape === "nan" && k % 3 === 1 && rand() < 0.01) v = Number.NaN
      samples[k * B + i] = v
    }
  }
  const degenerate = Int32Array.from({ length: K }, (_, k) => {
    let c = 0
    for (let i = 0; i < B; i++) if (Number.isNaN(samples[k * B + i])) c++
    return c
  })
  return { samples, estimates, degenerate, resamples: B }
}

const allPairs = (K: number) => {
  const pa: Array<number> = []
  const pb: Array<number> = []
  for (let a = 0; a < K; a++) {
    for (let b = 0; b < K; b++) {
      if (a !== b) {
        pa.push(a)
        pb.push(b)
      }
    }
  }
  return { pa: Int32Array.from(pa), pb: Int32Array.from(pb) }
}

const check = (d: ReturnType<typeof distribution>, alternative: Alternative, confLevel: number) => {
  const K = d.estimates.length
  const { pa, pb } = allPairs(K)
  const dist = { ...d, runs: K, pairs: 0, signatureText: "", signature: {} as Bootstrap.Distribution["signature"] }
  const got = Bootstrap.comparePairs(dist, { alternative, confLevel, pairs: Array.from(pa, (a, p) => [a, pb[p]] as const) })
  for (let p = 0; p < pa.length; p++) {
    const c = got[p]
    expect([...c.ci, c.pValue, c.valid], `pair ${pa[p]} ${pb[p]}`).toEqual(
      ((r) => [r[0], r[1], (r[2] + 1) / (r[3] + 1), r[3]])(reference(d.samples, d.resamples, d.estimates, pa[p], pb[p], alternative, confLevel))
    )
  }
}

describe("the paired bootstrap's pairwise step", () => {
  it("equals the plain definition: every shape, alternative and level, B below and above 1024, odd B", () => {
    for (const B of [300, 2500, 2501]) {
      for (const shape of ["smooth", "ties", "equal", "nan"] as const) {
        const d = distribution(5, B, B + shape.length, shape)
        for (const alternative of ["two.sided", "greater", "less"] as const) check(d, alternative, 0.95)
        for (const confLevel of [0.5, 0.99, 0.999]) check(d, "two.sided", confLevel)
      }
    }
  })

  it("2 and 3 runs, B around 1024, odd B", () => {
    for (const K of [2, 3]) {
      for (const B of [1024, 1025, 4097]) {
        for (const shape of ["smooth", "ties"] as const) {
          const d = distribution(K, B, 7 * B + K, shape)
          for (const alternative of ["two.sided", "less"] as const) check(d, alternative, 0.95)
          check(d, "greater", 0.9)
        }
      }
    }
  })

  it("every order of the resamples (each difference a new extreme), most of them undefined, B of 1 to 3, levels 0 and 1", () => {
    for (const B of [1, 2, 3, 40, 1000]) {
      const d = distribution(4, B, B, "smooth")
      for (const order of ["ascending", "descending"] as const) {
        // run 0 sorted: its differences with the others (a small spread each) run the same way
        const sorted = d.samples.slice(0, B).sort((x, y) => (order === "ascending" ? x - y : y - x))
        const samples = Float64Array.from(d.samples, (v, i) => (i < B ? sorted[i] * 100 : v))
        for (const confLevel of [0, 0.5, 0.95, 1]) check({ ...d, samples }, "two.sided", confLevel)
      }
      // all but a few resamples of run 1 undefined
      check({ ...d, samples: Float64Array.from(d.samples, (v, i) => (i >= B && i < 2 * B && i % 50 !== 7 ? Number.NaN : v)) }, "two.sided", 0.95)
    }
  })

  it("Bootstrap.comparePairs on real resamples equals the plain definition, pair by pair", () => {
    const { gold, runs } = makeRuns(120, [0.8, 0.9, 1, 1.5, 3], 17)
    const d = Bootstrap.resample(gold, runs, { resamples: 2000, seed: 3 })
    if (TestResult.isInvalid(d)) throw d
    for (const c of Bootstrap.comparePairs(d)) {
      const [lower, upper, extreme, valid] = reference(d.samples, d.resamples, d.estimates, c.a, c.b, "two.sided", 0.95)
      expect(c.ci).toEqual([lower, upper])
      expect(c.pValue).toBe((extreme + 1) / (valid + 1))
      expect(c.valid).toBe(valid)
    }
  })
})
