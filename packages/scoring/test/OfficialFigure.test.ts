/**
 * Issue 33, one step for the official figure: the JSON of an official figure (`OfficialJson`, as
 * the watcher's cache keeps it) is read as the figure `Rank.rank` orders by in one step
 * (`ResultJson.rankFigure`), hand-made cases.
 */
import { MetricValue } from "@stseval/metrics"
import { describe, expect, it } from "vitest"
import { Rank, ResultJson } from "@stseval/scoring"
import type { ResultSchema } from "@stseval/scoring"

type OfficialJson = typeof ResultSchema.OfficialJson.Type
const base: OfficialJson = { ranking: "official", metric: "pearson", rule: "wmean", direction: "higher", value: 0.5, datasets: ["a", "b"], zeroed: [] }

describe("ResultJson.rankFigure", () => {
  it("a figure with a value: defined, its zeroed datasets kept (the run is flagged zeroed)", () => {
    const zeroed = [{ dataset: "c", reason: "not submitted" }]
    expect(ResultJson.rankFigure({ ...base, zeroed })).toEqual({ ranking: "official", metric: "pearson", direction: "higher", value: MetricValue.defined(0.5), zeroed })
    expect(ResultJson.rankFigure(base)).toEqual({ ranking: "official", metric: "pearson", direction: "higher", value: MetricValue.defined(0.5) })
  })

  it("a null figure: undefined with the JSON's reason (else 'not computed'), never zeroed", () => {
    const nul = { ...base, value: null, zeroed: [{ dataset: "c", reason: "x" }], undefined: { value: "no dataset was scored" } }
    expect(ResultJson.rankFigure(nul)).toEqual({ ranking: "official", metric: "pearson", direction: "higher", value: MetricValue.undefined_("no dataset was scored") })
    expect(ResultJson.rankFigure({ ...base, value: null, direction: "lower", metric: "mse" }).value).toEqual(MetricValue.undefined_("not computed"))
  })

  it("ranks runs read back from their JSON as their figures say: 0.8 before 0.5, a null figure listed unranked", () => {
    const run = (id: string, value: number | null) => ({
      meta: { id, team: id, run: 1, primary: true, late: false, corrected: false, postDeadline: false },
      status: "scored" as const,
      failure: undefined,
      official: [ResultJson.rankFigure({ ...base, value })]
    })
    const ranked = Rank.rank([run("A", 0.5), run("B", 0.8), run("C", null)])
    expect(ranked.rankings[0].entries.map((e) => [e.meta.id, e.rank])).toEqual([["B", 1], ["A", 2], ["C", undefined]])
  })
})
