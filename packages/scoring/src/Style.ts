/**
 * How figures are printed, in one place for every output: a correlation in the edition's published
 * style (`r3`: 0.826, the 2012-2016 papers; `r100`: 82.64, STS 2017 and STS-B), an MSE or F1 to 3
 * decimals, an accuracy in percent to 2.
 *
 * @since 0.2.0
 */
import type { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import type { MetricValue } from "@stseval/metrics"

/**
 * How a number is printed: `value * scale` to `decimals` places, e.g. Pearson to 3 decimals
 * (STS 2014), r x 100 with 2 decimals (STS 2017), accuracy in percent.
 *
 * @since 0.2.0
 */
export interface NumberStyle {
  readonly decimals: number
  /** multiply before printing (100 for r x 100); default 1 */
  readonly scale?: number
  /** print `.084` instead of `0.084`; default false */
  readonly dropLeadingZero?: boolean
  /** appended after the number, e.g. `%`; default none */
  readonly suffix?: string
}

/**
 * Whether a metric's figures print as correlations, in the edition's published style (its
 * descriptor's `display`; an aggregate of correlations, `wmean`, `mean`, has no descriptor and
 * prints as one): only those take `--decimals`' correlation places.
 *
 * @example
 * ```ts
 * import { Style } from "@stseval/scoring"
 *
 * Style.isCorrelation("kendall") // true
 * Style.isCorrelation("wmean") // true: an aggregate of correlations
 * Style.isCorrelation("mse") // false
 * ```
 * @since 0.4.0
 */
export const isCorrelation = (metric: string): boolean => {
  const display = Metrics.get(metric)?.display
  return display === undefined || display.style === "correlation"
}

/**
 * The style of a metric's figure, from its descriptor's display: a correlation in the edition's
 * published style, a percentage or a decimal to the descriptor's places; `decimals` overrides the
 * places.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Style } from "@stseval/scoring"
 *
 * Style.format(0.61, Style.forMetric(Registry.get("sts2017")!, "kendall")) // "61.00": a correlation, r x 100 in STS 2017
 * Style.format(0.3251, Style.forMetric(Registry.get("sick2014")!, "mse")) // "0.325"
 * Style.format(79.6428, Style.forMetric(Registry.get("sick2014")!, "accuracy")) // "79.64%": accuracy is in percent
 * ```
 * @since 0.3.0
 */
export const forMetric = (edition: Pick<Registry.TaskEdition, "published">, metric: string, decimals?: number): NumberStyle => {
  const display = Metrics.get(metric)?.display
  if (display === undefined || display.style === "correlation") return correlation(edition, decimals)
  const base: NumberStyle = display.style === "percent" ? { decimals: display.decimals, suffix: "%" } : { decimals: display.decimals }
  return decimals !== undefined ? { ...base, decimals } : base
}

/**
 * The style of a correlation in an edition's published style (`r3`: 3 decimals; `r100`: r x 100
 * to 2); `decimals` overrides the places (`--decimals`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Style } from "@stseval/scoring"
 *
 * Style.format(0.82639, Style.correlation(Registry.get("sts2017")!)) // "82.64"
 * Style.format(0.82639, Style.correlation(Registry.get("sts2014")!)) // "0.826"
 * ```
 * @since 0.4.0
 */
export const correlation = (edition: Pick<Registry.TaskEdition, "published">, decimals?: number): NumberStyle => {
  const base: NumberStyle = edition.published.style === "r100" ? { decimals: 2, scale: 100 } : { decimals: 3 }
  return decimals !== undefined ? { ...base, decimals } : base
}

/**
 * A number in a style. Negative zero prints as zero.
 *
 * @example
 * ```ts
 * import { Style } from "@stseval/scoring"
 *
 * Style.format(0.08412, { decimals: 3, dropLeadingZero: true }) // ".084"
 * Style.format(79.6428, { decimals: 2, suffix: "%" }) // "79.64%"
 * ```
 * @since 0.2.0
 */
export const format = (value: number, style: NumberStyle = { decimals: 3 }): string => {
  let out = (value * (style.scale ?? 1)).toFixed(style.decimals)
  if (/^-0(\.0*)?$/.test(out)) out = out.slice(1)
  if (style.dropLeadingZero === true) out = out.replace(/^(-?)0\./, "$1.")
  return out + (style.suffix ?? "")
}

/**
 * A metric in a style, or `missing` (default `n/a`) when it has no value.
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 * import { Style } from "@stseval/scoring"
 *
 * Style.metric(MetricValue.defined(0.8264), { decimals: 3 }) // "0.826"
 * Style.metric(MetricValue.undefined_("the run is constant"), { decimals: 3 }) // "n/a" (or the `missing` text given)
 * ```
 * @since 0.2.0
 */
export const metric = (m: MetricValue.MetricValue | number | undefined, style: NumberStyle, missing = "n/a"): string => {
  const value = typeof m === "number" ? m : m?._tag === "Defined" ? m.value : undefined
  return value === undefined || !Number.isFinite(value) ? missing : format(value, style)
}
