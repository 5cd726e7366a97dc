// The metric `compare` and `significance` test, as each edition declares it: the ranking's, else
// (a ranking of labels, tested by McNemar's) the graded metric the edition ranks by elsewhere.
import { Registry } from "@stseval/formats"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { metricOf } from "../src/internal/CompareFlags.js"

const labels: Registry.Ranking = { ...Registry.get("sick2014")!.ranking[1], subtask: "entailment", metric: "accuracy" }

describe("CompareFlags.metricOf", () => {
  it("a ranking of graded scores: its own metric; asked for: that one", () => {
    const sick = Registry.get("sick2014")!
    expect(metricOf(Option.none(), sick.ranking[0], sick)).toBe(sick.ranking[0].metric)
    expect(metricOf(Option.some("kendall"), sick.ranking[0], sick)).toBe("kendall")
  })

  it("a ranking of labels: the edition's graded metric (Kendall in an edition ranked by Kendall, never an assumed Pearson)", () => {
    const kendall = { ranking: [{ ...labels, subtask: "similarity", metric: "kendall" }, labels] }
    expect(metricOf(Option.none(), labels, kendall)).toBe("kendall")
    // SICK: relatedness by Pearson beside entailment by accuracy
    expect(metricOf(Option.none(), labels, Registry.get("sick2014")!)).toBe("pearson")
  })
})
