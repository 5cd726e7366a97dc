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
// and almost never a division, while staying exactly unbiased. pure-rand's `next()` returns the low
// 32 bits of xoroshiro128+'s 64-bit output; the multiply takes the high bits of that word (bits
// ~19-31 of the output for n up to 2^13), well clear of the weak lowest bits.
//
// The rank walks' kernel (rankSums.ts, which worker threads compile from its source, so it
// cannot import this file) re-implements `next()` and `below()` inline on the same state; tests check that they reproduce this
// stream exactly.
import { xoroshiro128plus, xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus"

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

/**
 * Resamples per chunk of the bootstrap's random stream. Chunk c draws from the seeded generator
 * advanced by c jumps of 2^64 steps (xoroshiro128+'s jump polynomial, as pure-rand's `jump()`), so
 * every chunk's draws depend only on (seed, c): chunks can be computed in any order, on any thread,
 * with bit-identical results, and the first CHUNK resamples use the plain seeded stream. Part of the
 * documented stream: changing it changes every result beyond the first chunk.
 */
export const CHUNK = 64

/** Generator state at the start of each chunk, as int32 words [s0 low, s0 high, s1 low, s1 high]. */
export const chunkStates = (seed: number, chunks: number): Int32Array => {
  const rng = xoroshiro128plus(seed | 0)
  const out = new Int32Array(4 * chunks)
  for (let c = 0; c < chunks; c++) {
    const [s01, s00, s11, s10] = rng.getState()
    out[4 * c] = s00
    out[4 * c + 1] = s01
    out[4 * c + 2] = s10
    out[4 * c + 3] = s11
    rng.jump()
  }
  return out
}

/** A generator positioned at the start of chunk c (`states` from `chunkStates`). */
export const chunkRng = (states: Int32Array, c: number): Rng =>
  xoroshiro128plusFromState([states[4 * c + 1], states[4 * c], states[4 * c + 3], states[4 * c + 2]])
