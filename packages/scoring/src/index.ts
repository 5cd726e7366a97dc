/**
 * @stseval/scoring — the shared scoring engine: a task edition + its gold + runs to validated,
 * scored, aggregated and ranked results, and the JSON every app emits for them.
 *
 * The "tied with the best" marks are the subpath `@stseval/scoring/Marks` (`import * as Marks from
 * "@stseval/scoring/Marks"`), not an export of this index: they compare runs with
 * `@stseval/significance`'s tests, whose statistical distributions take about 150 ms to load, and
 * every command loads this index (the CLI loads the significance package only for the commands
 * that compare runs).
 *
 * @since 0.1.0
 */
export * as Validation from "./Validation.js"
export * as ScoredRun from "./ScoredRun.js"
export * as Rank from "./Rank.js"
export * as ResultSchema from "./ResultSchema.js"
export * as ResultJson from "./ResultJson.js"
export * as Engine from "./Engine.js"
export * as Aligned from "./Aligned.js"
export * as Signature from "./Signature.js"
export * as Style from "./Style.js"
export * as Uncertainty from "./Uncertainty.js"
export * as Isolation from "./Isolation.js"
