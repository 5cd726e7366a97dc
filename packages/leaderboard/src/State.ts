/**
 * `state.json`: what the watcher had published, so that a restart shows the board at once (from
 * the cache) and re-scores only what changed. Read back through its Effect Schema: a file from
 * another version, or damaged, is not trusted.
 *
 * @since 0.2.0
 */
import { Issue } from "@stseval/formats"
import { Schema } from "effect"

/**
 * The format tag of `state.json` (2: keyed by the scorer's signature).
 *
 * @example
 * ```ts
 * import { State } from "@stseval/leaderboard"
 *
 * const tag: "stseval/watch-state@2" = State.FORMAT
 * ```
 * @since 0.2.0
 */
export const FORMAT = "stseval/watch-state@2"

/**
 * The largest `state.json` read (bytes): over 100,000 bounded run records; a larger file is not
 * ours to trust, and a restart starts afresh (from the cache).
 *
 * @example
 * ```ts
 * import { State } from "@stseval/leaderboard"
 *
 * const limit: number = State.MAX_BYTES
 * ```
 * @since 0.4.0
 */
export const MAX_BYTES = 128 * 1024 * 1024

/**
 * One published run.
 *
 * @example
 * ```ts
 * import { State } from "@stseval/leaderboard"
 *
 * declare const state: State.StateFile
 * const runs: ReadonlyArray<State.StateRun> = Object.values(state.runs)
 * ```
 * @since 0.2.0
 */
export const StateRun = Schema.Struct({
  key: Schema.String.annotate({ description: "cache key of its outcome" }),
  hash: Schema.String,
  kind: Schema.Literals(["file", "folder", "zip"]),
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  postDeadline: Schema.optionalKey(Schema.Boolean),
  description: Schema.optionalKey(Schema.String),
  identityUnknown: Schema.optionalKey(Schema.Literal(true).annotate({ description: "its run.json could not be used: who submitted it is unknown" })),
  submittedAt: Schema.Finite,
  firstSeen: Schema.Finite,
  sig: Schema.String.annotate({ description: "the run's files' sizes and times when it settled" })
})
/** @since 0.2.0 */
export type StateRun = typeof StateRun.Type

/**
 * The content of `state.json`: the task and signature the watcher published under, and what it knew
 * of each run, so that a restart re-scores only what changed.
 *
 * @example
 * ```ts
 * import { State } from "@stseval/leaderboard"
 *
 * const decoded = State.decode('{"format":"stseval/watch-state@2"}')
 * const state: State.StateFile | undefined = decoded._tag === "Ok" ? decoded.state : undefined
 * ```
 * @since 0.2.0
 */
export const StateFile = Schema.Struct({
  format: Schema.Literal(FORMAT),
  task: Schema.String,
  signature: Schema.String,
  runs: Schema.Record(Schema.String, StateRun)
})
/** @since 0.2.0 */
export type StateFile = typeof StateFile.Type

const decodeState = Schema.decodeUnknownResult(Schema.fromJsonString(StateFile))

/**
 * The state in a file's text, or why it cannot be used.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { State } from "@stseval/leaderboard"
 *
 * const decoded = State.decode(fs.readFileSync("board/state.json", "utf8"))
 * if (decoded._tag === "Invalid") console.warn(`state.json cannot be used: ${decoded.reason}`)
 * ```
 * @since 0.2.0
 */
export const decode = (text: string): { readonly _tag: "Ok"; readonly state: StateFile } | { readonly _tag: "Invalid"; readonly reason: string } => {
  const result = decodeState(text)
  return result._tag === "Success" ? { _tag: "Ok", state: result.success } : { _tag: "Invalid", reason: Issue.schemaMessage(result.failure) }
}
