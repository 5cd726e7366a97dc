// The property every `...At` kernel (a metric over a bootstrap resample given as indices) holds.
import fc from "fast-check"
import { expect } from "vitest"

/**
 * On any pairs drawn from `value` (2 to `maxPairs`) and any resample of them (twice as many
 * indices at most, duplicates included, as an `Index` array), `at(x, y, idx)` gives what `whole`
 * gives on the pairs gathered (gold first), NaN where that is NaN.
 */
export const agreesOnResamples = (
  value: fc.Arbitrary<number>,
  maxPairs: number,
  Index: Int32ArrayConstructor | Uint32ArrayConstructor,
  whole: (gold: Float64Array, run: Float64Array) => number,
  at: (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array) => number
): void =>
  fc.assert(
    fc.property(
      fc.array(fc.tuple(value, value), { minLength: 2, maxLength: maxPairs }),
      fc.array(fc.nat(), { minLength: 2, maxLength: 2 * maxPairs }),
      (pairs, raw) => {
        const x = Float64Array.from(pairs, (p) => p[0])
        const y = Float64Array.from(pairs, (p) => p[1])
        const idx = Index.from(raw.map((k) => k % pairs.length))
        const gathered = whole(Float64Array.from(idx, (j) => y[j]), Float64Array.from(idx, (j) => x[j]))
        const got = at(x, y, idx)
        if (Number.isNaN(gathered)) expect(got).toBeNaN()
        else expect(got).toBeCloseTo(gathered, 12)
      }
    )
  )
