/**
 * The metric registry: every metric an edition can name, by name. Nothing downstream lists
 * metrics by hand; it looks them up here (`get`), so a new metric is its own file and one line in
 * `all`.
 *
 * @since 0.3.0
 */
import * as Accuracy from "./Accuracy.js"
import * as Ccc from "./Ccc.js"
import * as Kendall from "./Kendall.js"
import type { Metric } from "./Metric.js"
import * as Mse from "./Mse.js"
import * as Pearson from "./Pearson.js"
import * as Spearman from "./Spearman.js"
import * as WeightedPearson from "./WeightedPearson.js"

/**
 * Every metric, in the order documentation lists them.
 *
 * @example
 * ```ts
 * import { Metrics } from "@stseval/metrics"
 *
 * const correlations = Metrics.all.filter((m) => m.correlation).map((m) => m.name) // ["pearson", "spearman", ...]
 * ```
 * @since 0.3.0
 */
export const all: ReadonlyArray<Metric> = [
  Pearson.metric,
  Spearman.metric,
  Kendall.metric,
  WeightedPearson.metric,
  Mse.metric,
  Mse.standardisedMetric,
  Accuracy.metric,
  Accuracy.macroF1Metric,
  Ccc.metric
]

const byName = new Map<string, Metric>(all.map((m) => [m.name, m]))

/**
 * The names an edition may use.
 *
 * @example
 * ```ts
 * import { Metrics } from "@stseval/metrics"
 *
 * const known: boolean = Metrics.names.includes("spearman") // true
 * ```
 * @since 0.3.0
 */
export const names: ReadonlyArray<string> = all.map((m) => m.name)

/**
 * A metric by name, or undefined.
 *
 * @example
 * ```ts
 * import { Metrics } from "@stseval/metrics"
 *
 * Metrics.get("spearman")?.label // "Spearman"
 * Metrics.get("bleu") // undefined
 * ```
 * @since 0.3.0
 */
export const get = (name: string): Metric | undefined => byName.get(name)

/**
 * A metric by name; throws a RangeError naming the known ones when there is none (for names that
 * were already checked, such as a decoded edition's).
 *
 * @example
 * ```ts
 * import { Metrics } from "@stseval/metrics"
 *
 * Metrics.getOrThrow("pearson").direction // "higher"
 * ```
 * @since 0.3.0
 */
export const getOrThrow = (name: string): Metric => {
  const m = byName.get(name)
  if (m === undefined) throw new RangeError(`unknown metric "${name}" (known: ${names.join(", ")})`)
  return m
}
