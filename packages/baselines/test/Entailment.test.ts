import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { Entailment } from "@stseval/baselines"
import { hasShared, readSick, shared, skipNote } from "./helpers.js"

describe("entailment baselines (hand-worked)", () => {
  const train = Entailment.distribution(["ENTAILMENT", "CONTRADICTION", "NEUTRAL", "NEUTRAL", undefined])
  const test = Entailment.distribution(["ENTAILMENT", "ENTAILMENT", "NEUTRAL", "NEUTRAL"])
  it("counts labels, skipping pairs without one", () => {
    expect(train).toEqual({ ENTAILMENT: 1, CONTRADICTION: 1, NEUTRAL: 2 })
  })
  it("expected accuracies: chance 1/3, majority p_test(majority), probability sum p_train p_test", () => {
    expect(Entailment.expectedAccuracy("chance", train, test)).toBe(1 / 3)
    expect(Entailment.majorityLabel(train)).toBe("NEUTRAL")
    expect(Entailment.expectedAccuracy("majority", train, test)).toBe(0.5)
    // 1/4 * 2/4 + 1/4 * 0 + 2/4 * 2/4
    expect(Entailment.expectedAccuracy("probability", train, test)).toBeCloseTo(0.375, 15)
  })
  it("majority ties go to the first label of ENTAILMENT, CONTRADICTION, NEUTRAL", () => {
    expect(Entailment.majorityLabel({ ENTAILMENT: 2, CONTRADICTION: 3, NEUTRAL: 3 })).toBe("CONTRADICTION")
  })
  it("random baselines are reproducible from the seed and differ across seeds", () => {
    expect(Entailment.predict("chance", 50, train, 7)).toEqual(Entailment.predict("chance", 50, train, 7))
    expect(Entailment.predict("chance", 50, train, 7)).not.toEqual(Entailment.predict("chance", 50, train, 8))
    expect(Entailment.predict("majority", 3, train)).toEqual(["NEUTRAL", "NEUTRAL", "NEUTRAL"])
  })
  it("draws follow the intended distributions (within 4 standard deviations over 30000 draws)", () => {
    const n = 30000
    const within = (count: number, p: number) => expect(Math.abs(count - n * p)).toBeLessThan(4 * Math.sqrt(n * p * (1 - p)))
    const chance = Entailment.distribution(Entailment.predict("chance", n, train, 1))
    for (const l of ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const) within(chance[l], 1 / 3)
    const prob = Entailment.distribution(Entailment.predict("probability", n, train, 1))
    within(prob.ENTAILMENT, 0.25)
    within(prob.CONTRADICTION, 0.25)
    within(prob.NEUTRAL, 0.5)
  })
})

skipNote("Entailment shared-data suite")
describe.skipIf(!hasShared)("SICK: the task paper's entailment baselines", () => {
  const data = path.join(shared, "data/sick2014")
  // read in beforeAll: a skipped describe's body still runs at collection, without ../shared
  let testPairs: ReturnType<typeof readSick> = []
  let train = Entailment.distribution([])
  let test = Entailment.distribution([])
  beforeAll(() => {
    testPairs = readSick(path.join(data, "SICK_test_annotated.txt"))
    train = Entailment.distribution(readSick(path.join(data, "SICK_train.txt")).map((p) => p.entailment))
    test = Entailment.distribution(testPairs.map((p) => p.entailment))
  })
  it("training distribution and majority label NEUTRAL", () => {
    expect(train).toEqual({ ENTAILMENT: 1299, CONTRADICTION: 665, NEUTRAL: 2536 })
    expect(Entailment.majorityLabel(train)).toBe("NEUTRAL")
  })
  it("expected accuracies match the paper: chance 33.3%, majority 56.7%", () => {
    expect((100 * Entailment.expectedAccuracy("chance", train, test)).toFixed(1)).toBe("33.3")
    expect((100 * Entailment.expectedAccuracy("majority", train, test)).toFixed(1)).toBe("56.7")
  })
  it("probability baseline: expectation 42.4%; the paper's 41.8% is one draw, within the spread of draws", () => {
    const expected = Entailment.expectedAccuracy("probability", train, test)
    expect(expected).toBeCloseTo((1299 * 1414 + 665 * 720 + 2536 * 2793) / (4500 * 4927), 15)
    const sd = Math.sqrt((expected * (1 - expected)) / testPairs.length)
    expect(Math.abs(0.418 - expected)).toBeLessThan(1.5 * sd)
    const labels = Entailment.predict("probability", testPairs.length, train, 2014)
    const accuracy = labels.filter((l, i) => l === testPairs[i].entailment).length / testPairs.length
    expect(Math.abs(accuracy - expected)).toBeLessThan(4 * sd)
  })
  it("the majority run scores exactly p_test(NEUTRAL) = 2793 / 4927", () => {
    const labels = Entailment.predict("majority", testPairs.length, train)
    expect(labels.filter((l, i) => l === testPairs[i].entailment).length).toBe(2793)
  })
})
