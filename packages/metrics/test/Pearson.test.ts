import { describe, expect, it } from "vitest"
import { Pearson } from "@stseval/metrics"

describe("Pearson", () => {
  it("is 1 on a perfect line", () => {
    expect(Pearson.pearson(new Float64Array([1, 2, 3]), new Float64Array([2, 4, 6]))).toBeCloseTo(1, 12)
  })
})
