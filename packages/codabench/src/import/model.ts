/** What an import takes and gives: its options, its result, its error, its limits. */
import { Schema } from "effect"

/**
 * The most a bulk download may unpack to, counted as produced.
 *
 * @since 0.2.0
 */
export const MAX_BULK_BYTES = 1024 * 1024 * 1024
/**
 * The most entries a bulk download may hold.
 *
 * @since 0.2.0
 */
export const MAX_BULK_ENTRIES = 100_000


/**
 * How `importSubmissions` reads a download: the deadline and grace period, the phase, the CSV
 * export, the team of each username, the primary run.
 *
 * @since 0.1.0
 */
export interface Options {
  /** submissions created after this instant are late (before `lateUntil`) or post-deadline */
  readonly deadline?: Date | undefined
  /**
   * a grace period: a submission after `deadline` but not after this instant is late (ranked, and
   * marked `*` in the tables, as the papers mark late runs); after it, post-deadline. Without it,
   * every submission after the deadline is post-deadline.
   */
  readonly lateUntil?: Date | undefined
  /** keep only this phase's submissions: its name in the CSV (compared ignoring case), or its id (`PhaseId<id>` in the names) */
  readonly phase?: string | undefined
  /** the submissions CSV (default: the one `.csv` found in the input) */
  readonly manifest?: string | undefined
  /** Codabench username -> team name (default: the username) */
  readonly teams?: ReadonlyMap<string, string> | Readonly<Record<string, string>> | undefined
  /** which run of a team is primary: its last before the deadline (default), its first, or none */
  readonly primary?: "last" | "first" | "none" | undefined
}

/**
 * One imported run.
 *
 * @since 0.1.0
 */
export interface Imported {
  readonly team: string
  /** the Codabench username, when known */
  readonly owner: string | undefined
  readonly run: number
  readonly primary: boolean
  /** after the deadline, within the grace period (`lateUntil`) */
  readonly late: boolean
  readonly postDeadline: boolean
  /** ISO 8601, when known (from the CSV) */
  readonly submitted: string | undefined
  /** `YYYY-MM-DD` (UTC), when only the day is known (a v1.23+ name without the CSV) */
  readonly submittedDay: string | undefined
  /** the Codabench submission id, when known */
  readonly id: string | undefined
  /** the phase: its name (CSV) or `PhaseId<id>` (name), when known */
  readonly phase: string | undefined
  /** the downloaded zip's name */
  readonly source: string
  /** the run written in the submissions folder */
  readonly path: string
}

/**
 * A submission of the download that was not imported, and why.
 *
 * @since 0.1.0
 */
export interface Skipped {
  readonly source: string
  readonly reason: string
}

/**
 * What an import of Codabench submissions wrote, kept and left out.
 *
 * @since 0.1.0
 */
export interface Result {
  readonly runs: ReadonlyArray<Imported>
  /** excluded by a stated rule: a status other than Finished, another phase, a hidden file */
  readonly skipped: ReadonlyArray<Skipped>
  /** which download it was: Codabench v1.23 or later, v1.22 or before, or zips named by hand */
  readonly download: "v1.23+" | "v1.22-" | "other"
  /** what the organiser should know (no CSV: statuses unknown) */
  readonly notes: ReadonlyArray<string>
}

/**
 * The download cannot be imported. `problems` lists each submission (or entry) that could not be
 * imported and why; nothing was written.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Import } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const imported = Import.importSubmissions("bulk_submissions.zip", "submissions").pipe(
 *   Effect.catchTag("ImportError", (e: Import.ImportError) =>
 *     Effect.fail([e.reason, ...(e.problems ?? []).map((p) => `  ${p.source}: ${p.reason}`)].join("\n"))
 *   ),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class ImportError extends Schema.TaggedError<ImportError>()("ImportError", {
  reason: Schema.String,
  problems: Schema.optionalKey(Schema.Array(Schema.Struct({ source: Schema.String, reason: Schema.String })))
}) {
  override get message() {
    return this.reason
  }
}
