// The marks beside an interval that rests on few pairs or on skewed data, and what they mean
// (re-exported by Uncertainty, whose notes say it in every output that marks one).
import * as Intervals from "@stseval/significance/Intervals"

/**
 * The mark beside an interval on fewer than `Intervals.fewPairs` pairs (`isFew`), with a note saying
 * what it means in every output that marks it.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * declare const figure: Uncertainty.Figure
 * const shown = `[${figure.ci?.low}, ${figure.ci?.high}]${Uncertainty.isFew(figure) ? Uncertainty.FEW_PAIRS_MARK : ""}`
 * ```
 * @since 0.3.0
 */
export const FEW_PAIRS_MARK = "\u2021"

/**
 * The mark beside a Pearson interval on skewed data (`isSkewed`), with a note in every output that marks it.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * declare const figure: Uncertainty.Figure
 * const shown = `[${figure.ci?.low}, ${figure.ci?.high}]${Uncertainty.isSkewed(figure) ? Uncertainty.SKEWED_MARK : ""}`
 * ```
 * @since 0.4.0
 */
export const SKEWED_MARK = "\u00a7"

/**
 * True when a Pearson figure's interval rests on skewed data (`Intervals.skewLimit`), where its
 * percentile interval covers well below its level (docs/significance.md, "Coverage").
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * declare const figure: Uncertainty.Figure
 * if (Uncertainty.isSkewed(figure)) console.log(`skewness ${figure.skewed}`)
 * ```
 * @since 0.4.0
 */
export const isSkewed = (f: Intervals.Figure): f is Intervals.Figure & { readonly skewed: number } => f.ci !== undefined && f.skewed !== undefined

/**
 * True when a figure with an interval rests on fewer than `Intervals.fewPairs` (100) pairs, where
 * percentile intervals cover less than their level (docs/significance.md, "Coverage").
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * declare const figure: Uncertainty.Figure
 * if (Uncertainty.isFew(figure)) console.log(`interval on ${figure.pairs} pairs only`)
 * ```
 * @since 0.3.0
 */
export const isFew = (f: Intervals.Figure): f is Intervals.Figure & { readonly pairs: number } => f.ci !== undefined && f.pairs !== undefined && f.pairs < Intervals.fewPairs
