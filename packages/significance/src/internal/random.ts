// Seeded random numbers for the resampling kernels.
//
// pure-rand's generators (v8) are mutable: `next()` advances the generator in place and returns a
// 32-bit integer, so the hot loops allocate nothing per draw (the immutable API of older pure-rand
// returned a new generator object per call, which dominated run time). xoroshiro128+ is fast, has a
// 2^128 period and is what pure-rand recommends for speed.
//
// The bounded draw is hand-written (Lemire 2019, "Fast random integer generation in an interval")
// rather than pure-rand's `uniformInt`, because it is called N times per resample (49 million times
// for 10,000 resamples of SICK's 4927 pairs) and the multiply-and-reject form needs one multiply
// and almost never a division, while staying exactly unbiased. It uses the generator's high bits,
// which for xoroshiro128+ are the strongest.
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"

export interface Rng {
  next(): number
}

export const make = (seed: number): Rng => xoroshiro128plus(seed | 0)

const TWO32 = 4294967296

/** Uniform integer in [0, n), n <= 2^21 (so x * n is exact in a double). */
export const below = (rng: Rng, n: number): number => {
  let m = (rng.next() >>> 0) * n
  let low = m >>> 0
  if (low < n) {
    const threshold = (TWO32 - n) % n
    while (low < threshold) {
      m = (rng.next() >>> 0) * n
      low = m >>> 0
    }
  }
  return Math.floor(m / TWO32)
}
