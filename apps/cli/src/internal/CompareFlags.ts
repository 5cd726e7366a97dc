/**
 * What `compare` and `significance` share: their flags, number formats and progress line. The
 * scores they compare come aligned from the scoring package (`Aligned`), the tests and the
 * default test from the significance package.
 */
import type { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { Style } from "@stseval/scoring"
import { Option } from "effect"
import { Flag } from "effect/cli"
import * as Flags from "./Flags.js"
import { testNames } from "./Lazy.js"

// ---------------------------------------------------------------------------------------------
// Flags shared with `significance`
// ---------------------------------------------------------------------------------------------

export const test = Flag.Literals("test", testNames).pipe(
  Flag.withDescription(
    "Test: a cocor test for two dependent correlations (williams1959 [default, as STS 2017], steiger1980, meng1992, hittner2003, zou2007, ...), or bootstrap / permutation (correlation-level resampling; used for multi-dataset aggregates)"
  ),
  Flag.optional
)

export const resamples = Flags.resamples

export const seed = Flag.Int("seed").pipe(Flags.defaulting("Seed of the resampling (printed in the signature)", 12345))

/** The metrics of graded scores a test can compare (the registry's, by name). */
const gradedMetrics = Metrics.all.flatMap((m) => (m.kind === "scores" ? [m.name] : []))

export const metric = Flag.Literals("metric", gradedMetrics).pipe(
  Flag.withDescription(
    `The figure compared: ${gradedMetrics.join(", ")} (default: the metric the edition ranks by). Williams' t and the other cocor tests compare Pearson; any other metric takes the paired bootstrap (the default) or approximate randomisation`
  ),
  Flag.optional
)

/** A ranking's metric when it is of graded scores (labels are compared by McNemar's test instead). */
const gradedMetric = (ranking: Registry.Ranking): string | undefined => (Metrics.get(ranking.metric)?.kind === "scores" ? ranking.metric : undefined)

/**
 * The metric a test compares: the one asked for, else the metric the ranking orders runs by (Kendall
 * for an edition ranked by Kendall); for a ranking of labels (SICK's entailment, whose test is
 * McNemar's) the graded metric the edition ranks by elsewhere (SICK: relatedness' Pearson), as
 * each edition declares it: no metric is assumed by name.
 */
export const metricOf = (asked: Option.Option<string>, ranking: Registry.Ranking, edition: Pick<Registry.TaskEdition, "ranking">): string =>
  Option.getOrElse(asked, () => gradedMetric(ranking) ?? edition.ranking.map(gradedMetric).find((m) => m !== undefined) ?? ranking.metric)

export const dataset = Flag.String("dataset").pipe(
  Flag.withDescription("Compare on this dataset (track) only"),
  Flag.optional
)

export const fmt = (x: number | undefined, digits = 4): string =>
  x === undefined || Number.isNaN(x) ? "-" : x.toFixed(digits)

/** A p-value; never "0": below 1e-300 a double has lost it (Williams' t = 92.8), so the bound (JSON carries log10P). */
export const fmtP = (p: number | undefined): string =>
  p === undefined || Number.isNaN(p) ? "-" : p < 1e-300 ? "< 1e-300" : p < 1e-4 ? p.toExponential(2) : p.toFixed(4)

/** A correlation (or a difference of correlations) in the edition's published style (`Style`). */
export const fmtR = (x: number | undefined, style: Style.NumberStyle): string => Style.metric(x, style, "-")

export const fmtCi = (ci: readonly [number, number] | undefined, style: Style.NumberStyle): string =>
  ci === undefined ? "-" : `[${fmtR(ci[0], style)}, ${fmtR(ci[1], style)}]`

/** A progress line on stderr for long resampling jobs (text mode on a terminal only). */
export const progressReporter = (json: boolean) => {
  if (json || !process.stderr.isTTY) return undefined
  return (done: number, total: number) => {
    process.stderr.write(`\rresampling ${Math.round((100 * done) / total)}%${done === total ? "\r\x1b[K" : ""}`)
  }
}
