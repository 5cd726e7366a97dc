import { describe, expect, it } from "vitest"
import { MetricValue } from "@stseval/metrics"

describe("MetricValue", () => {
  it("constructs and inspects values", () => {
    const d = MetricValue.defined(0.5)
    const u = MetricValue.undefined_("the run is constant")
    expect(MetricValue.isDefined(d)).toBe(true)
    expect(MetricValue.isUndefined(u)).toBe(true)
    expect(MetricValue.getOrNaN(d)).toBe(0.5)
    expect(MetricValue.getOrNaN(u)).toBeNaN()
    expect(MetricValue.getOrElse(u, () => 0)).toBe(0)
    expect(MetricValue.map(d, (r) => r * 100)).toEqual(MetricValue.defined(50))
    expect(MetricValue.map(u, (r) => r * 100)).toEqual(u)
    expect(MetricValue.fromNumber(Number.NaN, "why")).toEqual(MetricValue.undefined_("why"))
    expect(MetricValue.fromNumber(1, "why")).toEqual(MetricValue.defined(1))
  })
})
