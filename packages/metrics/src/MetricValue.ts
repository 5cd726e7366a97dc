/**
 * A metric's value, or the reason it has none.
 *
 * A correlation over a constant run, an accuracy over zero pairs, ... have no value. The task
 * guidelines say such a cell must say so: printing 0 or NaN silently hides a broken run. Kernels
 * return `MetricValue`; `getOrNaN` is the escape hatch for numeric code that wants a plain number.
 *
 * @since 0.1.0
 */

/**
 * A metric that has a value.
 *
 * @since 0.1.0
 */
export interface Defined {
  readonly _tag: "Defined"
  readonly value: number
}

/**
 * A metric with no value, and why (e.g. "the run is constant").
 *
 * @since 0.1.0
 */
export interface Undefined {
  readonly _tag: "Undefined"
  readonly reason: string
}

/**
 * A metric's figure, or why it has none.
 *
 * @since 0.1.0
 */
export type MetricValue = Defined | Undefined

/**
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * const r = MetricValue.defined(0.627) // { _tag: "Defined", value: 0.627 }
 * ```
 * @since 0.1.0
 */
export const defined = (value: number): MetricValue => ({ _tag: "Defined", value })

/**
 * The trailing underscore is there because `undefined` is a global name.
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * const r = MetricValue.undefined_("the run is constant") // { _tag: "Undefined", reason: "the run is constant" }
 * ```
 * @since 0.1.0
 */
export const undefined_ = (reason: string): MetricValue => ({ _tag: "Undefined", reason })

/**
 * @example
 * ```ts
 * import { MetricValue, Pearson } from "@stseval/metrics"
 *
 * const r = Pearson.pearson(new Float64Array([1, 2, 3]), new Float64Array([1, 3, 2]))
 * if (MetricValue.isDefined(r)) console.log(r.value) // 0.5
 * ```
 * @since 0.1.0
 */
export const isDefined = (m: MetricValue): m is Defined => m._tag === "Defined"

/**
 * @example
 * ```ts
 * import { MetricValue, Pearson } from "@stseval/metrics"
 *
 * const r = Pearson.pearson(new Float64Array([1, 2, 3]), new Float64Array([4, 4, 4]))
 * if (MetricValue.isUndefined(r)) console.log(r.reason) // "the run is constant"
 * ```
 * @since 0.1.0
 */
export const isUndefined = (m: MetricValue): m is Undefined => m._tag === "Undefined"

/**
 * The value, or NaN when there is none (for numeric code such as resampling loops).
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * MetricValue.getOrNaN(MetricValue.defined(0.5)) // 0.5
 * MetricValue.getOrNaN(MetricValue.undefined_("no pairs")) // NaN
 * ```
 * @since 0.1.0
 */
export const getOrNaN = (m: MetricValue): number => (m._tag === "Defined" ? m.value : Number.NaN)

/**
 * The value, or `orElse()` when there is none.
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * // a dataset a run did not score counts as r = 0 under STS 2012-2016's rule
 * const r = MetricValue.getOrElse(MetricValue.undefined_("fewer than 2 pairs"), () => 0) // 0
 * ```
 * @since 0.1.0
 */
export const getOrElse = (m: MetricValue, orElse: (reason: string) => number): number =>
  m._tag === "Defined" ? m.value : orElse(m.reason)

/**
 * Transform a defined value; an undefined one passes through with its reason.
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * const r100 = MetricValue.map(MetricValue.defined(0.7316), (r) => r * 100) // defined(73.16)
 * ```
 * @since 0.1.0
 */
export const map = (m: MetricValue, f: (value: number) => number): MetricValue =>
  m._tag === "Defined" ? defined(f(m.value)) : m

/**
 * Wrap a kernel's raw number: NaN becomes `Undefined` with the given reason.
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 *
 * MetricValue.fromNumber(0.8, MetricValue.Reason.noPairs) // defined(0.8)
 * MetricValue.fromNumber(Number.NaN, MetricValue.Reason.noPairs) // undefined_("no pairs")
 * ```
 * @since 0.1.0
 */
export const fromNumber = (value: number, reasonIfNaN: string): MetricValue =>
  Number.isNaN(value) ? undefined_(reasonIfNaN) : defined(value)

/**
 * The reasons the kernels of this package give, so that callers can match on them.
 *
 * @example
 * ```ts
 * import { MetricValue, Pearson } from "@stseval/metrics"
 *
 * const r = Pearson.pearson(new Float64Array([1, 2, 3]), new Float64Array([2, 2, 2]))
 * const constant = r._tag === "Undefined" && r.reason === MetricValue.Reason.runConstant // true
 * ```
 * @since 0.1.0
 */
export const Reason = {
  runConstant: "the run is constant",
  goldConstant: "the gold is constant",
  bothConstant: "the run and the gold are both constant",
  fewerThanTwoPairs: "fewer than 2 pairs",
  noPairs: "no pairs",
  runNotFinite: "the run has a non-finite score (NaN or Infinity)",
  goldNotFinite: "the gold has a non-finite score (NaN or Infinity)",
  weightsNotValid: "a confidence (weight) is negative or not finite",
  weightsZero: "every confidence (weight) is zero",
  /** finite scores whose figure (e.g. the MSE of scores near 1e200) is beyond the largest double */
  tooLarge: "the value is too large for a double (the scores are of extreme magnitude)"
} as const
