/**
 * @stseval/scoring — the shared scoring engine: a task edition + its gold + runs to validated,
 * scored, aggregated and ranked results, and the JSON every app emits for them.
 *
 * @since 0.1.0
 */
export * as Validation from "./Validation.js"
export * as ScoredRun from "./ScoredRun.js"
export * as Rank from "./Rank.js"
export * as Json from "./Json.js"
export * as Engine from "./Engine.js"
export * as Aligned from "./Aligned.js"
export * as Signature from "./Signature.js"
export * as Style from "./Style.js"
export * as Uncertainty from "./Uncertainty.js"
export * as Isolation from "./Isolation.js"
