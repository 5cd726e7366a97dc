// A seeded generator for the tests' synthetic data: mulberry32, the tests' own, unrelated to the
// engine's xoroshiro128+ (internal/random.ts of significance), so fixtures do not depend on the
// code they check.

/**
 * A uniform generator on [0, 1) from a 32-bit seed.
 *
 * @param {number} seed
 * @returns {() => number}
 */
export const mulberry32 = (seed) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const standardise = (x) => {
  const n = x.length
  const m = x.reduce((s, v) => s + v, 0) / n
  const sd = Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / n)
  return x.map((v) => (v - m) / sd)
}

/**
 * Two runs A, B with exact r(gold, A) = rJk, r(gold, B) = rJh and r(A, B) = rKh (Gram-Schmidt on
 * the standardised gold and two noise vectors from mulberry32(seed)), so a significance test sees
 * exactly the inputs of a row of cocor's reference output.
 *
 * @param {Float64Array} gold
 * @param {number} rJk
 * @param {number} rJh
 * @param {number} rKh
 * @param {number} seed
 * @returns {[Float64Array, Float64Array]}
 */
export const runsWithCorrelations = (gold, rJk, rJh, rKh, seed) => {
  const n = gold.length
  const z = standardise(gold)
  const u = mulberry32(seed)
  const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0) / n
  const orth = (v, basis) => {
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
