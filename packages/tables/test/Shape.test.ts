/**
 * Issue 33, one shape: the number style of a figure is decided once for the report's presets and
 * the leaderboard's page (`Results.styleOf`), from the results' published style.
 */
import { Registry } from "@stseval/formats"
import type * as Marks from "@stseval/scoring/Marks"
import { describe, expect, it } from "vitest"
import { Results } from "../src/index.js"

describe("Results.styleOf", () => {
  it("correlations in the published style: r x 100 to 2 decimals (STS 2017), else r to 3 decimals", () => {
    expect(Results.styleOf({ style: Registry.get("sts2017")!.published.style }, "pearson")).toEqual({ decimals: 2, scale: 100 })
    expect(Results.styleOf({ style: "r3" }, "spearman")).toEqual({ decimals: 3 })
    expect(Results.styleOf({}, "pearson")).toEqual({ decimals: 3 })
  })

  it("a metric that is not a correlation keeps its own display, whatever the style: accuracy in percent", () => {
    expect(Results.styleOf({ style: "r100" }, "accuracy")).toEqual(Results.styleOf({}, "accuracy"))
    expect(Results.styleOf({}, "accuracy")).not.toEqual({ decimals: 3 })
  })
})

describe("Results.intervalOf", () => {
  it("reads an interval as scoring's JSON gives it (ResultJson.ciOf), keeping what a table draws", () => {
    expect(Results.intervalOf({ low: 0.81, high: 0.84, level: 0.95, skewed: 2.5 })).toEqual({ low: 0.81, high: 0.84 })
    expect(Results.intervalOf({ low: 0.5, high: 0.9, level: 0.95, fewPairs: 30 })).toEqual({ low: 0.5, high: 0.9, fewPairs: 30 })
  })

  it("no interval (null: none could be computed; undefined: none asked) is none", () => {
    expect(Results.intervalOf(null)).toBeUndefined()
    expect(Results.intervalOf(undefined)).toBeUndefined()
  })
})

describe("Results.marksByKey", () => {
  it("the marks of each figure by its key, the last of a key winning", () => {
    const common = { ranking: "official", metric: "pearson", alpha: 0.05, correction: "holm", compared: 1, failed: [] } as const
    const a: Marks.FigureMarks = { ...common, key: "aggregate:official", best: "A/run1", tied: ["A/run1"] }
    const b: Marks.FigureMarks = { ...common, key: "headlines:pearson", dataset: "headlines", tied: [] }
    expect(Object.keys(Results.marksByKey([a, b]))).toEqual(["aggregate:official", "headlines:pearson"])
    expect(Results.marksByKey([a, b])["headlines:pearson"]).toBe(b)
    expect(Results.marksByKey([])).toEqual({})
  })
})
