import { describe, expect, it } from "vitest"
import { Aligned, ScoredRun } from "@stseval/scoring"
import { goldOf, lines, sickEdition, sickGold, submission, toyEdition } from "./helpers.js"

const edition = toyEdition()
const gold = goldOf(edition, { a: lines([1, "", 3, 4, 2]), b: lines([1, 2, 3]) })
const run = (team: string, a: ReadonlyArray<number>, b?: ReadonlyArray<number>) =>
  ScoredRun.scoreRun(edition, gold, submission({ "STS.output.a.txt": lines(a), ...(b !== undefined ? { "STS.output.b.txt": lines(b) } : {}) }, { team }))

describe("Aligned: runs side by side for significance tests", () => {
  it("the engine's aligned scores per dataset, the gold shared, nothing parsed again", () => {
    const x = run("X", [1, 9, 2, 4, 3], [1, 2, 3])
    const y = run("Y", [2, 9, 1, 4, 3], [3, 2, 1])
    const c = Aligned.datasets(edition, [x, y])
    expect(c.skipped).toEqual([])
    expect(c.datasets.map((d) => d.name)).toEqual(["a", "b"])
    expect(Array.from(c.datasets[0].gold)).toEqual([1, 3, 4, 2])
    expect(c.datasets[0].runs.map((r) => Array.from(r))).toEqual([[1, 2, 4, 3], [2, 1, 4, 3]])
    expect(Aligned.datasets(edition, [x, y], "b").datasets.map((d) => d.name)).toEqual(["b"])
  })

  it("a constant RUN is named as the run, not the gold (the old compare said 'the gold is constant')", () => {
    const ok = run("X", [1, 9, 2, 4, 3], [1, 2, 3])
    const constant = run("Flat", [1, 9, 2, 4, 3], [2, 2, 2])
    const c = Aligned.datasets(edition, [ok, constant])
    expect(c.skipped).toEqual([{ dataset: "b", reason: "Flat/run1: its correlation with the gold is undefined (the run is constant)" }])
  })

  it("a dataset a run did not submit is skipped with the run's reason", () => {
    const c = Aligned.datasets(edition, [run("X", [1, 9, 2, 4, 3], [1, 2, 3]), run("NoB", [1, 9, 2, 4, 3])])
    expect(c.datasets.map((d) => d.name)).toEqual(["a"])
    expect(c.skipped[0].dataset).toBe("b")
    expect(c.skipped[0].reason).toMatch(/^NoB\/run1: /)
  })

  it("SICK: relatedness scores and entailment labels; the aggregate a resampling test uses", () => {
    const sick = sickEdition()
    const g = goldOf(sick, { test: sickGold([[1, 4.5, "ENTAILMENT"], [2, 3, "NEUTRAL"], [3, 1.5, "CONTRADICTION"]]) })
    const s = (team: string, body: string) =>
      ScoredRun.scoreRun(sick, g, submission({ [`${team}_run1primary.txt`]: `pair_ID\tentailment_judgment\trelatedness_score\n${body}` }, { team }))
    const a = s("A", "1\tENTAILMENT\t4\n2\tNEUTRAL\t3\n3\tNEUTRAL\t1\n")
    const b = s("B", "3\tCONTRADICTION\t2\n1\tNEUTRAL\t5\n2\tNEUTRAL\t3.5\n")
    expect(Aligned.datasets(sick, [a, b]).datasets.map((d) => [d.name, d.runs.map((r) => Array.from(r))])).toEqual([["relatedness", [[4, 3, 1], [5, 3.5, 2]]]])
    expect(Aligned.entailment([a, b])).toEqual({
      gold: ["ENTAILMENT", "NEUTRAL", "CONTRADICTION"],
      runs: [["ENTAILMENT", "NEUTRAL", "NEUTRAL"], ["NEUTRAL", "NEUTRAL", "CONTRADICTION"]]
    })
    expect(Aligned.aggregateOf(sick)).toBe("weighted")
    expect(Aligned.aggregateOf(toyEdition({ ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "mean" }] }))).toBe("unweighted")
    expect(Aligned.aggregateOf(toyEdition({ ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "allnrm" }] }))).toBe("pooled")
  })
})
