import { describe, expect, it } from "vitest"
import { Registry } from "@stseval/formats"
import { MetricValue } from "@stseval/metrics"
import { Style } from "@stseval/scoring"

describe("Style: one number style per edition, for every output", () => {
  it("a correlation as the edition's paper printed it: r to 3 decimals (2014) or r x 100 to 2 (2017, STS-B)", () => {
    expect(Style.format(0.82639, Style.correlation(Registry.get("sts2017")!))).toBe("82.64")
    expect(Style.format(0.82639, Style.correlation(Registry.get("stsb")!))).toBe("82.64")
    expect(Style.format(0.82639, Style.correlation(Registry.get("sts2014")!))).toBe("0.826")
    expect(Style.format(0.82639, Style.correlation(Registry.get("sick2014")!, 4))).toBe("0.8264")
  })

  it("MSE and F1 to 3 decimals, accuracy in percent to 2, whatever the edition: each metric's descriptor says how", () => {
    const sts2017 = Registry.get("sts2017")!
    expect(Style.format(0.3254, Style.forMetric(sts2017, "mse"))).toBe("0.325")
    expect(Style.format(83.6411, Style.forMetric(sts2017, "accuracy"))).toBe("83.64%")
    expect(Style.format(0.82639, Style.forMetric(sts2017, "spearman"))).toBe("82.64")
    // an aggregate of correlations (no descriptor) prints as a correlation
    expect(Style.format(0.82639, Style.forMetric(sts2017, "wmean"))).toBe("82.64")
    expect([Style.isCorrelation("accuracy"), Style.isCorrelation("mse"), Style.isCorrelation("kendall"), Style.isCorrelation("wmean")]).toEqual([false, false, true, true])
  })

  it("negative zero prints as zero; an undefined metric as n/a (or what the caller says)", () => {
    expect(Style.format(-0.0001, { decimals: 3 })).toBe("0.000")
    expect(Style.format(0.084, { decimals: 3, dropLeadingZero: true })).toBe(".084")
    expect(Style.metric(MetricValue.undefined_("the run is constant"), { decimals: 3 })).toBe("n/a")
    expect(Style.metric(Number.NaN, { decimals: 3 }, "-")).toBe("-")
    expect(Style.metric(MetricValue.defined(0.5), { decimals: 2, scale: 100 })).toBe("50.00")
  })
})
