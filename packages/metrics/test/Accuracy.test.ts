import { describe, expect, it } from "vitest"
import { Accuracy, MetricValue } from "@stseval/metrics"

const E = "ENTAILMENT"
const C = "CONTRADICTION"
const N = "NEUTRAL"

describe("Accuracy.accuracy", () => {
  // Hand-worked example: 6 pairs.
  //   gold: E E E N N C
  //   run:  E N E N C C      correct: pairs 1, 3, 4, 6 -> 4 / 6 = 66.67%
  // Default label order is sorted: CONTRADICTION, ENTAILMENT, NEUTRAL. confusion[gold][run]:
  //   gold C: run C 1                 -> [1, 0, 0]
  //   gold E: run E 2, run N 1        -> [0, 2, 1]
  //   gold N: run N 1, run C 1        -> [1, 0, 1]
  // C: tp 1, predicted 2 (column C), support 1: P = 1/2, R = 1, F1 = 2*1 / (2 + 1 + 0) = 2/3
  // E: tp 2, predicted 2, support 3:             P = 1,   R = 2/3, F1 = 4 / (4 + 0 + 1) = 0.8
  // N: tp 1, predicted 2, support 2:             P = 1/2, R = 1/2, F1 = 2 / (2 + 1 + 1) = 0.5
  // macro F1 = (2/3 + 0.8 + 0.5) / 3
  const result = Accuracy.accuracy([E, E, E, N, N, C], [E, N, E, N, C, C])

  it("computes accuracy in percent", () => {
    expect(result.correct).toBe(4)
    expect(result.total).toBe(6)
    expect(result.accuracy).toBeCloseTo(400 / 6, 12)
  })

  it("builds the confusion matrix [gold][run] in sorted label order", () => {
    expect(result.labels).toEqual([C, E, N])
    expect(result.confusion).toEqual([
      [1, 0, 0],
      [0, 2, 1],
      [1, 0, 1]
    ])
  })

  it("computes per-class precision, recall, F1 and support", () => {
    const get = (m: MetricValue.MetricValue) => MetricValue.getOrNaN(m)
    expect(get(result.perClass[C].precision)).toBeCloseTo(0.5, 15)
    expect(get(result.perClass[C].recall)).toBeCloseTo(1, 15)
    expect(get(result.perClass[C].f1)).toBeCloseTo(2 / 3, 15)
    expect(get(result.perClass[E].precision)).toBeCloseTo(1, 15)
    expect(get(result.perClass[E].recall)).toBeCloseTo(2 / 3, 15)
    expect(get(result.perClass[E].f1)).toBeCloseTo(0.8, 15)
    expect(get(result.perClass[N].f1)).toBeCloseTo(0.5, 15)
    expect([result.perClass[C].support, result.perClass[E].support, result.perClass[N].support]).toEqual([1, 3, 2])
    expect(get(result.macroF1)).toBeCloseTo((2 / 3 + 0.8 + 0.5) / 3, 15)
  })

  it("honours a given label order and explains undefined precision / recall", () => {
    // gold A B, run A A, labels A B C.
    // A: tp 1, predicted 2, support 1 -> P 1/2, R 1, F1 2/3
    // B: never predicted -> P undefined; R = 0/1 = 0; F1 = 0 / (0 + 0 + 1) = 0
    // C: in neither -> all undefined; macro F1 over A and B = (2/3 + 0) / 2 = 1/3
    const r = Accuracy.accuracy(["A", "B"], ["A", "A"], ["A", "B", "C"])
    expect(r.labels).toEqual(["A", "B", "C"])
    expect(r.confusion).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [0, 0, 0]
    ])
    expect(r.perClass.B.precision).toEqual(MetricValue.undefined_("the run never predicts B"))
    expect(r.perClass.B.recall).toEqual(MetricValue.defined(0))
    expect(r.perClass.B.f1).toEqual(MetricValue.defined(0))
    expect(r.perClass.C.recall).toEqual(MetricValue.undefined_("no gold pair is C"))
    expect(r.perClass.C.f1._tag).toBe("Undefined")
    expect(MetricValue.getOrNaN(r.macroF1)).toBeCloseTo(1 / 3, 15)
    expect(r.accuracy).toBe(50)
  })

  it("compares labels case-sensitively, as the final official scorer does", () => {
    const r = Accuracy.accuracy([E], ["entailment"])
    expect(r.correct).toBe(0)
  })

  it("rejects unaligned input, labels outside the given set, duplicate labels", () => {
    expect(() => Accuracy.accuracy([E], [E, E])).toThrow(RangeError)
    expect(() => Accuracy.accuracy([E], ["entailment"], [E, C, N])).toThrow(/entailment/)
    expect(() => Accuracy.accuracy([E], [E], [E, E])).toThrow(RangeError)
  })

  it("has no accuracy on zero pairs", () => {
    const r = Accuracy.accuracy([], [])
    expect(r.accuracy).toBeNaN()
    expect(r.macroF1._tag).toBe("Undefined")
  })
})
