// The marks' rule as outputs print it and as JSON carries it: what the footnotes say and the
// schema of a figure's marks. Apart from Marks.ts, which loads the significance package: the
// scored results' JSON (rank --json) reads this without loading it.
import { Schema } from "effect"

/** Printed names of the tests, for footnotes and headings. */
const LABELS: Readonly<Record<string, string>> = {
  williams1959: "Williams' t",
  steiger1980: "Steiger's z",
  meng1992: "Meng, Rosenthal and Rubin's z",
  hittner2003: "Hittner, May and Silver's z",
  hotelling1940: "Hotelling's t",
  pearson1898: "Pearson and Filon's z",
  olkin1967: "Olkin's z",
  dunn1969: "Dunn and Clark's z",
  hendrickson1970: "Hendrickson, Stanley and Hills' t",
  zou2007: "Zou's confidence interval",
  bootstrap: "paired bootstrap",
  permutation: "approximate randomisation"
}

/** A test's name as printed. */
export const testLabel = (test: string): string => LABELS[test] ?? test

/** What a footnote says of a figure's marks. */
export interface Described {
  readonly test?: string | undefined
  readonly aggregate?: string | undefined
  readonly correction: string
  readonly alpha: number
  readonly resamples?: number | undefined
  readonly seed?: number | undefined
  readonly pMethod?: string | undefined
}

/** n's digits grouped by commas as `toLocaleString("en-US")` writes an integer, without Intl: its first number format builds ICU's locale data, 4-8 ms of the command that prints this. */
const grouped = (n: number): string => (Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en-US"))

/** The rule of a figure's marks in words: test, resamples, p-value, correction, alpha. */
export const describe = (m: Described): string => {
  const parts = [`${testLabel(m.test ?? "")}${m.aggregate !== undefined ? ` stratified by dataset (${m.aggregate} mean)` : ""}`]
  if (m.resamples !== undefined) {
    parts.push(`${grouped(m.resamples)} resamples${m.seed !== undefined ? ` (seed ${m.seed})` : ""}`)
    parts.push(m.pMethod === "shift" ? `p = (count + 1) / (resamples + 1)` : "p by the normal approximation")
  }
  parts.push(m.correction === "holm" ? "Holm-adjusted" : m.correction === "bonferroni" ? "Bonferroni-adjusted" : "unadjusted", `p > ${m.alpha}`)
  return parts.join(", ")
}

/** One figure's marks as JSON. */
export const FigureMarksJson = Schema.Struct({
  key: Schema.String.annotate({ description: "aggregate:<ranking> for an official figure over several datasets, <dataset>:<metric> for a dataset's figure" }),
  ranking: Schema.String,
  dataset: Schema.optionalKey(Schema.String),
  metric: Schema.String.annotate({ description: "registry name of the metric compared" }),
  test: Schema.optionalKey(Schema.String.annotate({ description: "the test of the comparisons (williams1959, bootstrap...)" })),
  aggregate: Schema.optionalKey(Schema.Literals(["weighted", "unweighted", "pooled"]).annotate({ description: "several datasets: how the resampling combined them" })),
  alpha: Schema.Finite,
  correction: Schema.Literals(["holm", "none"]).annotate({ description: "over the comparisons with the best" }),
  best: Schema.optionalKey(Schema.String.annotate({ description: "the best ranked run" })),
  tied: Schema.Array(Schema.String).annotate({ description: "runs not significantly different from the best (the best first): printed bold" }),
  compared: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  failed: Schema.Array(Schema.Struct({ id: Schema.String, reason: Schema.String })).annotate({ description: "comparisons with the best that could not be made" }),
  reason: Schema.optionalKey(Schema.String.annotate({ description: "why the figure has no marks" })),
  signature: Schema.optionalKey(Schema.String.annotate({ description: "resampling tests: their reproducibility signature" })),
  resamples: Schema.optionalKey(Schema.Int.annotate({ description: "resampling tests: the resamples of the comparisons" })),
  seed: Schema.optionalKey(Schema.Int),
  pMethod: Schema.optionalKey(
    Schema.Literals(["normal", "shift"]).annotate({ description: "resampling tests: normal: the normal approximation with the bootstrap standard error (not floored); shift: (count + 1) / (resamples + 1)" })
  ),
  rule: Schema.optionalKey(Schema.String.annotate({ description: "the rule as the footnotes print it: test, resamples, p-value, correction, alpha" }))
}).annotate({ identifier: "FigureMarks" })
export type FigureMarksJson = typeof FigureMarksJson.Type
