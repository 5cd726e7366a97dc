/**
 * @stseval/significance: significance tests for comparing systems in STS / SICK shared tasks.
 *
 * @since 0.1.0
 */
export * as TestResult from "./TestResult.js"
export * as Independent from "./Independent.js"
export * as Dependent from "./Dependent.js"
export * as CorrelationInterval from "./CorrelationInterval.js"
export * as Signature from "./Signature.js"
export * as Bootstrap from "./Bootstrap.js"
export * as Permutation from "./Permutation.js"
export * as McNemar from "./McNemar.js"
export * as Correction from "./Correction.js"
export * as Cluster from "./Cluster.js"
export * as Compare from "./Compare.js"
export * as Intervals from "./Intervals.js"
export * as Datasets from "./Datasets.js"
