/**
 * Issue 33, one shape: the number style of a figure is decided once for the report's presets and
 * the leaderboard's page (`Results.styleOf`), from the results' published style.
 */
import { Registry } from "@stseval/formats"
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
