// Holm's one sorted pass (Correction.holm on internal/search.ts's order by the values' bits) against the textbook
// definition: p sorted ascending, p_(i) adjusted = max over j <= i of min(1, (m - j + 1) p_(j)).
import { describe, expect, it } from "vitest"
import { Correction } from "../src/index.js"
import { ascendingOrder } from "../src/internal/search.js"

/** The order by value, ties by index, by a comparator sort. */
const byComparator = (v: ArrayLike<number>): Array<number> => Array.from({ length: v.length }, (_, i) => i).sort((a, b) => v[a] - v[b] || a - b)

/** Holm by its definition, quadratic: every rank's max over the ranks below. */
const textbook = (p: ReadonlyArray<number>): Array<number> => {
  const kept = p.flatMap((v, i) => (Number.isNaN(v) ? [] : [i]))
  const order = byComparator(kept.map((i) => p[i])).map((j) => kept[j])
  const out = p.slice()
  order.forEach((i, rank) => {
    let max = 0
    for (let j = 0; j <= rank; j++) max = Math.max(max, Math.min(1, (order.length - j) * p[order[j]]))
    out[i] = max
  })
  return out
}

// values that differ in one part of their bits each: the lowest bit (ulps apart), the top of the low half,
// the exponent; subnormals, zero, one, ties, and p-values past a double's range
const nextUp = (x: number): number => {
  const b = new Float64Array([x])
  const w = new BigUint64Array(b.buffer)
  w[0] += 1n
  return b[0]
}
const hard = [
  0.5, nextUp(0.5), nextUp(nextUp(0.5)), 0.5 + 2 ** -22, 0.5 + 2 ** -33, 5e-324, 1e-310, 0, 1, 1, 0.25, 0.5, 1e-300, 1e-300 * 3, 0.75,
  nextUp(0), 2 ** -1022, 0.0625, nextUp(0.0625), 0.03, 0.03, 0.03
]

describe("Holm in one sorted pass", () => {
  it("the order is the comparator's (value, then index) on values ulps apart, ties, subnormals and zero", () => {
    const v = Float64Array.from([...hard, ...hard.slice().reverse()])
    expect(Array.from(ascendingOrder(v, v.length))).toEqual(byComparator(v))
    // values sharing a high word (0.5 + k 2^-40), shuffled, with ties: a short group and a long one
    for (const size of [9, 200]) {
      const shared = Float64Array.from({ length: size }, (_, i) => 0.5 + ((i * 37) % Math.ceil(size * 0.7)) * 2 ** -40)
      expect(Array.from(ascendingOrder(shared, size))).toEqual(byComparator(shared))
    }
    // a prefix only, and the empty and one-value cases
    expect(Array.from(ascendingOrder(v, 5))).toEqual(byComparator(v.subarray(0, 5)))
    expect(Array.from(ascendingOrder(v, 0))).toEqual([])
    expect(Array.from(ascendingOrder(Float64Array.of(0.3), 1))).toEqual([0])
  })

  it("on 124,750 p-values (the pairs of 500 runs) with ties, zeros and ulp-apart values: the textbook's, bit for bit", () => {
    const m = 124_750
    let state = 12345
    const uniform = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
    const p = Array.from({ length: m }, (_, i) => {
      const u = uniform()
      if (i % 13 === 0) return 1
      if (i % 17 === 0) return 0
      if (i % 19 === 0) return hard[i % hard.length]
      return u ** 8 // most near 0, as all pairs of many runs give
    })
    // the textbook in O(m log m): the same running max over the comparator's order
    const order = byComparator(p)
    const expected = new Array<number>(m)
    let running = 0
    order.forEach((i, rank) => (expected[i] = running = Math.max(running, Math.min(1, (m - rank) * p[i]))))
    const out = Correction.holm(p)
    // counted, not toEqual: a diff of 124,750 numbers is seconds of the test's time
    let differ = 0
    for (let i = 0; i < m; i++) if (!Object.is(out[i], expected[i])) differ++
    expect(differ).toBe(0)
    // and the quadratic definition on a slice of them with the hard values
    const some = [...p.slice(0, 400), ...hard, Number.NaN]
    expect(Correction.holm(some)).toEqual(textbook(some))
  })

  it("negative values and -0 (no p-value, but the function takes any number): as the definition", () => {
    const p = [0.2, -0.1, -0, 0, 0.05, Number.NaN, -0.3, 0.2]
    const out = Correction.holm(p)
    expect(out).toEqual(textbook(p))
    expect(out[5]).toBeNaN()
  })
})
