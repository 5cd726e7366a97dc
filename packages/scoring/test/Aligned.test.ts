import { describe, expect, it } from "vitest"
import { Aligned } from "@stseval/scoring"
import { goldOf, lines, numeric, scoreRun, sickEdition, sickGold, submission, toyEdition } from "./helpers.js"

const edition = toyEdition()
const gold = goldOf(edition, { a: lines([1, "", 3, 4, 2]), b: lines([1, 2, 3]) })
const run = (team: string, a: ReadonlyArray<number>, b?: ReadonlyArray<number>) =>
  scoreRun(edition, gold, submission({ "STS.output.a.txt": lines(a), ...(b !== undefined ? { "STS.output.b.txt": lines(b) } : {}) }, { team }))

describe("Aligned: runs side by side for significance tests", () => {
  it("the engine's aligned scores per dataset, the gold shared, nothing parsed again", () => {
    const x = run("X", [1, 9, 2, 4, 3], [1, 2, 3])
    const y = run("Y", [2, 9, 1, 4, 3], [3, 2, 1])
    const c = Aligned.datasets(edition, [x, y])
    expect(c.skipped).toEqual([])
    expect(c.datasets.map((d) => d.name)).toEqual(["a", "b"])
    expect(Array.from(numeric(c.datasets[0]).gold)).toEqual([1, 3, 4, 2])
    expect(numeric(c.datasets[0]).runs.map((r) => Array.from(r))).toEqual([[1, 2, 4, 3], [2, 1, 4, 3]])
    expect(c.metric).toBe("pearson")
    expect(Aligned.datasets(edition, [x, y], { only: "b" }).datasets.map((d) => d.name)).toEqual(["b"])
  })

  it("a constant RUN is named as the run, not the gold (the old compare said 'the gold is constant')", () => {
    const ok = run("X", [1, 9, 2, 4, 3], [1, 2, 3])
    const constant = run("Flat", [1, 9, 2, 4, 3], [2, 2, 2])
    const c = Aligned.datasets(edition, [ok, constant])
    expect(c.skipped).toEqual([{ dataset: "b", reason: "Flat/run1: its Pearson with the gold is undefined (the run is constant)" }])
  })

  it("a dataset a run did not submit is skipped with the run's reason", () => {
    const c = Aligned.datasets(edition, [run("X", [1, 9, 2, 4, 3], [1, 2, 3]), run("NoB", [1, 9, 2, 4, 3])])
    expect(c.datasets.map((d) => d.name)).toEqual(["a"])
    expect(c.skipped[0].dataset).toBe("b")
    expect(c.skipped[0].reason).toMatch(/^NoB\/run1: /)
  })

  it("comparable: the runs that can be compared on every dataset, the others left out with their own datasets' reasons, in the order given", () => {
    const x = run("X", [1, 9, 2, 4, 3], [1, 2, 3])
    const noB = run("NoB", [1, 9, 2, 4, 3])
    const flat = run("Flat", [1, 9, 2, 4, 3], [2, 2, 2])
    const y = run("Y", [2, 9, 1, 4, 3], [3, 2, 1])
    const c = Aligned.comparable(edition, [x, noB, flat, y], (r) => r)
    expect(c.kept.map((r) => r.meta.id)).toEqual(["X/run1", "Y/run1"])
    expect(c.left.map((l) => [l.item.meta.id, l.skipped.map((s) => s.dataset)])).toEqual([["NoB/run1", ["b"]], ["Flat/run1", ["b"]]])
    expect(c.left[1].skipped[0].reason).toBe("Flat/run1: its Pearson with the gold is undefined (the run is constant)")
    // the kept runs side by side, on both datasets
    expect(c.aligned.datasets.map((d) => d.name)).toEqual(["a", "b"])
    expect(c.aligned.skipped).toEqual([])
    // one dataset only: the run without b is comparable on a
    expect(Aligned.comparable(edition, [x, noB], (r) => r, { only: "a" }).kept).toHaveLength(2)
  })

  it("SICK: relatedness scores and entailment labels; the aggregate a resampling test uses", () => {
    const sick = sickEdition()
    const g = goldOf(sick, { relatedness: sickGold([[1, 4.5, "ENTAILMENT"], [2, 3, "NEUTRAL"], [3, 1.5, "CONTRADICTION"]]) })
    const s = (team: string, body: string) =>
      scoreRun(sick, g, submission({ [`${team}_run1primary.txt`]: `pair_ID\tentailment_judgment\trelatedness_score\n${body}` }, { team }))
    const a = s("A", "1\tENTAILMENT\t4\n2\tNEUTRAL\t3\n3\tNEUTRAL\t1\n")
    const b = s("B", "3\tCONTRADICTION\t2\n1\tNEUTRAL\t5\n2\tNEUTRAL\t3.5\n")
    // the headline ranking (relatedness) by default; each ranking's own datasets when named
    expect(Aligned.datasets(sick, [a, b]).datasets.map((d) => [d.name, numeric(d).runs.map((r) => Array.from(r))])).toEqual([["relatedness", [[4, 3, 1], [5, 3.5, 2]]]])
    expect(Aligned.datasets(sick, [a, b], { ranking: sick.ranking[1] })).toEqual({
      metric: "accuracy",
      datasets: [
        {
          kind: "labels",
          name: "entailment",
          gold: ["ENTAILMENT", "NEUTRAL", "CONTRADICTION"],
          runs: [["ENTAILMENT", "NEUTRAL", "NEUTRAL"], ["NEUTRAL", "NEUTRAL", "CONTRADICTION"]],
          labels: ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
        }
      ],
      skipped: []
    })
    expect(Aligned.aggregateOf(sick.ranking[0])).toBe("weighted")
    expect(Aligned.aggregateOf({ subtask: "similarity", metric: "pearson", aggregate: "mean" })).toBe("unweighted")
    expect(Aligned.aggregateOf({ subtask: "similarity", metric: "pearson", aggregate: "allnrm" })).toBe("pooled")
  })
})
