/**
 * `status.json`: per run (by its name in the submissions folder), the watcher's scoring state, and
 * whether the watcher is idle. An Effect Schema; the file is written from it.
 *
 * @since 0.2.0
 */
import { Issue } from "@stseval/formats"
import { Schema } from "effect"

/**
 * The format tag of `status.json`.
 *
 * @example
 * ```ts
 * import { Status } from "@stseval/leaderboard"
 *
 * const tag: "stseval/watch-status@1" = Status.FORMAT
 * ```
 * @since 0.2.0
 */
export const FORMAT = "stseval/watch-status@1"

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const Instant = (description: string) => Schema.String.annotate({ description: `ISO 8601 instant: ${description}` })

/**
 * A run's state.
 *
 * @example
 * ```ts
 * import { Status } from "@stseval/leaderboard"
 *
 * const waiting = (s: Status.RunStatus): boolean => s === "queued" || s === "scoring"
 * ```
 * @since 0.1.0
 */
export const RunStatus = Schema.Literals(["queued", "scoring", "scored", "failed"])
/** @since 0.1.0 */
export type RunStatus = typeof RunStatus.Type

/**
 * One run of `status.json`.
 *
 * @example
 * ```ts
 * import { Status } from "@stseval/leaderboard"
 *
 * declare const status: Status.Status
 * const failed: ReadonlyArray<[string, Status.StatusRun]> = Object.entries(status.runs).filter(([, r]) => r.status === "failed")
 * ```
 * @since 0.1.0
 */
export const StatusRun = Schema.Struct({
  status: RunStatus,
  id: Schema.NullOr(Schema.String).annotate({ description: "the run's id on the leaderboard; null before its first publication" }),
  team: Schema.NullOr(Schema.String),
  run: Schema.NullOr(Schema.Int),
  hash: Schema.NullOr(Schema.String),
  failure: Schema.NullOr(Schema.String),
  errors: Schema.Array(Issue.Issue).annotate({ description: "errors of the published version" }),
  warnings: Count.annotate({ description: "number of warnings of the published version" }),
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  postDeadline: Schema.Boolean,
  submittedAt: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 submission time used by the deadline rule" }),
  firstSeen: Instant("when the watcher first saw this content"),
  updatedAt: Instant("last status change")
}).annotate({ identifier: "StatusRun" })
/** @since 0.1.0 */
export type StatusRun = typeof StatusRun.Type

/**
 * The content of `status.json`.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Status } from "@stseval/leaderboard"
 * import { Schema } from "effect"
 *
 * const status: Status.Status = Schema.decodeUnknownSync(Status.Status)(JSON.parse(fs.readFileSync("board/status.json", "utf8")))
 * status.idle // nothing queued or scoring
 * ```
 * @since 0.1.0
 */
export const Status = Schema.Struct({
  format: Schema.Literal(FORMAT),
  phase: Schema.Literals(["starting", "watching", "once", "stopped"]).annotate({ description: "starting: first scan; once: --once; stopped: clean exit" }),
  idle: Schema.Boolean.annotate({ description: "nothing queued or scoring" }),
  pending: Count.annotate({ description: "runs queued or scoring" }),
  task: Schema.String,
  signature: Schema.String.annotate({ description: "what the runs are scored with (edition, gold, rule, engine)" }),
  startedAt: Instant("when the watcher started"),
  updatedAt: Instant("when this file was written"),
  session: Schema.Struct({ scored: Count, cacheHits: Count }).annotate({ description: "runs scored and taken from the cache since this start" }),
  runs: Schema.Record(Schema.String, StatusRun).annotate({ description: "by entry name in the submissions folder" })
}).annotate({ identifier: "WatchStatus", title: "stseval watch: status.json (stseval/watch-status@1)" })
/** @since 0.1.0 */
export type Status = typeof Status.Type
