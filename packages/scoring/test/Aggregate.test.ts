import { describe, expect, it } from "vitest"
import { MetricValue } from "@stseval/metrics"
import { ScoredRun } from "@stseval/scoring"

type D = ScoredRun.DatasetScore
const scored = (dataset: string, r: number, pairs: number): D => ({
  dataset,
  status: "scored",
  reason: undefined,
  file: `${dataset}.txt`,
  pairs,
  weight: pairs,
  runLines: pairs,
  linesScored: [1, pairs],
  subtask: "similarity",
  metric: "pearson",
  figures: { pearson: MetricValue.defined(r), spearman: MetricValue.defined(r) },
  aligned: undefined
})
const missing = (dataset: string, weight: number): D => ({
  ...scored(dataset, 0, weight),
  status: "missing",
  reason: "the run has no file for it",
  pairs: 0,
  runLines: 0,
  linesScored: undefined,
  figures: { pearson: MetricValue.undefined_("the run has no file for it"), spearman: MetricValue.undefined_("the run has no file for it") }
})

describe("official rule, STS 2012-2016: a missing dataset counts as r = 0 in the weighted mean", () => {
  // STS 2014 English weights: deft-forum 450, deft-news 300, headlines, images, OnWN, tweet-news 750.
  // LIPN-run2 submitted deft-forum only, r = 0.084; Table 3 prints 0.010 (= 0.084 * 450 / 3750).
  it("LIPN-run2 (deft-forum only, r = 0.084) gets 0.010", () => {
    const scores = [
      scored("deft-forum", 0.084, 450),
      missing("deft-news", 300),
      missing("headlines", 750),
      missing("images", 750),
      missing("OnWN", 750),
      missing("tweet-news", 750)
    ]
    const agg = ScoredRun.officialMean(scores, true, "zero", "pearson")
    expect(agg.value._tag).toBe("Defined")
    const v = MetricValue.getOrNaN(agg.value)
    expect(v).toBeCloseTo((0.084 * 450) / 3750, 15)
    expect(v.toFixed(3)).toBe("0.010")
    expect(agg.zeroed.map((z) => z.dataset)).toEqual(["deft-news", "headlines", "images", "OnWN", "tweet-news"])
    expect(agg.datasets).toEqual(["deft-forum"])
  })

  it("an undefined Pearson (constant run) also enters as r = 0, with the reason", () => {
    const constant: D = { ...scored("b", 0, 100), figures: { pearson: MetricValue.undefined_("the run is constant") } }
    const agg = ScoredRun.officialMean([scored("a", 0.5, 300), constant], true, "zero", "pearson")
    expect(MetricValue.getOrNaN(agg.value)).toBeCloseTo((0.5 * 300) / 400, 15)
    expect(agg.zeroed[0].reason).toMatch(/the run is constant/)
  })

  it("no dataset scored: undefined, not 0", () => {
    const agg = ScoredRun.officialMean([missing("a", 10), missing("b", 10)], true, "zero", "pearson")
    expect(agg.value).toEqual({ _tag: "Undefined", reason: "no dataset was scored" })
  })
})

describe("official rule, STS 2017: primary = unweighted mean of all seven tracks", () => {
  const tracks = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en", "track6.tr-en"]
  const row = (rs: ReadonlyArray<number>) => rs.map((r, i) => scored(tracks[i], r / 100, 250))

  it("reproduces Table 10's primary column (ECNU 73.16, baseline 53.70)", () => {
    // per-track r x 100 from the paper's Table 10
    const ecnu = ScoredRun.officialMean(row([74.4, 74.93, 85.59, 81.31, 33.63, 85.18, 77.06]), false, "no-official-score", "pearson")
    expect((MetricValue.getOrNaN(ecnu.value) * 100).toFixed(2)).toBe("73.16")
    const baseline = ScoredRun.officialMean(row([60.45, 51.55, 71.17, 62.2, 3.2, 72.78, 54.56]), false, "no-official-score", "pearson")
    expect((MetricValue.getOrNaN(baseline.value) * 100).toFixed(2)).toBe("53.70")
  })

  it("a run without every track gets no primary score (the reason names the track); it names the track", () => {
    const scores = row([74.4, 74.93, 85.59, 81.31, 33.63, 85.18, 77.06])
    scores[1] = missing("track2.ar-en", 250)
    const agg = ScoredRun.officialMean(scores, false, "no-official-score", "pearson")
    expect(agg.value._tag).toBe("Undefined")
    expect(agg.value._tag === "Undefined" && agg.value.reason).toMatch(/track2\.ar-en has no figure \(the run has no file for it\)/)
  })
})
