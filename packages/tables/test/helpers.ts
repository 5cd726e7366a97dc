/**
 * Test helpers: gold scores (real from ../shared when present, else synthetic) and runs whose
 * Pearson r against a gold is exactly a chosen value.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { mulberry32 } from "@stseval/vitest-config/random"

const here = path.dirname(fileURLToPath(import.meta.url))
/** repo root = packages/tables/test/../../.. */
export const repoRoot = path.resolve(here, "../../..")
// STSEVAL_SHARED_DIR overrides the location (e.g. a missing path, to check the suite passes without it)
export const sharedDir = process.env.STSEVAL_SHARED_DIR ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedDir, "data"))

/** A small deterministic PRNG (mulberry32) so fixtures are reproducible. */
export const rng = mulberry32

/** Synthetic gold on the 0-5 scale. */
export const syntheticGold = (n: number, seed: number): Float64Array => {
  const u = rng(seed)
  return Float64Array.from({ length: n }, () => Math.round(u() * 50) / 10)
}

/** Gold scores of a `STS.gs.*.txt` file (blank lines skipped). */
export const readGold = (file: string): Float64Array =>
  Float64Array.from(
    fs
      .readFileSync(file, "utf8")
      .split(/\r?\n/)
      .filter((l) => l.trim().length > 0)
      .map((l) => Number(l.split("\t")[0]))
  )

const standardise = (x: Float64Array): Float64Array => {
  const n = x.length
  const m = x.reduce((s, v) => s + v, 0) / n
  const sd = Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / n)
  return x.map((v) => (v - m) / sd)
}

export const pearson = (x: Float64Array, y: Float64Array): number => {
  const zx = standardise(x)
  const zy = standardise(y)
  return zx.reduce((s, v, i) => s + v * zy[i], 0) / x.length
}

/**
 * A run with Pearson r exactly `r` against `gold`: z = standardised gold, e = noise made orthogonal
 * to z (residual of noise regressed on z) and standardised; run = r z + sqrt(1 - r^2) e, mapped to
 * the 0-5 scale (an affine map keeps r).
 */
export const runWithPearson = (gold: Float64Array, r: number, seed: number): Float64Array => {
  const z = standardise(gold)
  const u = rng(seed)
  const noise = standardise(Float64Array.from(gold, () => u() + u() + u() - 1.5))
  const b = noise.reduce((s, v, i) => s + v * z[i], 0) / z.length
  const e = standardise(noise.map((v, i) => v - b * z[i]))
  return z.map((v, i) => 2.5 + 0.9 * (r * v + Math.sqrt(1 - r * r) * e[i]))
}

/**
 * Two runs A, B with exact r(gold, A) = rJk, r(gold, B) = rJh and r(A, B) = rKh (Gram-Schmidt on
 * the standardised gold and two noise vectors), so a significance test sees exactly the inputs
 * of a row of cocor's reference output.
 */
export const runsWithCorrelations = (gold: Float64Array, rJk: number, rJh: number, rKh: number, seed: number): [Float64Array, Float64Array] => {
  const n = gold.length
  const z = standardise(gold)
  const u = rng(seed)
  const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i], 0) / n
  const orth = (v: Float64Array, basis: ReadonlyArray<Float64Array>) => {
    let w = standardise(v)
    for (const q of basis) {
      const c = dot(w, q)
      w = w.map((x, i) => x - c * q[i])
    }
    return standardise(w)
  }
  const e1 = orth(Float64Array.from({ length: n }, () => u() - 0.5), [z])
  const e2 = orth(Float64Array.from({ length: n }, () => u() - 0.5), [z, e1])
  const a1 = Math.sqrt(1 - rJk * rJk)
  const c = (rKh - rJk * rJh) / a1
  const d = Math.sqrt(1 - rJh * rJh - c * c)
  const A = z.map((v, i) => 2.5 + rJk * v + a1 * e1[i])
  const B = z.map((v, i) => 2.5 + rJh * v + c * e1[i] + d * e2[i])
  return [A, B]
}
