/**
 * From a finished Codabench competition back to a stseval submissions folder (SPEC §2.3), so that
 * `rank`, `report` and `significance` make the paper's tables from it.
 *
 * What an organiser downloads from Codabench (codalab/codabench): in the submissions manager,
 * "Download selected submissions" gives `bulk_submissions.zip`, one zip per submission — the file
 * the participant uploaded, named `ID_<submission id>_<file name>` (pull requests #1554/#1565; the
 * newer client-side download replaces `:` `/` `\` by `_`). The zips carry neither the participant
 * nor the date: those are in the submissions table's CSV export (`SubmissionViewSet` with the CSV
 * renderer: `Owner` = the username, `Created When` = ISO 8601, `Status`, `Phase`; since pull
 * request #2126 also the submission id and the file name). Give that CSV beside the zips (or with
 * `manifest`). A zip no CSV row names falls back on its own name (`Team_runN...`).
 *
 * Each team's finished submissions become runs 1, 2, ... in submission order, written as
 * `<Team>_run<N>.zip` with `<Team>_run<N>.run.json` beside it (`team`, `run`, `primary`, `late`,
 * `postDeadline`, `description`). A submission after `deadline` is `postDeadline` (tables print a
 * dagger), or `late` when it is within the grace period `lateUntil` (tables print `*`); by default
 * each team's last submission before the deadline is its primary run (what a
 * `Force_Last` leaderboard shows, and the usual "the final submission counts" rule). Submissions
 * whose status is not `Finished` (failed, cancelled) are skipped and listed.
 *
 * @since 0.1.0
 */
import { Csv, Issue, Submissions } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"

/**
 * The most a bulk download may unpack to, counted as produced.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * const cap: number = Import.MAX_BULK_BYTES // a bulk download that unpacks to more is refused
 * ```
 * @since 0.2.0
 */
export const MAX_BULK_BYTES = 1024 * 1024 * 1024
/**
 * The most entries a bulk download may hold.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * const cap: number = Import.MAX_BULK_ENTRIES
 * ```
 * @since 0.2.0
 */
export const MAX_BULK_ENTRIES = 100_000

/**
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * // runs after the deadline marked post-deadline; each team's last run its primary
 * const options: Import.Options = { deadline: new Date("2026-11-22T23:59:00Z"), primary: "last", teams: { "user123": "ECNU" } }
 * ```
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
  /** keep only the CSV rows of this phase (its name, compared ignoring case) */
  readonly phase?: string | undefined
  /** the submissions CSV (default: the one `.csv` found in the input) */
  readonly manifest?: string | undefined
  /** Codabench username -> team name (default: the username) */
  readonly teams?: Readonly<Record<string, string>> | undefined
  /** which run of a team is primary: its last before the deadline (default), its first, or none */
  readonly primary?: "last" | "first" | "none" | undefined
}

/**
 * One imported run.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * declare const result: Import.Result
 * const late: ReadonlyArray<Import.Imported> = result.runs.filter((r) => r.postDeadline)
 * ```
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
  /** ISO 8601, when known */
  readonly submitted: string | undefined
  /** the Codabench submission id, when known */
  readonly id: string | undefined
  /** the downloaded zip's name */
  readonly source: string
  /** the run written in the submissions folder */
  readonly path: string
}

/**
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * declare const result: Import.Result
 * const skipped: ReadonlyArray<Import.Skipped> = result.skipped // entries that are no submission, and why
 * ```
 * @since 0.1.0
 */
export interface Skipped {
  readonly source: string
  readonly reason: string
}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Import } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const result: Import.Result = await Effect.runPromise(Import.importSubmissions("submissions.zip", "submissions").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export interface Result {
  readonly runs: ReadonlyArray<Imported>
  readonly skipped: ReadonlyArray<Skipped>
}

/**
 * The download cannot be imported; the reason says what is wrong.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Import } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const imported = Import.importSubmissions("submissions.zip", "submissions").pipe(
 *   Effect.catchTag("ImportError", (e: Import.ImportError) => Effect.fail(e.reason)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class ImportError extends Schema.TaggedError<ImportError>()("ImportError", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

// ---------------------------------------------------------------------------------------------
// The CSV export
// ---------------------------------------------------------------------------------------------

/** The CSV columns we read, by their normalised header (lower case, letters and digits only). */
const HEADERS = {
  id: ["id", "submissionid", "pk", "submission"],
  owner: ["owner", "username", "user", "participant", "submitter"],
  created: ["createdwhen", "createdat", "created", "date", "submittedat", "submitted", "submissiondate"],
  status: ["status"],
  phase: ["phase", "phasename"],
  filename: ["filename", "file", "submissionfile"]
} as const

type Field = keyof typeof HEADERS

interface Row {
  readonly line: number
  readonly get: (f: Field) => string | undefined
}

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "")

/**
 * The rows of the submissions export, read by `@stseval/formats`' `Csv` (RFC 4180 through
 * csv-parse; each row with the physical line it starts on, so a quoted field holding a line break
 * does not shift the lines of the rows after it). The first error (not text, not CSV) is the
 * failure, as `Issue.format` gives it: file, line, what was expected.
 */
const readManifest = (bytes: Uint8Array, file: string): { readonly rows: ReadonlyArray<Row>; readonly error: string | undefined } => {
  const csv = Csv.decode(bytes, file)
  const error = csv.issues.find((i) => i.severity === "error")
  if (error !== undefined) return { rows: [], error: Issue.format(error) }
  // a row of empty fields (`,,,`, as spreadsheets pad an export) is no submission
  const [head, ...records] = csv.records.filter((r) => r.fields.some((f) => f.trim() !== ""))
  if (head === undefined) return { rows: [], error: `${file} is empty` }
  const header = head.fields.map(normalise)
  const column = (f: Field) => header.findIndex((h) => (HEADERS[f] as ReadonlyArray<string>).includes(h))
  const at: Record<Field, number> = { id: column("id"), owner: column("owner"), created: column("created"), status: column("status"), phase: column("phase"), filename: column("filename") }
  if (at.owner < 0) return { rows: [], error: `${file}:${head.line}: no Owner column (header: ${head.fields.join(", ")})` }
  if (at.id < 0 && at.filename < 0) return { rows: [], error: `${file}:${head.line}: no submission id or file name column to match the zips with (header: ${head.fields.join(", ")})` }
  const rows = records.map((record): Row => ({
    line: record.line,
    get: (f) => {
      const v = at[f] >= 0 ? record.fields[at[f]]?.trim() : undefined
      return v === undefined || v === "" ? undefined : v
    }
  }))
  return { rows, error: undefined }
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * An instant from the CSV: ISO 8601 (`2024-07-26T11:17:05.123456Z`) or Codabench's
 * `2024-07-26 11:17`; without a zone it is UTC (the server's zone).
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * Import.parseInstant("2026-11-22T23:59:00Z") // a Date
 * Import.parseInstant("next week") // undefined
 * ```
 * @since 0.1.0
 */
export const parseInstant = (s: string): Date | undefined => {
  const m = INSTANT.exec(s.trim())
  if (m === null) return undefined
  const zone = m[5] === undefined ? "Z" : m[5].toUpperCase() === "Z" ? "Z" : m[5].includes(":") ? m[5] : `${m[5].slice(0, 3)}:${m[5].slice(3)}`
  const d = new Date(`${m[1]}T${m[2]}${m[3] ?? ":00"}${m[4] !== undefined ? m[4].slice(0, 4) : ""}${zone}`)
  return Number.isFinite(d.getTime()) ? d : undefined
}

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

interface Found {
  /** the zip's own name */
  readonly name: string
  readonly bytes: () => Effect.Effect<Uint8Array, ImportError>
}

const DOWNLOAD_NAME = /^ID_(\d+)_(.+)$/

const safeName = (team: string) => team.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "team"

/**
 * Import downloaded Codabench submissions (a folder, or `bulk_submissions.zip`) into the
 * submissions folder `out` (created; it must be empty).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Import } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * // Codabench's bulk download to a submissions folder that rank, report and significance read
 * const { runs, skipped } = await Effect.runPromise(
 *   Import.importSubmissions("submissions.zip", "submissions", { deadline: new Date("2026-11-22T23:59:00Z") }).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.1.0
 */
export const importSubmissions = (input: string, out: string, options: Options = {}): Effect.Effect<Result, ImportError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fail = (reason: string) => new ImportError({ reason })
    const info = yield* fs.stat(input).pipe(Effect.mapError(() => fail(`${input} does not exist`)))
    const zips: Array<Found> = []
    const csvs: Array<{ readonly name: string; readonly bytes: Uint8Array }> = []
    const skipped: Array<Skipped> = []
    if (info.type === "Directory") {
      for (const name of (yield* fs.readDirectory(input).pipe(Effect.mapError((e) => fail(e.message)))).slice().sort()) {
        const full = path.join(input, name)
        if (/\.zip$/i.test(name)) zips.push({ name, bytes: () => fs.readFile(full).pipe(Effect.mapError((e) => fail(e.message))) })
        else if (/\.csv$/i.test(name)) csvs.push({ name, bytes: yield* fs.readFile(full).pipe(Effect.mapError((e) => fail(e.message))) })
      }
    } else {
      const bytes = yield* fs.readFile(input).pipe(Effect.mapError((e) => fail(e.message)))
      let entries: Record<string, Uint8Array>
      try {
        // formats' bomb-safe reader: a bulk download is outside input like any run zip
        entries = Object.fromEntries(Submissions.unzipAll(bytes, { maxBytes: MAX_BULK_BYTES, maxEntries: MAX_BULK_ENTRIES }))
      } catch (e) {
        return yield* fail(`${input} is not a zip: ${(e as Error).message}`)
      }
      for (const entry of Object.keys(entries).sort()) {
        const name = entry.split(/[\\/]/).pop() ?? entry
        if (name === "" || name.startsWith(".")) continue
        if (/\.zip$/i.test(name)) zips.push({ name, bytes: () => Effect.succeed(entries[entry]) })
        else if (/\.csv$/i.test(name)) csvs.push({ name, bytes: entries[entry] })
        else if (name === "failed.txt") skipped.push({ source: name, reason: `Codabench could not download some submissions: ${new TextDecoder().decode(entries[entry]).trim()}` })
      }
    }
    if (zips.length === 0) return yield* fail(`${input} holds no submission zips (expected bulk_submissions.zip or a folder of the zips it holds)`)

    let manifest: { readonly name: string; readonly bytes: Uint8Array } | undefined
    if (options.manifest !== undefined) {
      manifest = { name: path.basename(options.manifest), bytes: yield* fs.readFile(options.manifest).pipe(Effect.mapError(() => fail(`the manifest ${options.manifest} cannot be read`))) }
    } else if (csvs.length === 1) manifest = csvs[0]
    else if (csvs.length > 1) return yield* fail(`${input} holds several CSV files (${csvs.map((c) => c.name).join(", ")}); say which is the submissions export with --manifest`)
    const parsed = manifest !== undefined ? readManifest(manifest.bytes, manifest.name) : { rows: [], error: undefined }
    if (parsed.error !== undefined) return yield* fail(parsed.error)

    interface Candidate {
      readonly found: Found
      readonly owner: string | undefined
      readonly team: string
      readonly submitted: Date | undefined
      readonly id: string | undefined
      readonly nameRun: number | undefined
    }
    const candidates: Array<Candidate> = []
    for (const found of zips) {
      const m = DOWNLOAD_NAME.exec(found.name)
      const id = m?.[1]
      const original = m?.[2] ?? found.name
      const row =
        parsed.rows.find((r) => id !== undefined && r.get("id") === id) ??
        parsed.rows.find((r) => {
          const f = r.get("filename")
          return f !== undefined && (f === original || f === found.name || f.replace(/[:/\\]/g, "_") === original)
        })
      if (row === undefined) {
        const byName = Submissions.parseRunName(original)
        if (byName === undefined) {
          skipped.push({
            source: found.name,
            reason: manifest === undefined ? "no CSV export says whose submission it is (give the submissions CSV beside the zips or with --manifest)" : `no row of ${manifest.name} names it`
          })
          continue
        }
        candidates.push({ found, owner: undefined, team: byName.team, submitted: undefined, id, nameRun: byName.run })
        continue
      }
      const status = row.get("status")
      if (status !== undefined && status.toLowerCase() !== "finished") {
        skipped.push({ source: found.name, reason: `its status is ${status}` })
        continue
      }
      const phase = row.get("phase")
      if (options.phase !== undefined && phase !== undefined && phase.toLowerCase() !== options.phase.toLowerCase()) {
        skipped.push({ source: found.name, reason: `it belongs to phase "${phase}"` })
        continue
      }
      const owner = row.get("owner")!
      const createdText = row.get("created")
      const submitted = createdText !== undefined ? parseInstant(createdText) : undefined
      if (createdText !== undefined && submitted === undefined) {
        return yield* fail(`${manifest!.name}:${row.line}: "${createdText}" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)`)
      }
      candidates.push({ found, owner, team: options.teams?.[owner] ?? owner, submitted, id: id ?? row.get("id"), nameRun: undefined })
    }

    // Submission order: by date, then by submission id, then by the run number in the name.
    const order = (a: Candidate, b: Candidate) =>
      (a.submitted?.getTime() ?? Number.MAX_SAFE_INTEGER) - (b.submitted?.getTime() ?? Number.MAX_SAFE_INTEGER) ||
      Number(a.id ?? Number.MAX_SAFE_INTEGER) - Number(b.id ?? Number.MAX_SAFE_INTEGER) ||
      (a.nameRun ?? 0) - (b.nameRun ?? 0) ||
      (a.found.name < b.found.name ? -1 : a.found.name > b.found.name ? 1 : 0)
    candidates.sort(order)
    const byTeam = new Map<string, Array<Candidate>>()
    for (const c of candidates) byTeam.set(c.team, [...(byTeam.get(c.team) ?? []), c])

    const existing = yield* fs.readDirectory(out).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    if (existing.length > 0) return yield* fail(`${out} is not empty; give a new folder to --out`)
    yield* fs.makeDirectory(out, { recursive: true }).pipe(Effect.mapError((e) => fail(e.message)))

    const runs: Array<Imported> = []
    const stems = new Set<string>()
    for (const [team, list] of [...byTeam].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const after = (c: Candidate, instant: Date | undefined) => instant !== undefined && c.submitted !== undefined && c.submitted.getTime() > instant.getTime()
      const postDeadline = (c: Candidate) => after(c, options.deadline) && (options.lateUntil === undefined || after(c, options.lateUntil))
      const late = (c: Candidate) => after(c, options.deadline) && !postDeadline(c)
      // A late run is accepted (ranked, marked); a post-deadline one is scored for the record only.
      const inTime = list.filter((c) => !postDeadline(c))
      const rule = options.primary ?? "last"
      const primary = rule === "none" ? undefined : rule === "first" ? inTime[0] : inTime[inTime.length - 1]
      let base = safeName(team)
      for (let k = 2; [...stems].some((s) => s.startsWith(`${base}_run`)); k++) base = `${safeName(team)}-${k}`
      for (const [i, c] of list.entries()) {
        const run = i + 1
        const stem = `${base}_run${run}`
        stems.add(stem)
        const bytes = yield* c.found.bytes()
        const zipPath = path.join(out, `${stem}.zip`)
        yield* fs.writeFile(zipPath, bytes).pipe(Effect.mapError((e) => fail(e.message)))
        const meta: Submissions.RunJson = {
          team,
          run,
          primary: c === primary,
          late: late(c),
          postDeadline: postDeadline(c),
          description: `Codabench submission${c.id !== undefined ? ` ${c.id}` : ""}${c.owner !== undefined ? ` by ${c.owner}` : ""}${c.submitted !== undefined ? `, ${c.submitted.toISOString()}` : ""} (${c.found.name})`
        }
        yield* fs.writeFileString(path.join(out, `${stem}${Submissions.RUN_JSON_SUFFIX}`), `${JSON.stringify(meta, null, 2)}\n`).pipe(Effect.mapError((e) => fail(e.message)))
        runs.push({
          team,
          owner: c.owner,
          run,
          primary: c === primary,
          late: late(c),
          postDeadline: postDeadline(c),
          submitted: c.submitted?.toISOString(),
          id: c.id,
          source: c.found.name,
          path: zipPath
        })
      }
    }
    // Provenance for the organiser; hidden, so that discovery does not take it for a run.
    yield* fs
      .writeFileString(
        path.join(out, ".codabench-import.json"),
        `${JSON.stringify({ input: path.basename(input), deadline: options.deadline?.toISOString() ?? null, lateUntil: options.lateUntil?.toISOString() ?? null, runs, skipped }, null, 2)}\n`
      )
      .pipe(Effect.mapError((e) => fail(e.message)))
    return { runs, skipped }
  })
