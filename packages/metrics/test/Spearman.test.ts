import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { agreesOnResamples } from "./support/resample.js"
import { MetricValue, Pearson, Spearman } from "@stseval/metrics"
import { coldAverageRanks, radixAverageRanks, spreadAverageRanks, spreadGroupsInto } from "../src/internal/ranks.js"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)

// Independent O(n^2) oracle: rank = (#smaller) + (#equal + 1) / 2.
const naiveRanks = (x: Float64Array): Float64Array =>
  x.map((v) => {
    let less = 0
    let equal = 0
    for (const u of x) {
      if (u < v) less++
      else if (u === v) equal++
    }
    return less + (equal + 1) / 2
  })

/** n scores value(i, u) from a seeded generator (u uniform in [0, 1)). */
const scores = (n: number, value: (i: number, u: number) => number, seed = 987654321) => {
  let s = seed
  return Float64Array.from({ length: n }, (_, i) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return value(i, s / 4294967296)
  })
}

// Independent oracle of sortedGroups: positions sorted by (value, position) with a comparator; a
// group begins where the value changes (-0 and 0 compare equal)
const oracle = (x: Float64Array) => {
  const order = Array.from(x, (_, i) => i).sort((a, b) => (x[a] < x[b] ? -1 : x[a] > x[b] ? 1 : a - b))
  const bounds = order.flatMap((p, j) => (j === 0 || x[p] !== x[order[j - 1]] ? [j] : []))
  return { order, bounds: [...bounds, x.length] }
}

describe("Spearman.averageRanks", () => {
  it("hand-worked ties: [10, 20, 20, 30] -> [1, 2.5, 2.5, 4]", () => {
    // The two 20s occupy positions 2 and 3, so each gets (2 + 3) / 2 = 2.5.
    expect(Array.from(Spearman.averageRanks(f([10, 20, 20, 30])))).toEqual([1, 2.5, 2.5, 4])
  })

  it("hand-worked: unsorted input with a triple tie", () => {
    // Sorted: 1 (pos 1), 5 5 5 (pos 2,3,4 -> 3), 7 (pos 5).
    expect(Array.from(Spearman.averageRanks(f([5, 7, 5, 1, 5])))).toEqual([3, 5, 3, 1, 3])
  })

  it("treats -0 and +0 as one tie", () => {
    expect(Array.from(Spearman.averageRanks(f([0, -0, 1])))).toEqual([1.5, 1.5, 3])
  })

  it("matches the O(n^2) definition on arbitrary doubles: negatives, -0, infinities, subnormals (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(0, -0, Infinity, -Infinity, 5e-324, -5e-324, 2.5)),
          { maxLength: 60 }
        ),
        (xs) => {
          const x = f(xs)
          expect(Array.from(Spearman.averageRanks(x))).toEqual(Array.from(naiveRanks(x)))
        }
      )
    )
  })

  it("matches the O(n^2) definition on 3000 scores with 4 decimals and many ties", () => {
    // Large enough that every radix pass moves data; 0-5 with 2 decimals gives ~500 distinct values.
    const x = new Float64Array(3000)
    let s = 12345
    for (let i = 0; i < x.length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0
      x[i] = Math.round((s / 4294967296) * 500) / 100 - (i % 7 === 0 ? 2.5 : 0)
    }
    expect(Array.from(Spearman.averageRanks(x))).toEqual(Array.from(naiveRanks(x)))
  })

  it("handles empty input and rejects NaN", () => {
    expect(Spearman.averageRanks(f([])).length).toBe(0)
    expect(Array.from(Spearman.averageRanks(f([4.2])))).toEqual([1])
    expect(() => Spearman.averageRanks(f([1, NaN]))).toThrow(RangeError)
  })

  it("matches the O(n^2) definition and sums to n(n+1)/2 (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -4, max: 4 }), { maxLength: 50 }), (xs) => {
        const x = f(xs)
        const r = Spearman.averageRanks(x)
        expect(Array.from(r)).toEqual(Array.from(naiveRanks(x)))
        const n = xs.length
        expect(r.reduce((a, b) => a + b, 0)).toBe((n * (n + 1)) / 2)
      })
    )
  })
})

// averageRanks takes a native sort for the first rankings of a process and the spread sort, else the
// radix sort, after: each path on its own, at sizes where the radix sort runs (1,024 scores and more).
describe.each([
  ["the first rankings (native sort)", coldAverageRanks],
  ["later rankings (radix sort)", radixAverageRanks],
  ["later rankings (spread sort, else radix sort)", spreadAverageRanks]
])("average ranks: %s", (_, rank) => {
  const ranks = (x: Float64Array) => {
    const out = new Float64Array(x.length)
    rank(x, out)
    return out
  }
  it("matches the O(n^2) definition on 2,000 scores with 2 decimals and many ties, negatives and -0", () => {
    const x = scores(2000, (i, u) => (i % 11 === 0 ? -0 : Math.round(u * 500) / 100 - (i % 7 === 0 ? 2.5 : 0)))
    expect(Array.from(ranks(x))).toEqual(Array.from(naiveRanks(x)))
  })

  it("matches the O(n^2) definition on 1,500 arbitrary doubles: infinities, subnormals, +0 and -0", () => {
    const special = [Infinity, -Infinity, 5e-324, -5e-324, 0, -0, Number.MAX_VALUE, -Number.MAX_VALUE]
    const x = scores(1500, (i, u) => (i % 5 === 0 ? special[i % special.length] : (u - 0.5) * 10 ** ((i % 40) - 20)))
    expect(Array.from(ranks(x))).toEqual(Array.from(naiveRanks(x)))
  })
})

describe("Spearman.sortedGroups", () => {
  const plain = (g: { order: Int32Array; bounds: Int32Array }) => ({ order: Array.from(g.order), bounds: Array.from(g.bounds) })

  it("hand-worked: [30, 10, 20, 10] -> order [1, 3, 2, 0], groups at [0, 2, 3, 4]", () => {
    expect(plain(Spearman.sortedGroups(f([30, 10, 20, 10])))).toEqual({ order: [1, 3, 2, 0], bounds: [0, 2, 3, 4] })
    expect(plain(Spearman.sortedGroups(f([])))).toEqual({ order: [], bounds: [0] })
    expect(plain(Spearman.sortedGroups(f([7])))).toEqual({ order: [0], bounds: [0, 1] })
  })

  it("matches the comparator sort on 3,000 scores: many ties, negatives, -0 and 0 tied, subnormals; twice in a row (its buffers are reused)", () => {
    let s = 12345
    const x = Float64Array.from({ length: 3000 }, (_, i) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0
      return i % 13 === 0 ? (i % 2 === 0 ? -0 : 0) : i % 17 === 0 ? 5e-324 : Math.round((s / 4294967296) * 400) / 100 - 2
    })
    expect(plain(Spearman.sortedGroups(x))).toEqual(oracle(x))
    const y = x.map((v) => -v)
    expect(plain(Spearman.sortedGroups(y))).toEqual(oracle(y))
  })
})

describe("the spread sort (spreadGroupsInto)", () => {
  const spread = (x: Float64Array) => {
    const order = new Int32Array(x.length)
    const bounds = new Int32Array(x.length + 1)
    const used = spreadGroupsInto(x, order, bounds)
    return used === undefined ? undefined : { order: Array.from(order), bounds: Array.from(bounds.subarray(0, used)) }
  }

  it("orders spread scores itself, as the comparator sort: 4 decimals, ties, -0 and 0 tied, negatives, the range's ends", () => {
    const x = scores(1379, (i, u) => (i % 97 === 0 ? (i % 2 === 0 ? -0 : 0) : i % 89 === 0 ? 5 : i % 83 === 0 ? -1 : Math.round(u * 50000) / 10000), 24680)
    expect(spread(x)).toEqual(oracle(x))
    const ties = scores(3000, (_, u) => Math.round(u * 25) / 5, 24680)
    expect(spread(ties)).toEqual(oracle(ties))
  })

  it("ranks above the kept scratch's size (65,536 scores) as below it: the radix sort's ranks, and a kept-size ranking after it", () => {
    // a fresh half of scratch each for the buckets and for the order: they must not overlap
    const big = scores(70_000, (i, u) => (i % 13 === 0 ? 0.5 : Math.round(u * 1e5) / 1e4), 13579)
    const spread = new Float64Array(big.length)
    const radix = new Float64Array(big.length)
    spreadAverageRanks(big, spread)
    radixAverageRanks(big, radix)
    expect(spread).toEqual(radix)
    const small = scores(5000, (_, u) => Math.round(u * 3000) / 100, 97531)
    const kept = new Float64Array(small.length)
    spreadAverageRanks(small, kept)
    expect(kept).toEqual(naiveRanks(small))
  })

  it("gives up where it cannot place the scores or would be slow, and sortedGroups is then the radix sort's, the same order", () => {
    const infinite = scores(1500, (i, u) => (i === 7 ? Infinity : u), 24680)
    // crowded: nearly every score in the first of 2,000 buckets, one far away
    const crowded = scores(2000, (i, u) => (i === 0 ? 1e6 : u), 24680)
    const constant = new Float64Array(1200).fill(2.5)
    for (const x of [infinite, crowded, constant, Float64Array.of(5e-324, 0, 5e-324)]) {
      expect(spread(x)).toBeUndefined()
      const g = Spearman.sortedGroups(x)
      expect({ order: Array.from(g.order), bounds: Array.from(g.bounds) }).toEqual(oracle(x))
    }
  })
})

describe("Spearman.sortedGroupsInto", () => {
  it("writes sortedGroups' order and bounds into the caller's arrays, at views of one buffer, and says how many bounds", () => {
    // two arrays sorted one after the other into one buffer, as the walk plan does
    const a = f([30, 10, 20, 10])
    const b = f([5, 5, -0, 0, 7])
    const order = new Int32Array(9).fill(-9)
    const bounds = new Int32Array(11).fill(-9)
    expect(Spearman.sortedGroupsInto(a, order.subarray(0, 4), bounds.subarray(0, 5))).toBe(4)
    // b's bounds follow a's 4 written ones
    expect(Spearman.sortedGroupsInto(b, order.subarray(4), bounds.subarray(4))).toBe(4)
    expect(Array.from(order)).toEqual([1, 3, 2, 0, 2, 3, 0, 1, 4])
    expect(Array.from(bounds.subarray(0, 8))).toEqual([0, 2, 3, 4, 0, 2, 4, 5])
    // nothing past what it says it wrote
    expect(Array.from(bounds.subarray(8))).toEqual([-9, -9, -9])
    expect(Spearman.sortedGroupsInto(f([]), new Int32Array(0), bounds)).toBe(1)
    expect(bounds[0]).toBe(0)
  })
})

describe("Spearman.spearman", () => {
  it("hand-worked with ties: run [1,2,2,3], gold [1,3,2,4] gives sqrt(0.9), not the d^2 shortcut's 0.95", () => {
    // Ranks: run [1, 2.5, 2.5, 4], gold [1, 3, 2, 4]; both means 2.5.
    // d_run = [-1.5, 0, 0, 1.5], d_gold = [-1.5, 0.5, -0.5, 1.5]
    // sxy = 2.25 + 0 + 0 + 2.25 = 4.5; sxx = 4.5; syy = 2.25 + 0.25 + 0.25 + 2.25 = 5
    // rho = 4.5 / sqrt(4.5 * 5) = sqrt(0.9) = 0.9486832980505138.
    // The shortcut: sum d^2 = 0.25 + 0.25 = 0.5, 1 - 6 * 0.5 / (4 * 15) = 0.95 (wrong with ties).
    const rho = Spearman.spearman(f([1, 3, 2, 4]), f([1, 2, 2, 3]))
    expect(MetricValue.getOrNaN(rho)).toBeCloseTo(Math.sqrt(0.9), 15)
    expect(MetricValue.getOrNaN(rho)).not.toBeCloseTo(0.95, 3)
  })

  it("is 1 for any strictly increasing transform of the gold", () => {
    const gold = f([0.5, 3.2, 1.1, 4.9, 2.0])
    expect(MetricValue.getOrNaN(Spearman.spearman(gold, gold.map((v) => Math.exp(v))))).toBeCloseTo(1, 15)
  })

  it("scores many runs against one gold array, and a gold changed in place since is ranked afresh", () => {
    // hand-worked: gold [1, 3, 2, 4] ranks [1, 3, 2, 4]; run [1, 2, 3, 4]: sxy = 4, rho = 0.8
    const gold = f([1, 3, 2, 4])
    expect(MetricValue.getOrNaN(Spearman.spearman(gold, f([1, 2, 3, 4])))).toBeCloseTo(0.8, 15)
    expect(MetricValue.getOrNaN(Spearman.spearman(gold, f([1, 3, 2, 4])))).toBe(1)
    // the same array, now [4, 3, 2, 1]: rho with [1, 2, 3, 4] is -1, not the 0.8 of the old gold
    gold.set([4, 3, 2, 1])
    expect(MetricValue.getOrNaN(Spearman.spearman(gold, f([1, 2, 3, 4])))).toBe(-1)
    // a gold of another length in its place
    expect(MetricValue.getOrNaN(Spearman.spearman(f([1, 2, 3]), f([3, 2, 1])))).toBe(-1)
  })

  it("reads the gold it ranked last once a run (to see it unchanged), not again to check it is finite", () => {
    const values = f([1, 3, 2, 4, 6, 5])
    let reads = 0
    // a stand-in for the gold array that counts its elements' reads
    const gold = new Proxy(values, {
      get: (target, key) => {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++
        const v = Reflect.get(target, key, target) as unknown
        return typeof v === "function" ? (v as (...args: Array<unknown>) => unknown).bind(target) : v
      }
    })
    const first = Spearman.spearman(gold, f([1, 2, 3, 4, 5, 6]))
    reads = 0
    const second = Spearman.spearman(gold, f([1, 2, 3, 4, 5, 6]))
    expect(second).toEqual(first)
    expect(reads).toBe(values.length)
    // changed since: ranked afresh, and checked again (NaN has no rank)
    values[2] = NaN
    expect(Spearman.spearman(gold, f([1, 2, 3, 4, 5, 6]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldNotFinite))
  })

  it("ranks each run afresh in the array it keeps from run to run: runs of other lengths in turn, each Pearson of its own average ranks", () => {
    const hundredths = (n: number, seed: number) => scores(n, (_, u) => Math.round(u * 500) / 100, seed)
    const golds = new Map([1500, 5, 1200].map((n) => [n, hundredths(n, n)]))
    for (const [i, n] of [1500, 5, 1500, 1200, 5].entries()) {
      const gold = golds.get(n)!
      const run = hundredths(n, 4242 + i)
      const own = MetricValue.getOrNaN(Pearson.pearson(Spearman.averageRanks(gold), Spearman.averageRanks(run)))
      expect(Object.is(MetricValue.getOrNaN(Spearman.spearman(gold, run)), own)).toBe(true)
    }
  })

  it("gives reasons when undefined", () => {
    expect(Spearman.spearman(f([1, 2, 3]), f([2, 2, 2]))).toEqual(MetricValue.undefined_("the run is constant"))
    expect(Spearman.spearman(f([1, 1, 1]), f([1, 2, 3]))).toEqual(MetricValue.undefined_("the gold is constant"))
    expect(Spearman.spearman(f([1]), f([1]))).toEqual(MetricValue.undefined_("fewer than 2 pairs"))
    expect(Spearman.spearman(f([1, 2]), f([1, NaN]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    // (the checks test v - v === 0: NaN for both infinities, 0 for -0 and the largest doubles)
    expect(Spearman.spearman(f([1, 2, 3]), f([1, Infinity, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    expect(Spearman.spearman(f([1, -Infinity, 3]), f([1, 2, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldNotFinite))
    expect(MetricValue.getOrNaN(Spearman.spearman(f([-0, Number.MAX_VALUE, -Number.MAX_VALUE]), f([0, 2, 1])))).toBe(0.5)
    expect(() => Spearman.spearman(f([1]), f([1, 2]))).toThrow(RangeError)
  })

  it("spearmanAt equals spearman on the gathered resample (property)", () => {
    // Oversized scratch arrays must give the same answer as exact-size ones.
    agreesOnResamples(fc.integer({ min: 0, max: 5 }), 30, Int32Array, (gold, run) => MetricValue.getOrNaN(Spearman.spearman(gold, run)), (x, y, idx) =>
      Spearman.spearmanAt(x, y, idx, idx.length, new Float64Array(100), new Float64Array(100))
    )
  })
})
