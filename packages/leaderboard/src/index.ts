/**
 * @stseval/leaderboard — the live leaderboard: watches a submissions folder, scores what changed
 * with the scoring engine (cached by content and the engine's signature), ranks with the scoring
 * package's `rank`, persists its state, and publishes the board atomically.
 *
 * @since 0.1.0
 */
export * as Leaderboard from "./Leaderboard.js"
export * as BoardPage from "./BoardPage.js"
export * as Scorer from "./Scorer.js"
export * as ScoringAdapter from "./ScoringAdapter.js"
export * as Status from "./Status.js"
export * as State from "./State.js"
export * as Cache from "./Cache.js"
export * as Watcher from "./Watcher.js"
