// A table shows the metric the results declare, never one assumed by name: a preset's dataset
// columns and its scatter plots read the datasets' metric, else their ranking's; results that
// declare none are an error naming the datasets.
import { describe, expect, it } from "vitest"
import { Layouts, Presets } from "../src/index.js"
import type { Results } from "../src/Results.js"

const gold = Float64Array.from([1, 2, 3, 4, 5])
const run = Float64Array.from([1, 3, 2, 5, 4])

const results = (rankingMetric: string | undefined): Results => ({
  edition: "made",
  datasets: [{ name: "a", gold }],
  runs: [{ id: "T/run1", team: "T", run: "run1", primary: true, datasets: { a: { spearman: 0.8, kendall: 0.6 } }, aggregates: { official: 0.8 }, scores: { a: run } }],
  rankings:
    rankingMetric === undefined
      ? []
      : [{ ranking: "official", metric: rankingMetric, direction: "higher", figures: ["aggregate:official"], entries: [{ id: "T/run1", rank: 1 }] }]
})

describe("the metric a preset shows", () => {
  it("a dataset without its own metric shows its ranking's (Kendall here, not Pearson)", () => {
    const spec = Presets.sts2014Table3(results("kendall"))
    expect(spec.columns.find((c) => c.key === "a")?.source).toEqual({ _tag: "metric", dataset: "a", metric: "kendall" })
    expect(spec.caption).toContain("Kendall")
  })

  it("results that declare no metric at all: an error naming the datasets", () => {
    expect(() => Presets.sts2014Table3(results(undefined))).toThrow(/no metric declared for a: give each dataset its metric/)
  })

  it("a scatter plot of a dataset without its own metric is by the metric its column shows", () => {
    const table = Layouts.build(results("kendall"), {
      id: "t",
      title: "t",
      caption: "",
      label: "t",
      wide: false,
      columns: [
        { key: "run", header: "Run", source: { _tag: "label" } },
        { key: "a", header: "a", source: { _tag: "metric", dataset: "a", metric: "spearman" } }
      ],
      sortBy: "a",
      runs: "all"
    })
    expect(table.scatter?.map((s) => [s.metric, s.value])).toEqual([["spearman", 0.8]])
  })
})
