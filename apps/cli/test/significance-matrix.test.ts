// `significance --against all`'s matrix (internal/CompareJson.ts): rows of doubles with NaN where the
// schema has null (issue 34: 124,750 pairs of 500 runs boxed every number of every row). The text
// is the schema's: null for an undefined figure, a missing pair or a non-finite value; every other
// number as JSON writes it; the document decodes as SignificanceResults.
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { Compare } from "@stseval/significance"
import * as CompareJson from "../src/internal/CompareJson.js"

const figures = (a: Array<number>, b: Array<number>, columns: { [K in Exclude<keyof Compare.ManyResult["figures"], "a" | "b">]?: Array<number> }): Compare.ManyResult["figures"] => ({
  a: Int32Array.from(a),
  b: Int32Array.from(b),
  ...Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Float64Array.from(v)]))
})

const document = (matrix: CompareJson.SignificanceResults["tests"][number]["matrix"]): CompareJson.SignificanceResults => ({
  ...CompareJson.head(CompareJson.SIGNIFICANCE_FORMAT, "made-up", "gold.txt", { edition: "e", editionHash: "h", goldHash: "g", aggregate: "single", engine: "x", text: "t" }),
  against: "all",
  correction: "holm",
  alpha: 0.05,
  tests: [{ ranking: "official", test: "bootstrap", metric: "pearson", datasets: ["d"], runs: [], comparisons: [], ...(matrix !== undefined ? { matrix } : {}), excluded: [] }],
  skipped: []
})

describe("significance's matrix", () => {
  it("writes null for NaN, infinities and pairs not compared, numbers as JSON does, in the schema's shape", () => {
    // runs 0..3 by position; pair (1, 3) not compared; ranking order differs from run order
    const position = [2, 0, 3, 1]
    const matrix = CompareJson.significanceMatrix(
      figures([1, 1, 1, 3], [3, 0, 2, 0], {
        pValue: [0.25, 1e-320, 1, NaN],
        adjustedP: [0.5, 3e-320, 1, NaN],
        statistic: [-0, Number.POSITIVE_INFINITY, 0.1 + 0.2, 2.5],
        ciLow: [NaN, 0.1, -1e-7, NaN],
        ciHigh: [0.1, 0.2, 123456789012, NaN],
        log10P: [NaN, -319.5, NaN, NaN]
      }),
      position,
      4,
      "holm"
    )
    const text = CompareJson.significanceText(document(matrix))
    const parsed = JSON.parse(text) as { tests: Array<{ matrix: Record<string, unknown> }> }
    expect(parsed.tests[0].matrix).toEqual({
      pValue: [[0.25, 1e-320, 1], [null, null], [null]],
      adjustedP: [[0.5, 3e-320, 1], [null, null], [null]],
      statistic: [[0, null, 0.1 + 0.2], [2.5, null], [null]],
      ciLow: [[null, 0.1, -1e-7], [null, null], [null]],
      ciHigh: [[0.1, 0.2, 123456789012], [null, null], [null]],
      log10P: [[null, -319.5, null], [null, null], [null]]
    })
    // each row on one line, each number as JSON.stringify writes it
    expect(text).toContain(`"pValue": [\n          [0.25,1e-320,1],\n          [null,null],\n          [null]\n        ]`)
    expect(text).toContain("[0,null,0.30000000000000004]")
    // the schema's document, null where a figure is undefined
    expect(() => Schema.decodeUnknownSync(CompareJson.SignificanceResults)(JSON.parse(text))).not.toThrow()
  })

  it("leaves out a field no comparison has, and adjustedP without a correction", () => {
    const one = figures([0], [1], { pValue: [0.5], adjustedP: [0.5], statistic: [1] })
    expect(Object.keys(CompareJson.significanceMatrix(one, [0, 1], 2, "none"))).toEqual(["pValue", "statistic"])
    expect(CompareJson.significanceMatrix(figures([], [], {}), [], 0, "holm")).toEqual({})
  })
})
