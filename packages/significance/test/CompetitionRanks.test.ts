// The resamples' competition ranks, counted in buckets or, when ties or a cluster crowd them, by
// the radix sort: both equal the definition on figures of every shape.
import { describe, expect, it } from "vitest"
import { rankInto } from "../src/internal/competitionRanks.js"
import { mulberry32 } from "./data.js"

/** 1 + the figures strictly better; undefined figures last. */
const definition = (row: ReadonlyArray<number>, lower: boolean): Array<number> => {
  const defined = row.filter((v) => v === v)
  return row.map((v) => (v !== v ? defined.length + 1 : 1 + defined.filter((u) => (lower ? u < v : u > v)).length))
}

const random = mulberry32(34)
const shapes: Record<string, (i: number) => number> = {
  spread: () => random(),
  ties: () => Math.floor(random() * 3) / 2,
  "one far below a cluster": (i) => (i === 0 ? -1e6 : 0.8 + random() * 1e-9),
  "undefined, signed zeros and infinities": (i) => [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY][i % 7] ?? random(),
  "beyond a double's span": (i) => (i % 2 === 0 ? -1.5e308 : 1.5e308 * random()),
  "one figure": () => 0.5
}

describe("rankInto", () => {
  for (const [shape, value] of Object.entries(shapes)) {
    for (const lower of [false, true]) {
      it(`${shape}, ${lower ? "lower" : "higher"} is better: every rank as defined, undefined figures counted`, () => {
        const K = shape === "one figure" ? 1 : 300
        const B = 3
        // two figures per run, ranked on the second; run 1 is left out of the ranking
        const rows = Array.from({ length: B }, () => Array.from({ length: K }, (_, k) => value(k)))
        const ranked = Int32Array.from({ length: K }, (_, k) => k).filter((k) => K === 1 || k !== 1)
        const ranks = new Int32Array(ranked.length * B)
        const degenerate = new Int32Array(ranked.length)
        rows.forEach((r, b) => {
          const row = new Float64Array(2 * K)
          r.forEach((v, k) => (row[2 * k + 1] = v))
          rankInto(ranked, row, 0, 2, 1, ranks, B, b, degenerate, lower)
        })
        rows.forEach((r, b) => {
          const expected = definition(Array.from(ranked, (k) => r[k]), lower)
          expect(Array.from(ranked, (_, j) => ranks[j * B + b])).toEqual(expected)
        })
        expect(Array.from(degenerate)).toEqual(Array.from(ranked, (k) => rows.filter((r) => Number.isNaN(r[k])).length))
      })
    }
  }
})
