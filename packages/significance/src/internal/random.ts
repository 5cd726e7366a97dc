// Seeded random numbers for the resampling: pure-rand's mutable xoroshiro128+ (no allocation per
// draw), and Lemire's (2019) multiply-and-reject bounded draw, hand-written because it runs N times
// per resample: one multiply, almost never a division, exactly unbiased, on the high bits of the
// word. rankSums.ts (compiled by worker threads from its source) repeats `next()` and `below()`
// inline; tests check that it reproduces this stream.
import { xoroshiro128plus, xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus"

export interface Rng {
  next(): number
}

export const make = (seed: number): Rng => xoroshiro128plus(seed | 0)

const TWO32 = 4294967296

/** The most values `below` draws from (x * n is then exact in a double): the most pairs a resampled dataset may have. */
export const MAX_BELOW = 2 ** 21

/** Uniform integer in [0, n), n <= MAX_BELOW. */
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

/**
 * Resamples per chunk of the documented stream: chunk c draws from the seeded generator advanced by
 * c jumps of 2^64 steps, so chunks can run in any order, on any thread, with the same bits.
 */
export const CHUNK = 64

/** Generator state at the start of each chunk, as int32 words [s0 low, s0 high, s1 low, s1 high]. */
export const chunkStates = (seed: number, chunks: number): Int32Array => {
  const rng = xoroshiro128plus(seed | 0)
  const out = new Int32Array(4 * chunks)
  for (let c = 0; c < chunks; c++) {
    const [s01, s00, s11, s10] = rng.getState()
    out.set([s00, s01, s10, s11], 4 * c)
    rng.jump()
  }
  return out
}

/** A generator positioned at the start of chunk c (`states` from `chunkStates`). */
export const chunkRng = (states: Int32Array, c: number): Rng =>
  xoroshiro128plusFromState([states[4 * c + 1], states[4 * c], states[4 * c + 3], states[4 * c + 2]])
