/**
 * A run's `run.json` (`Submissions`' metadata): its Schema and limits, and reading and decoding it
 * into the run's issues.
 *
 * @internal
 */
import { Effect, Schema } from "effect"
import * as Issue from "../Issue.js"
import * as Files from "../Files.js"
import { firstProblem } from "./schemaIssues.js"
import { isBlankTeam, listNames } from "./runNames.js"

/**
 * The longest team name a `run.json` may give: every table and board shows it, and one run must not
 * be able to make them unreadable (a 1 MB name broke the renderers). Papers' team names are short.
 *
 * @since 0.2.0
 */
export const MAX_TEAM_LENGTH = 200

/**
 * The longest `description` a `run.json` may give.
 *
 * @since 0.2.0
 */
export const MAX_DESCRIPTION_LENGTH = 2000

/**
 * The optional `run.json`. Every field is optional; unknown fields are an error (they are usually
 * typos, e.g. `"primery"`).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const meta: Submissions.RunJson = { team: "ECNU", run: 1, primary: true, description: "ensemble of ..." }
 * ```
 * @since 0.1.0
 */
export const RunJson = Schema.Struct({
  team: Schema.optionalKey(
    Schema.String.check(
      Schema.isMinLength(1),
      Schema.isMaxLength(MAX_TEAM_LENGTH),
      // "   " or a zero-width space would be a team no one can see, and no one's (`teamKey`)
      Schema.makeFilter((team: string) => !isBlankTeam(team) || "a team name must show at least one visible character")
    )
  ),
  run: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  primary: Schema.optionalKey(Schema.Boolean),
  late: Schema.optionalKey(Schema.Boolean),
  corrected: Schema.optionalKey(Schema.Boolean),
  postDeadline: Schema.optionalKey(Schema.Boolean),
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(MAX_DESCRIPTION_LENGTH)))
})
/** @since 0.1.0 */
export type RunJson = typeof RunJson.Type

export const MAX_RUN_JSON_BYTES = 1024 * 1024

// ---------------------------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------------------------

const decodeRunJson = Schema.decodeUnknownResult(RunJson, { onExcessProperty: "error", reportInput: true, errors: "all" })

// A run whose run.json cannot be used is not scored: scoring it under the team, run number and
// flags of its name would guess what the run.json was there to say otherwise (another team, a run
// that is not primary, a late one), and a guessed identity must never reach a ranking.
export const NOT_SCORED = "the run was not scored, as its team, run number and flags are unknown (fix the run.json, or remove it to take them from the run's name)"

/** A run.json that cannot be read (too large, a link out of the run, unreadable), as the run's error. */
export const metadataReadIssue = (error: Files.ReadError, file: string = error.path): Issue.Issue =>
  Issue.error("bad-run-metadata", file, `${Files.detail(error)}; ${NOT_SCORED}`, {
    expected: error.reason === "too-large" ? `a run.json of at most ${Files.formatBytes(MAX_RUN_JSON_BYTES)}` : "a readable run.json inside the run"
  })

/**
 * A run holding several run.json (`entries`: their paths inside it), as the run's error: which of
 * them says who submitted the run is not ours to guess, and taking the first or the last silently
 * would score it under an identity its author may not have meant.
 */
export const severalRunJson = (run: string, kind: "folder" | "zip", entries: ReadonlyArray<string>): Issue.Issue =>
  Issue.error(
    "bad-run-metadata",
    run,
    `the ${kind} holds ${entries.length} run.json files (${listNames(entries.map((e) => JSON.stringify(e)))}), so which one describes the run is ambiguous; ${NOT_SCORED}`,
    { expected: `one run.json in the run's ${kind}`, found: `${entries.length} run.json files: ${listNames(entries)}` }
  )

/** A run.json's bytes (at most MAX_RUN_JSON_BYTES, inside `within`), or the run's error saying why not. */
export const readMetadata = (path: string, within: string | Files.Within) =>
  Files.readFile(path, { maxBytes: MAX_RUN_JSON_BYTES, within, what: "the run.json" }).pipe(
    Effect.map((bytes) => ({ bytes, issue: undefined })),
    Effect.catch((e: Files.ReadError) => Effect.succeed({ bytes: undefined, issue: metadataReadIssue(e) }))
  )

/**
 * Decode a run.json's bytes; `undefined` and an issue `bad-run-metadata` naming the file when it is
 * not valid (the run it belongs to is then not scored: `discover` and `loadRun` give it no files).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const { value, issues } = Submissions.parseRunJson(new TextEncoder().encode('{ "team": "ECNU", "run": 1, "primary": true }'), "run.json")
 * ```
 * @since 0.1.0
 */
export const parseRunJson = (bytes: Uint8Array, file: string): { readonly value: RunJson | undefined; readonly issues: ReadonlyArray<Issue.Issue> } => {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, ""))
  } catch (e) {
    return {
      value: undefined,
      issues: [Issue.error("bad-run-metadata", file, `run.json is not valid JSON (${(e as Error).message}); ${NOT_SCORED}`, { expected: "a JSON object" })]
    }
  }
  const result = decodeRunJson(json)
  if (result._tag === "Success") return { value: result.success, issues: [] }
  const { field, message } = firstProblem(result.failure)
  return {
    value: undefined,
    issues: [
      Issue.error("bad-run-metadata", file, `run.json is not valid: ${field !== undefined ? `${field}: ` : ""}${message}; ${NOT_SCORED}`, {
        ...(field !== undefined ? { field } : {}),
        expected: '{ "team": string, "run": integer, "primary": boolean, "late": boolean, "corrected": boolean, "postDeadline": boolean, "description": string }'
      })
    ]
  }
}
