/**
 * What validation of one run gives (`Validation.RunValidation`, the types of scoring's check of a
 * run before its figures): each dataset of the edition listed once, in the edition's order, with
 * its status (scored, not-scored, missing), the reason when it is not scored, its weight, the run's
 * lines and those scored, and the pairs aligned with the gold; the run fails only when no dataset
 * can be scored. Hand-worked on a two-dataset toy STS edition.
 */
import { describe, expect, it } from "vitest"
import type { Validation } from "../src/index.js"
import { goldOf, lines, scoreDataset, submission, toyEdition, validateRun } from "./helpers.js"

const edition = toyEdition()
const gold = goldOf(edition, { a: lines([1, 2, 3, 4]), b: lines([4.5, 0.5, 2]) })
const byName = (v: Validation.RunValidation) => Object.fromEntries(v.datasets.map((d) => [d.dataset, d]))

describe("Validation: one run against an edition and its gold", () => {
  it("a dataset scored and one missing: both listed in the edition's order, the missing one with its reason", () => {
    const v: Validation.RunValidation = validateRun(edition, gold, submission({ "STS.output.a.txt": lines([1.5, 2, 2.5, 5]) }))
    expect(v.edition).toBe("toy")
    expect(v.failed).toBe(false)
    expect(v.failure).toBeUndefined()
    expect(v.datasets.map((d) => [d.dataset, d.status])).toEqual([
      ["a", "scored"],
      ["b", "missing"]
    ])
    const { a, b } = byName(v)
    expect(a.reason).toBeUndefined()
    // linesScored: the first and last line scored, 1-based
    expect([a.pairs, a.runLines, a.linesScored, a.weight]).toEqual([4, 4, [1, 4], 4])
    expect(a.aligned?.kind).toBe("scores")
    if (a.aligned?.kind === "scores") {
      expect(Array.from(a.aligned.gold)).toEqual([1, 2, 3, 4])
      expect(Array.from(a.aligned.run)).toEqual([1.5, 2, 2.5, 5])
    }
    expect(b.aligned).toBeUndefined()
    expect(b.file).toBeUndefined()
    expect(b.reason).toMatch(/\S/)
  })

  it("a file with a line that is not a number is not scored, with the issue on its line; no dataset scored fails the run", () => {
    const v = validateRun(edition, gold, submission({ "STS.output.a.txt": "1\nfour\n3\n4\n" }))
    const { a } = byName(v)
    expect(a.status).toBe("not-scored")
    expect(a.aligned).toBeUndefined()
    expect(a.issues.some((i) => i.severity === "error" && i.line === 2)).toBe(true)
    expect(v.failed).toBe(true)
    expect(v.failure).toMatch(/\S/)
  })

  it("a file with fewer lines than the gold has pairs is not scored (STS runs align by line)", () => {
    const v = validateRun(edition, gold, submission({ "STS.output.a.txt": lines([1, 2, 3]), "STS.output.b.txt": lines([1, 2, 3]) }))
    const { a, b } = byName(v)
    expect(a.status).toBe("not-scored")
    expect(a.runLines).toBe(3)
    expect(b.status).toBe("scored")
    expect(b.linesScored).toEqual([1, 3])
    expect(v.failed).toBe(false)
  })
})

describe("Validation: Pearson's r computed once per dataset (issue 36)", () => {
  // gold 1..10; the run 10..1 (gold reversed): r = -1 by hand (y = 11 - x); the run 2x: r = 1
  const tenEdition = toyEdition()
  const ten = Array.from({ length: 10 }, (_, i) => i + 1)
  const tenGold = goldOf(tenEdition, { a: lines(ten), b: lines([1, 2, 3]) })
  const check = (run: ReadonlyArray<number>) => byName(validateRun(tenEdition, tenGold, submission({ "STS.output.a.txt": lines(run) }))).a

  it("the reversed-scale check's r is kept with the dataset, and scoring takes it as the pearson figure", () => {
    const reversed = check([...ten].reverse())
    expect(reversed.figures?.pearson).toEqual({ _tag: "Defined", value: -1 })
    expect(reversed.issues.map((i) => i.code)).toContain("reversed-scale")
    expect(check(ten.map((x) => 2 * x)).figures?.pearson).toEqual({ _tag: "Defined", value: 1 })
    // taken, not computed again: a check carrying another value gives that value
    const carried = { ...check(ten), figures: { pearson: { _tag: "Defined", value: 0.25 } } } as const
    expect(scoreDataset(tenEdition, carried).figures.pearson).toEqual({ _tag: "Defined", value: 0.25 })
    // fewer than 10 pairs: no check, no value kept, and the figure computed as before (r = 1 by hand)
    const few = byName(validateRun(tenEdition, tenGold, submission({ "STS.output.a.txt": lines(ten), "STS.output.b.txt": lines([2, 4, 6]) }))).b
    expect(few.figures).toBeUndefined()
    expect(scoreDataset(tenEdition, few).figures.pearson).toEqual({ _tag: "Defined", value: 1 })
  })
})
