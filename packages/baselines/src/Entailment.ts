/**
 * The SICK entailment baselines of SemEval-2014 Task 1: chance (a label drawn uniformly), majority
 * (always the most common training label) and probability (a label drawn from the training label
 * distribution). Random ones are seeded (pure-rand xoroshiro128+) so that a run is reproducible.
 *
 * @since 0.1.0
 */
import { Sick } from "@stseval/formats"
import type { Sick as SickTypes } from "@stseval/formats"
import { uniformInt } from "pure-rand/distribution/uniformInt"
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64"
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"

type Label = SickTypes.EntailmentLabel

/**
 * Label counts, in `Sick.ENTAILMENT_LABELS` order.
 *
 * @since 0.1.0
 */
export type Distribution = Readonly<Record<Label, number>>

/**
 * Count the labels (undefined entries, e.g. a test input without gold, are skipped).
 *
 * @example
 * ```ts
 * import { Entailment } from "@stseval/baselines"
 *
 * Entailment.distribution(["NEUTRAL", "ENTAILMENT", "NEUTRAL", undefined]) // { ENTAILMENT: 1, CONTRADICTION: 0, NEUTRAL: 2 }
 * ```
 * @since 0.1.0
 */
export const distribution = (labels: Iterable<Label | undefined>): Distribution => {
  const d: Record<Label, number> = { ENTAILMENT: 0, CONTRADICTION: 0, NEUTRAL: 0 }
  for (const l of labels) if (l !== undefined) d[l]++
  return d
}

const total = (d: Distribution) => Sick.ENTAILMENT_LABELS.reduce((s, l) => s + d[l], 0)

/**
 * The most common label; a tie goes to the label listed first in `Sick.ENTAILMENT_LABELS`.
 * On the SICK training set: NEUTRAL (2536 of 4500).
 *
 * @example
 * ```ts
 * import { Entailment } from "@stseval/baselines"
 *
 * Entailment.majorityLabel({ ENTAILMENT: 1299, CONTRADICTION: 665, NEUTRAL: 2536 }) // "NEUTRAL"
 * ```
 * @since 0.1.0
 */
export const majorityLabel = (train: Distribution): Label =>
  Sick.ENTAILMENT_LABELS.reduce((best, l) => (train[l] > train[best] ? l : best), Sick.ENTAILMENT_LABELS[0] as Label)

/**
 * The name of an entailment baseline.
 *
 * @since 0.1.0
 */
export type BaselineName = "chance" | "majority" | "probability"

/**
 * Labels for `n` pairs. `chance`: uniform over the three labels; `majority`: the most common
 * training label for every pair; `probability`: drawn independently from the training
 * distribution. `seed` (default 42) makes the random ones reproducible.
 *
 * @example
 * ```ts
 * import { Entailment } from "@stseval/baselines"
 *
 * const train = { ENTAILMENT: 1299, CONTRADICTION: 665, NEUTRAL: 2536 }
 * Entailment.predict("majority", 3, train) // ["NEUTRAL", "NEUTRAL", "NEUTRAL"]
 * const drawn = Entailment.predict("probability", 4927, train, 42) // seeded: the same labels every time
 * ```
 * @since 0.1.0
 */
export const predict = (name: BaselineName, n: number, train: Distribution, seed = 42): Array<Label> => {
  const rng = xoroshiro128plus(seed)
  const labels = Sick.ENTAILMENT_LABELS
  switch (name) {
    case "chance":
      return Array.from({ length: n }, () => labels[uniformInt(rng, 0, labels.length - 1)])
    case "majority": {
      const m = majorityLabel(train)
      return Array.from({ length: n }, () => m)
    }
    case "probability": {
      const t = total(train)
      // a programmer's error: Inputs refuses training data without labels
      if (t === 0) throw new RangeError("the probability baseline needs a training distribution with at least one label")
      return Array.from({ length: n }, () => {
        const u = uniformFloat64(rng) * t
        let acc = 0
        for (const l of labels) {
          acc += train[l]
          if (u < acc) return l
        }
        return labels[labels.length - 1]
      })
    }
  }
}

/**
 * The accuracy (0-1) a baseline is expected to reach on a test set with label distribution
 * `test`: chance 1/3; majority p_test(majority label); probability sum over labels of
 * p_train(l) * p_test(l). On SICK (train -> test): 1/3, 2793/4927 = 56.69%, 42.39%. The task paper
 * prints 41.8% for the probability baseline: a single random draw (its standard deviation over
 * draws is about 0.7 points), not this expectation.
 *
 * @example
 * ```ts
 * import { Entailment } from "@stseval/baselines"
 *
 * const train = { ENTAILMENT: 1299, CONTRADICTION: 665, NEUTRAL: 2536 }
 * const test = { ENTAILMENT: 1414, CONTRADICTION: 720, NEUTRAL: 2793 }
 * Entailment.expectedAccuracy("chance", train, test) // 0.333...: one label in three
 * Entailment.expectedAccuracy("majority", train, test) // the share of NEUTRAL pairs in the test set
 * ```
 * @since 0.1.0
 */
export const expectedAccuracy = (name: BaselineName, train: Distribution, test: Distribution): number => {
  const nTest = total(test)
  switch (name) {
    case "chance":
      return 1 / Sick.ENTAILMENT_LABELS.length
    case "majority":
      return test[majorityLabel(train)] / nTest
    case "probability": {
      const nTrain = total(train)
      return Sick.ENTAILMENT_LABELS.reduce((s, l) => s + (train[l] / nTrain) * (test[l] / nTest), 0)
    }
  }
}
