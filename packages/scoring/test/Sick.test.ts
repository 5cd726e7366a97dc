import { describe, expect, it } from "vitest"
import { ResultJson } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import { ds, expectClose, goldOf, scoreRun, sickEdition, sickGold, submission, validateRun } from "./helpers.js"

// Hand-worked SICK fixture: four gold pairs, and a run with the columns in another order and the
// rows shuffled (matched by pair_ID).
//   gold:  1: 4.5 ENTAILMENT   2: 3.0 NEUTRAL   3: 1.5 CONTRADICTION   4: 2.0 NEUTRAL
//   run:   1: 4.0 ENTAILMENT   2: 2.0 ENTAILMENT 3: 1.0 CONTRADICTION  4: 3.0 NEUTRAL
// In gold order x = [4, 2, 1, 3], y = [4.5, 3, 1.5, 2]:
//   mx = 2.5, my = 2.75; sxy = 1.5*1.75 + 0.5*0.25 ... = 4; sxx = 5; syy = 5.25 -> r = 4 / sqrt(26.25)
//   ranks x = [4, 2, 1, 3], y = [4, 3, 1, 2] -> rho = 4 / 5 = 0.8
//   MSE = (0.25 + 1 + 0.25 + 1) / 4 = 0.625
//   labels: 3 of 4 correct (pair 2 is NEUTRAL, the run says ENTAILMENT) -> 75%
const edition = sickEdition()
const gold = goldOf(edition, {
  relatedness: sickGold([
    [1, 4.5, "ENTAILMENT"],
    [2, 3, "NEUTRAL"],
    [3, 1.5, "CONTRADICTION"],
    [4, 2, "NEUTRAL"]
  ])
})
const HEADER = "pair_ID\trelatedness_score\tentailment_judgment\n"
const GOOD = `${HEADER}3\t1.0\tCONTRADICTION\n1\t4.0\tENTAILMENT\n4\t3.0\tNEUTRAL\n2\t2.0\tENTAILMENT\n`

const score = (text: string) => scoreRun(edition, gold, submission({ "Team_run1primary.txt": text }))
const codes = (run: ScoredRun.ScoredRun) => run.errors.map((i) => i.code)

describe("SICK: alignment by pair_ID and both subtasks", () => {
  it("scores relatedness and entailment as worked by hand", () => {
    const run = score(GOOD)
    expect(gold.issues.filter((i) => i.severity === "error")).toEqual([])
    expect(run.status).toBe("scored")
    expect(run.errors).toEqual([])
    const r = ds(run, "relatedness")
    expect(r.status).toBe("scored")
    expect(r.pairs).toBe(4)
    expectClose(r.figures.pearson, 4 / Math.sqrt(26.25))
    expectClose(r.figures.spearman, 0.8)
    expectClose(r.figures.mse, 0.625)
    const e = ds(run, "entailment")
    expect(e.figures.accuracy).toEqual({ _tag: "Defined", value: 75 })
    expect(e.labels!.correct).toBe(3)
    expect(e.labels!.labels).toEqual(["ENTAILMENT", "CONTRADICTION", "NEUTRAL"])
    // confusion[gold][run]: gold NEUTRAL pair 2 was labelled ENTAILMENT
    expect(e.labels!.confusion).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [1, 0, 1]
    ])
    expect(run.official.map((o) => [o.ranking, o.metric])).toEqual([
      ["relatedness", "pearson"],
      ["entailment", "accuracy"]
    ])
  })

  it("an NA entailment column: entailment not evaluated (says why), relatedness still scored", () => {
    const run = score(`${HEADER}1\t4.0\tNA\n2\t2.0\tNA\n3\t1.0\tNA\n4\t3.0\tNA\n`)
    expect(ds(run, "relatedness").status).toBe("scored")
    expect(ds(run, "relatedness").figures.pearson._tag).toBe("Defined")
    expect(ds(run, "entailment").status).toBe("not-scored")
    expect(ds(run, "entailment").reason).toMatch(/NA/)
    expect(ds(run, "entailment").figures.accuracy).toEqual({ _tag: "Undefined", reason: ds(run, "entailment").reason })
    expect(run.infos.map((i) => i.code)).toContain("na-column")
    expect(run.status).toBe("scored")
  })

  it("a missing pair ID: neither subtask is evaluated (missing-pair names the ID)", () => {
    const run = score(`${HEADER}1\t4.0\tENTAILMENT\n2\t2.0\tNEUTRAL\n3\t1.0\tCONTRADICTION\n`)
    expect(ds(run, "relatedness").status).toBe("not-scored")
    expect(ds(run, "entailment").status).toBe("not-scored")
    const missing = run.errors.filter((i) => i.code === "missing-pair")
    expect(missing).toHaveLength(1)
    expect(missing[0].found).toBe("no such line")
    expect(missing[0].message).toMatch(/pair ID 4/)
    expect(run.status).toBe("failed")
    expect(run.failure).toMatch(/^no dataset can be scored \(relatedness and entailment: /)
  })

  it("an unknown pair ID: not evaluated, with the line", () => {
    const run = score(`${GOOD}99\t3.0\tNEUTRAL\n`)
    const unknown = run.errors.find((i) => i.code === "unknown-pair")!
    expect(unknown.line).toBe(6)
    expect(unknown.found).toBe("99")
    expect(ds(run, "relatedness").status).toBe("not-scored")
    expect(ds(run, "entailment").status).toBe("not-scored")
  })

  it("a duplicated pair ID: not evaluated", () => {
    const run = score(`${GOOD}2\t2.0\tENTAILMENT\n`)
    expect(codes(run)).toContain("duplicate-pair")
    expect(ds(run, "relatedness").status).toBe("not-scored")
    expect(ds(run, "entailment").status).toBe("not-scored")
  })

  it("an unknown (wrong-case) label: entailment not evaluated, relatedness still scored", () => {
    const run = score(`${HEADER}1\t4.0\tentailment\n2\t2.0\tENTAILMENT\n3\t1.0\tCONTRADICTION\n4\t3.0\tNEUTRAL\n`)
    expect(codes(run)).toEqual(["unknown-label"])
    expect(run.errors[0].line).toBe(2)
    expect(ds(run, "entailment").status).toBe("not-scored")
    expect(ds(run, "entailment").reason).toMatch(/case-sensitive/)
    expect(ds(run, "relatedness").status).toBe("scored")
    expectClose(ds(run, "relatedness").figures.pearson, 4 / Math.sqrt(26.25))
  })

  it("a non-numeric relatedness: relatedness not evaluated, entailment still scored", () => {
    const run = score(`${HEADER}1\tfour\tENTAILMENT\n2\t2.0\tENTAILMENT\n3\t1.0\tCONTRADICTION\n4\t3.0\tNEUTRAL\n`)
    expect(ds(run, "relatedness").status).toBe("not-scored")
    expect(ds(run, "relatedness").reason).toMatch(/line 2/)
    expect(ds(run, "entailment").figures.accuracy).toEqual({ _tag: "Defined", value: 75 })
  })

  it("a malformed file (a 4th unnamed column): both subtasks not evaluated, field-count with the line", () => {
    const run = score(`${HEADER}1\t4.0\tENTAILMENT\t0.8\n2\t2.0\tENTAILMENT\t0.5\n3\t1.0\tCONTRADICTION\t0.1\n4\t3.0\tNEUTRAL\t0.6\n`)
    const fc = run.errors.filter((i) => i.code === "field-count")
    expect(fc.map((i) => i.line)).toEqual([2, 3, 4, 5])
    expect(ds(run, "relatedness").reason).toMatch(/^the file is malformed: line 2 has 4 fields/)
    expect(ds(run, "entailment").status).toBe("not-scored")
    expect(run.status).toBe("failed")
  })

  it("a constant relatedness run: Pearson and Spearman undefined with the reason, MSE still defined", () => {
    const run = score(`${HEADER}1\t3\tENTAILMENT\n2\t3\tNEUTRAL\n3\t3\tCONTRADICTION\n4\t3\tNEUTRAL\n`)
    expect(ds(run, "relatedness").figures.pearson).toEqual({ _tag: "Undefined", reason: "the run is constant" })
    expect(ds(run, "relatedness").figures.spearman).toEqual({ _tag: "Undefined", reason: "the run is constant" })
    // (3-4.5)^2 + 0 + (3-1.5)^2 + (3-2)^2 = 2.25 + 2.25 + 1 = 5.5 -> 1.375
    expect(ds(run, "relatedness").figures.mse).toEqual({ _tag: "Defined", value: 1.375 })
    const json = ResultJson.toJson(run)
    expect(json.datasets["relatedness"].figures["pearson"]).toBeNull()
    expect(json.datasets["relatedness"].undefined).toEqual({ pearson: "the run is constant", spearman: "the run is constant", "standardised-mse": "the run is constant" })
    expect(json.datasets["entailment"].figures["accuracy"]).toBe(100)
  })

  it("relatedness outside 1-5 is a warning, not an error", () => {
    const run = score(`${HEADER}3\t0.1\tCONTRADICTION\n1\t4.0\tENTAILMENT\n4\t3.0\tNEUTRAL\n2\t2.0\tENTAILMENT\n`)
    expect(run.warnings.map((i) => i.code)).toEqual(["out-of-scale"])
    expect(run.warnings[0].line).toBe(2)
    expect(ds(run, "relatedness").status).toBe("scored")
  })

  it("a run with no header (like newsick.run): an error giving the header line to add, as the official scorer rejects it", () => {
    const run = score("1\tENTAILMENT\n2\tNEUTRAL\n3\tCONTRADICTION\n4\tNEUTRAL\n")
    expect(run.status).toBe("failed")
    expect(ds(run, "entailment").status).toBe("not-scored")
    expect(ds(run, "relatedness").status).toBe("not-scored")
    const header = run.errors.find((i) => i.code === "missing-header")!
    expect(header.message).toContain("pair_ID<TAB>entailment_judgment")
    expect(header.message).toContain("--lenient")
  })

  it("a run with no header, read leniently: entailment scored with a warning, relatedness not", () => {
    const run = scoreRun(edition, gold, submission({ "Team_run1primary.txt": "1\tENTAILMENT\n2\tNEUTRAL\n3\tCONTRADICTION\n4\tNEUTRAL\n" }), { lenient: true })
    expect(ds(run, "entailment").figures.accuracy).toEqual({ _tag: "Defined", value: 100 })
    expect(ds(run, "relatedness").status).toBe("not-scored")
    expect(ds(run, "relatedness").reason).toMatch(/no relatedness_score column/)
    expect(run.warnings.map((i) => i.code)).toContain("missing-header")
    expect(run.errors).toEqual([])
  })

  it("validateRun reports per subtask what will be scored without computing metrics", () => {
    const v = validateRun(edition, gold, submission({ "Team_run1primary.txt": GOOD }))
    const [relatedness, entailment] = v.datasets
    expect(relatedness.status).toBe("scored")
    expect(relatedness.aligned?.kind === "scores" && Array.from(relatedness.aligned.run)).toEqual([4, 2, 1, 3])
    expect(entailment.aligned?.kind === "labels" && entailment.aligned.run).toEqual(["ENTAILMENT", "ENTAILMENT", "CONTRADICTION", "NEUTRAL"])
  })
})

describe("SICK: a file refused before any line is read", () => {
  it("is not scored for the file's own reason, not for a column it was never read for", () => {
    const run = score("\n\n\n")
    expect(run.status).toBe("failed")
    expect(codes(run)).toContain("empty-file")
    for (const name of ["relatedness", "entailment"]) expect(ds(run, name).reason).toBe("the file is malformed: the file holds only blank lines")
    // a header without a column still says so
    expect(ds(score("pair_ID\tentailment_judgment\n1\tNEUTRAL\n"), "relatedness").reason).toBe("the run has no relatedness_score column")
  })
})
