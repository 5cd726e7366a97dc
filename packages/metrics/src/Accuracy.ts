/**
 * Entailment accuracy (SICK subtask B): correct / scored pairs, in percent, with the confusion
 * matrix and per-class precision, recall and F1 that users expect beside it.
 *
 * @since 0.1.0
 */
import { defined, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { LabelsMetric } from "./Metric.js"

/**
 * One class's precision, recall and F1.
 *
 * @since 0.1.0
 */
export interface ClassScores {
  /** tp / pairs the run labelled with this class; undefined when the run never predicts it. */
  readonly precision: MetricValue
  /** tp / gold pairs of this class; undefined when no gold pair has it. */
  readonly recall: MetricValue
  /**
   * 2 tp / (2 tp + fp + fn): the harmonic mean of precision and recall where both exist, 0 when
   * the class is in the gold but never predicted correctly; undefined only when the class occurs
   * in neither the gold nor the run.
   */
  readonly f1: MetricValue
  /** Gold pairs of this class. */
  readonly support: number
}

/**
 * Accuracy with its confusion matrix and each class's precision, recall and F1.
 *
 * @since 0.1.0
 */
export interface AccuracyResult {
  /** Percent, e.g. 56.1599350517556. NaN when there are no pairs (total = 0). */
  readonly accuracy: number
  readonly correct: number
  readonly total: number
  /** Row/column order of `confusion`. */
  readonly labels: ReadonlyArray<string>
  /** confusion[g][p] = pairs with gold label labels[g] that the run labelled labels[p]. */
  readonly confusion: ReadonlyArray<ReadonlyArray<number>>
  readonly perClass: Readonly<Record<string, ClassScores>>
  /** Mean F1 over the labels whose F1 is defined (occurring in the gold or the run). */
  readonly macroF1: MetricValue
}

/**
 * Accuracy of `predicted` against `gold` (aligned pair by pair; labels compared case-sensitively,
 * as the final official SICK scorer does). `labels` fixes the order of the confusion matrix (e.g.
 * ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]); by default it is every label seen in the gold or the
 * run, sorted. Throws a RangeError when the lengths differ, or when `labels` is given and a pair
 * carries a label outside it (validate labels when parsing: an unknown label is a data error that
 * the scorer must report).
 *
 * @example
 * ```ts
 * import { Accuracy } from "@stseval/metrics"
 *
 * const result = Accuracy.accuracy(["ENTAILMENT", "NEUTRAL", "CONTRADICTION", "NEUTRAL"], ["ENTAILMENT", "NEUTRAL", "NEUTRAL", "NEUTRAL"])
 * result.accuracy // 75 (percent)
 * result.correct // 3
 * ```
 * @since 0.1.0
 */
export const accuracy = (
  gold: ReadonlyArray<string>,
  predicted: ReadonlyArray<string>,
  labels?: ReadonlyArray<string>
): AccuracyResult => {
  if (gold.length !== predicted.length) {
    throw new RangeError(`accuracy: the run has ${predicted.length} labels but the gold has ${gold.length}`)
  }
  let order: ReadonlyArray<string>
  if (labels === undefined) {
    const seen = new Set<string>()
    for (const g of gold) seen.add(g)
    for (const p of predicted) seen.add(p)
    order = [...seen].sort()
  } else {
    order = [...labels]
  }
  const index = new Map<string, number>()
  order.forEach((l, i) => {
    if (index.has(l)) throw new RangeError(`accuracy: label ${JSON.stringify(l)} is listed twice`)
    index.set(l, i)
  })
  const k = order.length
  const confusion: Array<Array<number>> = order.map(() => new Array<number>(k).fill(0))
  let correct = 0
  for (let i = 0; i < gold.length; i++) {
    const g = index.get(gold[i])
    const p = index.get(predicted[i])
    if (g === undefined) throw new RangeError(`accuracy: gold label ${JSON.stringify(gold[i])} (pair ${i + 1}) is not among the labels`)
    if (p === undefined) throw new RangeError(`accuracy: run label ${JSON.stringify(predicted[i])} (pair ${i + 1}) is not among the labels`)
    confusion[g][p]++
    if (g === p) correct++
  }
  const total = gold.length
  const perClass: Record<string, ClassScores> = {}
  let f1Sum = 0
  let f1Count = 0
  for (let c = 0; c < k; c++) {
    const label = order[c]
    const tp = confusion[c][c]
    let support = 0
    let predictedAs = 0
    for (let j = 0; j < k; j++) {
      support += confusion[c][j]
      predictedAs += confusion[j][c]
    }
    const fp = predictedAs - tp
    const fn = support - tp
    const precision =
      predictedAs > 0 ? defined(tp / predictedAs) : undefined_(`the run never predicts ${label}`)
    const recall = support > 0 ? defined(tp / support) : undefined_(`no gold pair is ${label}`)
    const denom = 2 * tp + fp + fn
    const f1 = denom > 0 ? defined((2 * tp) / denom) : undefined_(`${label} occurs in neither the gold nor the run`)
    if (f1._tag === "Defined") {
      f1Sum += f1.value
      f1Count++
    }
    perClass[label] = { precision, recall, f1, support }
  }
  return {
    accuracy: total > 0 ? (100 * correct) / total : Number.NaN,
    correct,
    total,
    labels: order,
    confusion,
    perClass,
    macroF1: f1Count > 0 ? defined(f1Sum / f1Count) : undefined_("no label occurs in the gold or the run")
  }
}

/**
 * Accuracy (percent) as a metric descriptor (`Metrics.get("accuracy")`): resampled by its
 * counts of pairs and of agreeing labels.
 *
 * @example
 * ```ts
 * import { Accuracy } from "@stseval/metrics"
 *
 * Accuracy.metric.display // { style: "percent", decimals: 2 }
 * const acc = Accuracy.metric.compute(["A", "B", "B"], ["A", "B", "A"]) // defined(66.66...)
 * ```
 * @since 0.3.0
 */
export const metric: LabelsMetric = {
  name: "accuracy",
  label: "Accuracy",
  symbol: "accuracy (%)",
  description: "correct labels / scored pairs, in percent (SICK entailment)",
  kind: "labels",
  direction: "higher",
  display: { style: "percent", decimals: 2 },
  missingValue: 0,
  correlation: false,
  compute: (gold, run, labels) => {
    const a = accuracy(gold, run, labels)
    return a.total > 0 ? defined(a.accuracy) : undefined_("no pairs")
  },
  // [1, 1 if the labels agree]
  resampling: {
    by: "sums",
    statistics: () => 2,
    pair: (gold, run, _c, out, o) => {
      out[o] = 1
      out[o + 1] = gold === run ? 1 : 0
    },
    figure: (s, o) => (s[o] > 0 ? (100 * s[o + 1]) / s[o] : Number.NaN),
    shape: "correct"
  }
}

/**
 * Macro-averaged F1 as a metric descriptor (`Metrics.get("macro-f1")`): the mean F1 over the
 * labels that occur in the gold or the run.
 *
 * @example
 * ```ts
 * import { Accuracy } from "@stseval/metrics"
 *
 * const f1 = Accuracy.macroF1Metric.compute(["A", "B", "B"], ["A", "B", "A"]) // mean F1 over A and B
 * ```
 * @since 0.3.0
 */
export const macroF1Metric: LabelsMetric = {
  name: "macro-f1",
  label: "Macro F1",
  symbol: "macro-F1",
  description: "the mean over labels of 2 tp / (2 tp + fp + fn), over the labels occurring in the gold or the run",
  kind: "labels",
  direction: "higher",
  display: { style: "decimal", decimals: 3 },
  missingValue: 0,
  correlation: false,
  compute: (gold, run, labels) => accuracy(gold, run, labels).macroF1,
  // per label c: [true positives, gold c, run c] (the confusion counts)
  resampling: {
    by: "sums",
    statistics: (labels) => 3 * labels,
    pair: (gold, run, _c, out, o, labels) => {
      out.fill(0, o, o + 3 * labels)
      if (gold === run) out[o + 3 * gold] = 1
      out[o + 3 * gold + 1] = 1
      out[o + 3 * run + 2] = 1
    },
    figure: (s, o, labels) => {
      let sum = 0
      let count = 0
      for (let c = 0; c < labels; c++) {
        const denom = s[o + 3 * c + 1] + s[o + 3 * c + 2]
        if (denom > 0) {
          sum += (2 * s[o + 3 * c]) / denom
          count++
        }
      }
      return count > 0 ? sum / count : Number.NaN
    }
  }
}
