/**
 * How figures are printed, in one place for every output (`score`, `rank`, `compare`,
 * `significance`, `report`, `watch`): a correlation in the edition's published style (`r3`: r to
 * 3 decimals, 0.826, as the 2012-2016 papers; `r100`: r x 100 to 2 decimals, 82.64, as STS 2017
 * and STS-B), an MSE or F1 to 3 decimals, an accuracy in percent to 2 decimals.
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
 * @example
 * ```ts
 * import { Style } from "@stseval/scoring"
 *
 * const r100: Style.NumberStyle = { decimals: 2, scale: 100 }
 * Style.format(0.82639, r100) // "82.64"
 * ```
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
 * What kind of figure is printed: a correlation, an MSE, an F1 (3 decimals), an accuracy (percent).
 *
 * @example
 * ```ts
 * import { Style } from "@stseval/scoring"
 *
 * const kind: Style.Kind = Style.kindOf("mse") // "mse"
 * ```
 * @since 0.2.0
 */
export type Kind = "correlation" | "mse" | "f1" | "accuracy"

/**
 * The kind of a metric or aggregate name (`pearson`, `wmean`, `mse`, `accuracy`...).
 *
 * @example
 * ```ts
 * import { Style } from "@stseval/scoring"
 *
 * Style.kindOf("accuracy") // "accuracy"
 * Style.kindOf("mse") // "mse"
 * Style.kindOf("wmean") // "correlation": an aggregate of correlations
 * ```
 * @since 0.2.0
 */
export const kindOf = (metric: string): Kind => {
  const display = Metrics.get(metric)?.display
  // an aggregate (wmean, mean, pooled...) of a correlation prints as a correlation
  return display === undefined || display.style === "correlation" ? "correlation" : display.style === "percent" ? "accuracy" : "mse"
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
  if (display === undefined || display.style === "correlation") return of(edition, "correlation", decimals)
  const base: NumberStyle = display.style === "percent" ? { decimals: display.decimals, suffix: "%" } : { decimals: display.decimals }
  return decimals !== undefined ? { ...base, decimals } : base
}

/**
 * The style of a figure of an edition; `decimals` overrides the number of decimals (`--decimals`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Style } from "@stseval/scoring"
 *
 * Style.format(0.82639, Style.of(Registry.get("sts2017")!, "correlation")) // "82.64"
 * Style.format(0.82639, Style.of(Registry.get("sts2014")!, "correlation")) // "0.826"
 * ```
 * @since 0.2.0
 */
export const of = (edition: Pick<Registry.TaskEdition, "published">, kind: Kind, decimals?: number): NumberStyle => {
  const base: NumberStyle =
    kind === "accuracy"
      ? { decimals: 2, suffix: "%" }
      : kind === "mse" || kind === "f1"
        ? { decimals: 3 }
        : edition.published.style === "r100"
          ? { decimals: 2, scale: 100 }
          : { decimals: 3 }
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
