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
