/**
 * @stseval/watcher — a live leaderboard: watches a submissions folder, re-scores what changed,
 * persists its state, and writes the leaderboard atomically.
 *
 * @since 0.1.0
 */
export * as Leaderboard from "./Leaderboard.js"
export * as Render from "./Render.js"
export * as Scorer from "./Scorer.js"
export * as ScoringAdapter from "./ScoringAdapter.js"
export * as Watcher from "./Watcher.js"
