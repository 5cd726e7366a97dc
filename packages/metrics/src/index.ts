/**
 * @stseval/metrics: the official STS / SICK metrics over Float64Array.
 *
 * @since 0.1.0
 */
export * as MetricValue from "./MetricValue.js"
export * as Pearson from "./Pearson.js"
export * as Spearman from "./Spearman.js"
export * as Kendall from "./Kendall.js"
export * as Mse from "./Mse.js"
export * as Accuracy from "./Accuracy.js"
export * as WeightedPearson from "./WeightedPearson.js"
export * as Ccc from "./Ccc.js"
export * as Moments from "./Moments.js"
export * as Rescale from "./Rescale.js"
export * as Aggregate from "./Aggregate.js"
export * as Metric from "./Metric.js"
export * as Metrics from "./Metrics.js"
