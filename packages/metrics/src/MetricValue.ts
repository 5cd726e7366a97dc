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
 * @since 0.1.0
 */
export type MetricValue = Defined | Undefined

/**
 * @example
 * defined(0.627) // { _tag: "Defined", value: 0.627 }
 * @since 0.1.0
 */
export const defined = (value: number): MetricValue => ({ _tag: "Defined", value })

/**
 * The trailing underscore is there because `undefined` is a global name.
 *
 * @example
 * undefined_("the run is constant")
 * @since 0.1.0
 */
export const undefined_ = (reason: string): MetricValue => ({ _tag: "Undefined", reason })

/**
 * @since 0.1.0
 */
export const isDefined = (m: MetricValue): m is Defined => m._tag === "Defined"

/**
 * @since 0.1.0
 */
export const isUndefined = (m: MetricValue): m is Undefined => m._tag === "Undefined"

/**
 * The value, or NaN when there is none (for numeric code such as resampling loops).
 *
 * @since 0.1.0
 */
export const getOrNaN = (m: MetricValue): number => (m._tag === "Defined" ? m.value : Number.NaN)

/**
 * The value, or `orElse()` when there is none.
 *
 * @since 0.1.0
 */
export const getOrElse = (m: MetricValue, orElse: (reason: string) => number): number =>
  m._tag === "Defined" ? m.value : orElse(m.reason)

/**
 * Transform a defined value; an undefined one passes through with its reason.
 *
 * @example
 * map(defined(0.5), (r) => r * 100) // defined(50)
 * @since 0.1.0
 */
export const map = (m: MetricValue, f: (value: number) => number): MetricValue =>
  m._tag === "Defined" ? defined(f(m.value)) : m

/**
 * Wrap a kernel's raw number: NaN becomes `Undefined` with the given reason.
 *
 * @since 0.1.0
 */
export const fromNumber = (value: number, reasonIfNaN: string): MetricValue =>
  Number.isNaN(value) ? undefined_(reasonIfNaN) : defined(value)

/**
 * The reasons the kernels of this package give, so that callers can match on them.
 *
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
