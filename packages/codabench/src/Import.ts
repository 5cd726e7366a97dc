/**
 * From a finished Codabench competition back to a stseval submissions folder (SPEC §2.3), so that
 * `rank`, `report` and `significance` make the paper's tables from it.
 *
 * What an organiser downloads from Codabench's submissions manager ("Download selected
 * submissions"), as codalab/codabench builds it:
 *
 * - **v1.23 and later** (commit c3790807, "Optimise download many"; read at c7dbc756): the server
 *   lists the files (`SubmissionViewSet.download_many` in `src/apps/api/views/submissions.py`), each
 *   named `f"{sub.id}_{sub.owner}_PhaseId{sub.phase.id}_{sub.data.created_when.strftime('%Y-%m-%d:%M-%S')}_{file}"`
 *   — the owner's username, the phase's id, the UTC day of the upload and its minute and second (no
 *   hour) — and the browser fetches them into `bulk_submissions.zip` with JSZip, replacing `:`, `/`
 *   and `\` in each name by `_` (`bulk_download` in
 *   `src/static/riot/competitions/detail/submission_manager.tag`):
 *   `7_bob_PhaseId1_2027-02-08_00-00_submission.zip`. Files it could not fetch are listed in
 *   `failed.txt`.
 * - **v1.22 and before** (pull requests #1541/#1565; read at v1.22, 162ef1e6): the server zips the
 *   files itself (`zip_generator` in `src/apps/competitions/tasks.py`), each named
 *   `"ID_" + str(submission_id) + "_" + <file>`, and writes every block `retrieve_data` reads
 *   (8 KiB at most) with `zip_file.writestr(short_name, block)`: one file is several entries of the
 *   same name, in order. They are joined here, in the order of the zip's directory.
 *
 * `<file>` is the stored file's name (`data.data_file.name.split('/')[-1]`: the uploaded name, cut
 * to 35 characters before its extension by `PathWrapper` in `src/utils/data.py`).
 *
 * The submissions table's CSV export (`SubmissionViewSet` with `rest_framework_csv`'s
 * `CSVRenderer`, columns from `get_renderer_context`) says whose each submission is and when it was
 * made: since v1.23 (commit adba1107) `Submission ID, File Name, Owner, Created When, Status,
 * Phase`; up to v1.22 only `Owner, Created When, Status, Phase`, in the table's order, newest first
 * (`queryset = Submission.objects.all().order_by('-pk')`). `Created When` is DRF's ISO 8601
 * (`2027-02-08T13:00:12.345678Z`). With ids, rows are matched to the zips by id (and the owner and
 * file name checked); without, by position — which needs the CSV of exactly the submissions
 * downloaded, and its dates newest first. Without a CSV, a v1.23+ download still names the owner,
 * the phase and the day; its status is unknown (a submission Codabench failed is imported, and
 * `rank` fails it again), and a submission made on the deadline's day is placed before or after the
 * deadline only when every hour of that day agrees (else give the CSV).
 *
 * Each team's finished submissions become runs 1, 2, ... in submission order (by submission id,
 * which Codabench gives in creation order), written as `<Team>_run<N>.zip` with
 * `<Team>_run<N>.run.json` beside it (`team`, `run`, `primary`, `late`, `postDeadline`,
 * `description`). A submission after `deadline` is `postDeadline` (tables print a dagger), or `late`
 * when it is within the grace period `lateUntil` (tables print `*`); by default each team's last
 * submission before the deadline is its primary run.
 *
 * Nothing is written unless every submission of the download is imported or excluded by a stated
 * rule (a status other than Finished, another phase than `phase`); any other — an entry that climbs
 * out of the zip, a zip no CSV row names, an owner that is no valid team name, a date that is not
 * one — fails the import with each one listed (`ImportError.problems`), and so does an import of
 * no run at all.
 *
 * @since 0.1.0
 */
import { Csv, Files, Issue, Submissions } from "@stseval/formats"
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

/** The submissions CSV export is a line per submission; anything near this is not one. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

/**
 * How `importSubmissions` reads a download: the deadline and grace period, the phase, the CSV
 * export, the team of each username, the primary run.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * const options: Import.Options = {
 *   deadline: new Date("2027-01-31T23:59:00Z"),
 *   lateUntil: new Date("2027-02-01T23:59:00Z"), // a day's grace: late (*), still ranked; after it, post-deadline
 *   phase: "Test",
 *   manifest: "submissions.csv",
 *   teams: { bob: "ECNU" }
 * }
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
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * declare const result: Import.Result
 * const lines = result.skipped.map((s: Import.Skipped) => `${s.source}: ${s.reason}`) // e.g. "its status is Failed"
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

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/**
 * What a downloaded entry's name says. v1.23+: `{id}_{owner}_PhaseId{phase}_{YYYY-MM-DD}:{MM}-{SS}_{file}`
 * with `:` `/` `\` turned into `_` by the browser; the owner is a Django username (`[\w.@+-]`, so it
 * may hold `_`): it runs to the first `_PhaseId<digits>_<date>_` after the id, or, given `owner`
 * (the CSV's Owner of that id), is that owner when the name starts with it: a username may hold
 * those marks itself (`bob_PhaseId1_2027-02-08_00-12_x`).
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * const name: Import.DownloadName = Import.parseDownloadName("ID_7_submission.zip") // { _tag: "v1.22-", id: "7", file: "submission.zip" }
 * const owner = name._tag === "v1.23+" ? name.owner : undefined // only a v1.23+ name says whose it is
 * ```
 * @since 0.3.0
 */
export type DownloadName =
  | {
      readonly _tag: "v1.23+"
      readonly id: string
      readonly owner: string
      readonly phaseId: string
      readonly day: string
      readonly minute: number
      readonly second: number
      readonly file: string
    }
  | { readonly _tag: "v1.22-"; readonly id: string; readonly file: string }
  | { readonly _tag: "other"; readonly file: string }

const V123 = /^(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2})[_:](\d{2})-(\d{2})_(.*)$/s
const V122 = /^ID_(\d+)_(.*)$/s

/** `{id}_{owner}_PhaseId...` read with `owner` known (V123's groups), or null when the name does not start so. */
const ownerLayout = (name: string, owner: string): RegExpExecArray | null => {
  const id = /^\d+_/.exec(name)?.[0]
  if (id === undefined || !name.startsWith(`_${owner}_`, id.length - 1)) return null
  const rest = /^PhaseId(\d+)_(\d{4}-\d{2}-\d{2})[_:](\d{2})-(\d{2})_(.*)$/s.exec(name.slice(id.length + owner.length + 1))
  if (rest === null) return null
  return Object.assign([name, id.slice(0, -1), owner, ...rest.slice(1)], { index: 0, input: name, groups: undefined }) as RegExpExecArray
}

/**
 * Read an entry's name as Codabench wrote it (see the module's doc).
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * Import.parseDownloadName("7_bob_PhaseId1_2027-02-08_00-12_submission.zip")
 * // { _tag: "v1.23+", id: "7", owner: "bob", phaseId: "1", day: "2027-02-08", minute: 0, second: 12, file: "submission.zip" }
 * Import.parseDownloadName("ID_7_submission.zip") // { _tag: "v1.22-", id: "7", file: "submission.zip" }
 * Import.parseDownloadName("ECNU_run1.zip") // { _tag: "other", file: "ECNU_run1.zip" }
 * ```
 * @since 0.3.0
 */
export const parseDownloadName = (name: string, owner?: string): DownloadName => {
  // A username may itself hold "_PhaseId1_2027-02-08_00-12_" (Django allows [\w.@+-]), and then
  // the name has two such marks: read at the owner the CSV names, when it names one that fits.
  const m = (owner !== undefined ? ownerLayout(name, owner) : null) ?? V123.exec(name)
  if (m !== null && calendarDay(m[4])) {
    return { _tag: "v1.23+", id: m[1], owner: m[2], phaseId: m[3], day: m[4], minute: Number(m[5]), second: Number(m[6]), file: m[7] }
  }
  const old = V122.exec(name)
  if (old !== null) return { _tag: "v1.22-", id: old[1], file: old[2] }
  return { _tag: "other", file: name }
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

const calendarDay = (day: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (m === null) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * An instant: ISO 8601 (`2024-07-26T11:17:05.123456Z`, DRF's form in the CSV), Codabench's
 * `2024-07-26 11:17`, or a day (`2024-07-26`, its start); without a zone it is UTC (the server's
 * zone). Anything else — `12`, `1`, a day that is not in the calendar (`2014-02-30`), an hour 24 —
 * is `undefined`, never another date.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * Import.parseInstant("2027-02-08T13:00:12.345678Z") // 2027-02-08T13:00:12.345Z
 * Import.parseInstant("2027-02-08 13:00") // 2027-02-08T13:00:00.000Z (no zone: UTC)
 * Import.parseInstant("2014-02-30") // undefined: not in the calendar
 * ```
 * @since 0.1.0
 */
export const parseInstant = (s: string): Date | undefined => {
  const m = INSTANT.exec(s.trim())
  if (m === null || !calendarDay(m[1])) return undefined
  const [hour, minute, second] = [Number(m[2] ?? 0), Number(m[3] ?? 0), Number(m[4] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const zone = m[6] === undefined || m[6].toUpperCase() === "Z" ? "Z" : m[6].includes(":") ? m[6] : `${m[6].slice(0, 3)}:${m[6].slice(3)}`
  if (zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return undefined
  const fraction = m[5] !== undefined ? m[5].slice(0, 4) : ""
  const d = new Date(`${m[1]}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:${String(second).padStart(2, "0")}${fraction}${zone}`)
  return Number.isFinite(d.getTime()) ? d : undefined
}

/** When a submission was made: the exact instant (CSV), or a UTC day with the minute and second but not the hour (a v1.23+ name). */
type When = { readonly _tag: "exact"; readonly at: Date } | { readonly _tag: "day"; readonly day: string; readonly minute: number; readonly second: number }

/** Whether `when` is after `instant`: `undefined` when the unknown hour decides it. */
const isAfter = (when: When | undefined, instant: Date | undefined): boolean | undefined => {
  if (instant === undefined || when === undefined) return false
  if (when._tag === "exact") return when.at.getTime() > instant.getTime()
  const at = (hour: number) => Date.parse(`${when.day}T${String(hour).padStart(2, "0")}:${String(when.minute).padStart(2, "0")}:${String(when.second).padStart(2, "0")}Z`)
  const [earliest, latest] = [at(0), at(23)]
  return earliest > instant.getTime() ? true : latest <= instant.getTime() ? false : undefined
}

// ---------------------------------------------------------------------------------------------
// The CSV export
// ---------------------------------------------------------------------------------------------

/** The CSV columns we read, by their normalised header (lower case, letters and digits only). */
const HEADERS = {
  id: ["submissionid", "id", "pk"],
  owner: ["owner", "username"],
  created: ["createdwhen", "createdat", "created"],
  status: ["status"],
  phase: ["phase", "phasename"],
  filename: ["filename"]
} as const

type Field = keyof typeof HEADERS

interface Row {
  readonly line: number
  readonly get: (f: Field) => string | undefined
}

interface Manifest {
  readonly name: string
  readonly rows: ReadonlyArray<Row>
  readonly hasId: boolean
}

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "")

/**
 * The rows of the submissions export, read by `@stseval/formats`' `Csv` (RFC 4180 through
 * csv-parse; each row with the physical line it starts on). The first error (not text, not CSV, no
 * Owner column) is the failure, as `Issue.format` gives it: file, line, what was expected.
 */
const readManifest = (bytes: Uint8Array, file: string): Manifest | { readonly error: string } => {
  const csv = Csv.decode(bytes, file)
  const error = csv.issues.find((i) => i.severity === "error")
  if (error !== undefined) return { error: Issue.format(error) }
  // a row of empty fields (`,,,`, as spreadsheets pad an export) is no submission
  const [head, ...records] = csv.records.filter((r) => r.fields.some((f) => f.trim() !== ""))
  if (head === undefined) return { error: `${file} is empty` }
  const header = head.fields.map(normalise)
  const column = (f: Field) => header.findIndex((h) => (HEADERS[f] as ReadonlyArray<string>).includes(h))
  const at: Record<Field, number> = { id: column("id"), owner: column("owner"), created: column("created"), status: column("status"), phase: column("phase"), filename: column("filename") }
  if (at.owner < 0) return { error: `${file}:${head.line}: no Owner column (header: ${head.fields.join(", ")}; expected Codabench's export: Submission ID, File Name, Owner, Created When, Status, Phase)` }
  const rows = records.map((record): Row => ({
    line: record.line,
    get: (f) => {
      const v = at[f] >= 0 ? record.fields[at[f]]?.trim() : undefined
      return v === undefined || v === "" ? undefined : v
    }
  }))
  return { name: file, rows, hasId: at.id >= 0 }
}

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

/** A submission file of the download, its entries joined. */
interface Entry {
  /** the entry's name in the download */
  readonly source: string
  readonly name: DownloadName
  readonly bytes: () => Effect.Effect<Uint8Array, string>
  /** how many zip entries of this name were joined (v1.22 blocks) */
  readonly parts: number
}

/** A submission matched to what says whose it is. */
interface Candidate {
  readonly entry: Entry
  readonly owner: string | undefined
  readonly team: string
  readonly when: When | undefined
  readonly id: string | undefined
  readonly phase: string | undefined
  readonly nameRun: number | undefined
}

/** A file-system-safe stem for a team, at most 100 characters (the written names stay far below NAME_MAX). */
const safeName = (team: string): string => {
  const cleaned = team.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "team"
  return cleaned.length <= 100 ? cleaned : cleaned.slice(0, 100).replace(/[-.]+$/, "")
}

const PK_LOCAL = [0x50, 0x4b, 0x03, 0x04]
const PK_EMPTY = [0x50, 0x4b, 0x05, 0x06]
const looksLikeZip = (b: Uint8Array) => b.length >= 4 && (PK_LOCAL.every((x, i) => b[i] === x) || PK_EMPTY.every((x, i) => b[i] === x))

const teamOf = (teams: Options["teams"], owner: string): string | undefined => {
  if (teams === undefined) return undefined
  if (teams instanceof Map) return (teams as ReadonlyMap<string, string>).get(owner)
  const record = teams as Readonly<Record<string, string>>
  return Object.hasOwn(record, owner) ? record[owner] : undefined
}

/** A team name as run.json takes it (`Submissions.RunJson`): not blank, at most `MAX_TEAM_LENGTH` characters, no control characters. */
const teamProblem = (team: string): string | undefined =>
  team.trim() === ""
    ? "is blank"
    : team.length > Submissions.MAX_TEAM_LENGTH
      ? `has ${team.length} characters (a team name has at most ${Submissions.MAX_TEAM_LENGTH})`
      : // eslint-disable-next-line no-control-regex
        /[\u0000-\u001f\u007f]/.test(team)
        ? "holds a control character"
        : undefined

const short = (s: string, n = 80) => (s.length <= n ? s : `${s.slice(0, n - 3)}...`)

/**
 * Import downloaded Codabench submissions (`bulk_submissions.zip`, or a folder of the zips it
 * holds) into the submissions folder `out` (created; it must be empty). See the module's doc.
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
    const problems: Array<Skipped> = []
    const skipped: Array<Skipped> = []
    const notes: Array<string> = []
    const problem = (source: string, reason: string) => problems.push({ source, reason })

    // 1. The entries of the download, in order.
    const info = yield* fs.stat(input).pipe(Effect.mapError(() => fail(`${input} does not exist`)))
    const entries: Array<{ readonly name: string; readonly bytes: () => Effect.Effect<Uint8Array, string> }> = []
    const csvs: Array<{ readonly name: string; readonly bytes: Uint8Array }> = []
    let failedTxt: string | undefined
    const take = (name: string, read: () => Effect.Effect<Uint8Array, string>) =>
      Effect.gen(function* () {
        const base = name.split(/[\\/]/).pop() ?? name
        if (base.startsWith(".") || name.split(/[\\/]/).includes("__MACOSX")) return skipped.push({ source: name, reason: "a hidden file, not a submission" })
        if (/\.csv$/i.test(base)) return csvs.push({ name: base, bytes: yield* read().pipe(Effect.mapError(fail)) })
        if (base === "failed.txt") return (failedTxt = new TextDecoder().decode(yield* read().pipe(Effect.mapError(fail))))
        if (!/\.zip$/i.test(base)) return problem(name, "not a submission zip (Codabench's downloads hold only the submitted zips, the CSV export and failed.txt)")
        entries.push({ name, bytes: read })
      })
    if (info.type === "Directory") {
      for (const name of (yield* fs.readDirectory(input).pipe(Effect.mapError((e) => fail(e.message)))).slice().sort()) {
        const full = path.join(input, name)
        const kind = yield* fs.stat(full).pipe(Effect.map((s) => s.type), Effect.orElseSucceed(() => "Unknown" as const))
        if (kind === "Directory") {
          problem(name, "a folder: the download's submissions are zips at its top level")
          continue
        }
        // formats' reader (regular files only, capped): a FIFO or a device among them is refused
        // before anything is written, never read forever
        const what = /\.zip$/i.test(name) ? "the submission zip" : "a file of the download"
        yield* Files.inspect(full, { what }).pipe(Effect.mapError((e) => fail(e.message)))
        yield* take(name, () => Files.readFile(full, { what, maxBytes: MAX_BULK_BYTES }).pipe(Effect.mapError((e) => e.message)))
      }
    } else {
      const bytes = yield* Files.readFile(input, { what: "the download", maxBytes: MAX_BULK_BYTES }).pipe(Effect.mapError((e) => fail(e.message)))
      let members: ReadonlyArray<Submissions.ZipMember>
      try {
        // formats' bomb-safe reader, in order and with duplicate names: a bulk download is outside input like any run zip
        members = Submissions.unzipEntries(bytes, { maxBytes: MAX_BULK_BYTES, maxEntries: MAX_BULK_ENTRIES })
      } catch (e) {
        return yield* fail(`${input} is not a zip: ${(e as Error).message}`)
      }
      for (const m of members) {
        if (m.unsafe) problem(m.name, "its name is absolute or climbs out of the zip with \"..\": not unpacked")
        else yield* take(m.name, () => Effect.succeed(m.bytes!))
      }
    }

    // 2. Entries of one name: Codabench up to v1.22 wrote each block of a file as an entry (joined in order).
    const byName = new Map<string, Array<(typeof entries)[number]>>()
    for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e])
    const files: Array<Entry> = []
    for (const [name, list] of byName) {
      const parsed = parseDownloadName(name.split(/[\\/]/).pop() ?? name)
      if (list.length > 1 && parsed._tag !== "v1.22-") {
        problem(name, `the download holds ${list.length} entries of this name, and only Codabench up to v1.22 (ID_<id>_<file>) writes a file as several entries`)
        continue
      }
      const bytes = () =>
        Effect.gen(function* () {
          const parts: Array<Uint8Array> = []
          for (const part of list) parts.push(yield* part.bytes())
          return new Uint8Array(Buffer.concat(parts))
        })
      files.push({ source: name, name: parsed, bytes, parts: list.length })
    }
    if (failedTxt !== undefined) {
      // The browser's note on what it could not fetch: `${file.name} (${err.message})` per line.
      for (const line of failedTxt.split(/\r?\n/).slice(1).filter((l) => l.trim() !== "")) problem(line.replace(/ \([^()]*\)$/, ""), `Codabench could not download it (failed.txt: ${short(line, 200)})`)
    }
    if (files.length === 0 && problems.length === 0) return yield* fail(`${input} holds no submission zips (expected bulk_submissions.zip or a folder of the zips it holds)`)
    const kinds = new Set(files.map((f) => f.name._tag))
    const download: Result["download"] = kinds.has("v1.23+") ? "v1.23+" : kinds.has("v1.22-") ? "v1.22-" : "other"

    // 3. The CSV export.
    let manifestFile: { readonly name: string; readonly bytes: Uint8Array } | undefined
    if (options.manifest !== undefined) {
      const read = Files.readFile(options.manifest, { what: "the manifest", maxBytes: MAX_MANIFEST_BYTES })
      manifestFile = { name: path.basename(options.manifest), bytes: yield* read.pipe(Effect.mapError((e) => fail(`the manifest ${e.message}`))) }
    } else if (csvs.length === 1) manifestFile = csvs[0]
    else if (csvs.length > 1) return yield* fail(`${input} holds several CSV files (${csvs.map((c) => c.name).join(", ")}); say which is the submissions export with --manifest`)
    const manifest = manifestFile !== undefined ? readManifest(manifestFile.bytes, manifestFile.name) : undefined
    if (manifest !== undefined && "error" in manifest) return yield* fail(manifest.error)
    if (manifest === undefined) {
      notes.push(
        download === "v1.23+"
          ? "no CSV export: owners, phases and days come from the names; whether a submission failed on Codabench is unknown (a failed one is imported, and rank fails it again)"
          : "no CSV export: only zips named Team_runN can be imported"
      )
    }

    // 4. Each file matched to its CSV row (by id; without ids, by position).
    const rowOf = new Map<Entry, Row>()
    if (manifest !== undefined && manifest.hasId) {
      const byId = new Map<string, Row>()
      for (const r of manifest.rows) {
        const id = r.get("id")
        if (id === undefined) continue
        if (byId.has(id)) problem(`${manifest.name}:${r.line}`, `submission id ${id} is on two rows (${byId.get(id)!.line} and ${r.line})`)
        else byId.set(id, r)
      }
      for (const f of files) {
        const id = f.name._tag === "other" ? undefined : f.name.id
        const row = id !== undefined ? byId.get(id) : undefined
        if (row !== undefined) rowOf.set(f, row)
      }
    } else if (manifest !== undefined) {
      // Up to v1.22 the CSV has no id: its rows are the table's, newest first (order_by('-pk')), so
      // the n-th row is the n-th largest id of the same selection.
      const withIds = files.filter((f) => f.name._tag !== "other").sort((a, b) => Number(idOf(b)) - Number(idOf(a)))
      const dates = manifest.rows.map((r) => parseInstant(r.get("created") ?? ""))
      const newestFirst = dates.every((d, i) => i === 0 || d === undefined || dates[i - 1] === undefined || d.getTime() <= dates[i - 1]!.getTime())
      if (withIds.length !== manifest.rows.length || !newestFirst) {
        const why = !newestFirst
          ? `its rows are not newest first (row ${dates.findIndex((d, i) => i > 0 && d !== undefined && dates[i - 1] !== undefined && d.getTime() > dates[i - 1]!.getTime()) + 1} is newer than the one above it), as Codabench exports them`
          : `it has ${manifest.rows.length} row${manifest.rows.length === 1 ? "" : "s"} for ${withIds.length} zip${withIds.length === 1 ? "" : "s"}`
        return yield* new ImportError({
          reason: `${manifest.name} has no submission ids (Codabench up to v1.22), so its rows are matched to the zips by position, which needs the CSV of exactly the submissions downloaded; ${why}. Export the CSV with the same selection (or use Codabench v1.23 or later, whose CSV has ids).`,
          problems: withIds.map((f) => ({ source: f.source, reason: "not matched to a CSV row" }))
        })
      }
      withIds.forEach((f, i) => rowOf.set(f, manifest.rows[i]))
      notes.push(`${manifest.name} has no submission ids: rows matched to the zips by position (newest first)`)
    }

    // 5. Who, when, which phase, and whether it is imported.
    const candidates: Array<Candidate> = []
    for (const f of files) {
      const row = rowOf.get(f)
      const csvOwnerHint = row?.get("owner")
      // a username holding the name's own marks is read at the owner the CSV names (see parseDownloadName)
      const n = f.name._tag === "v1.23+" && csvOwnerHint !== undefined && csvOwnerHint !== f.name.owner ? parseDownloadName(f.source.split(/[\\/]/).pop() ?? f.source, csvOwnerHint) : f.name
      if (manifest !== undefined && row === undefined) {
        problem(f.source, n._tag === "other" ? `not named as Codabench names downloads, and no row of ${manifest.name} names it` : `no row of ${manifest.name} has submission id ${n.id}`)
        continue
      }
      if (row !== undefined) {
        // The row and the name must agree where both say something.
        const csvFile = row.get("filename")
        if (csvFile !== undefined && n._tag !== "other" && csvFile.replace(/[:/\\]/g, "_") !== n.file) {
          problem(f.source, `${manifest!.name}:${row.line} names the file "${short(csvFile)}", the download "${short(n.file)}"`)
          continue
        }
        const csvOwner = row.get("owner")
        if (n._tag === "v1.23+" && csvOwner !== undefined && csvOwner !== n.owner) {
          problem(f.source, `${manifest!.name}:${row.line} says its owner is "${short(csvOwner)}", the download's name "${short(n.owner)}"`)
          continue
        }
        const status = row.get("status")
        if (status !== undefined && status.toLowerCase() !== "finished") {
          skipped.push({ source: f.source, reason: `its status is ${status}` })
          continue
        }
      }
      const phase = row?.get("phase") ?? (n._tag === "v1.23+" ? `PhaseId${n.phaseId}` : undefined)
      if (options.phase !== undefined) {
        const wanted = options.phase.toLowerCase()
        const matches =
          (row?.get("phase") !== undefined && row.get("phase")!.toLowerCase() === wanted) ||
          (n._tag === "v1.23+" && (wanted === n.phaseId || wanted === `phaseid${n.phaseId}`))
        if (!matches) {
          if (phase === undefined) problem(f.source, `its phase is unknown (no CSV row, no phase in its name), so it cannot be kept to phase "${options.phase}"`)
          else skipped.push({ source: f.source, reason: `it belongs to phase "${phase}"` })
          continue
        }
      }
      let when: When | undefined
      const createdText = row?.get("created")
      if (createdText !== undefined) {
        const at = parseInstant(createdText)
        if (at === undefined) {
          problem(f.source, `${manifest!.name}:${row!.line}: "${short(createdText)}" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)`)
          continue
        }
        when = { _tag: "exact", at }
      } else if (n._tag === "v1.23+") when = { _tag: "day", day: n.day, minute: n.minute, second: n.second }
      const owner = row?.get("owner") ?? (n._tag === "v1.23+" ? n.owner : undefined)
      let team: string
      let nameRun: number | undefined
      if (owner !== undefined) {
        team = teamOf(options.teams, owner) ?? owner
        const bad = teamProblem(team)
        if (bad !== undefined) {
          problem(f.source, `the team name "${short(team)}" (${teamOf(options.teams, owner) !== undefined ? "--teams" : "the Codabench username"}) ${bad}; map the username to a team name with --teams`)
          continue
        }
      } else {
        const byName = Submissions.parseRunName(n.file)
        if (byName === undefined) {
          problem(f.source, "no CSV export says whose submission it is (give the submissions CSV beside the zips or with --manifest)")
          continue
        }
        team = byName.team
        nameRun = byName.run
      }
      candidates.push({ entry: f, owner, team, when, id: n._tag === "other" ? undefined : n.id, phase, nameRun })
    }
    if (options.phase === undefined) {
      const phases = [...new Set(candidates.map((c) => c.phase).filter((p) => p !== undefined))]
      if (phases.length > 1) {
        return yield* new ImportError({
          reason: `the download holds submissions of ${phases.length} phases (${phases.map((p) => `"${p}"`).join(", ")}); say which to import with --phase`,
          problems
        })
      }
    }

    // 6. Order, run numbers, deadline, primary.
    const order = (a: Candidate, b: Candidate) =>
      (a.id !== undefined && b.id !== undefined ? Number(a.id) - Number(b.id) : 0) ||
      (a.when?._tag === "exact" && b.when?._tag === "exact" ? a.when.at.getTime() - b.when.at.getTime() : 0) ||
      (a.nameRun ?? 0) - (b.nameRun ?? 0) ||
      (a.entry.source < b.entry.source ? -1 : a.entry.source > b.entry.source ? 1 : 0)
    candidates.sort(order)
    const byTeam = new Map<string, Array<Candidate>>()
    for (const c of candidates) byTeam.set(c.team, [...(byTeam.get(c.team) ?? []), c])

    interface Planned {
      readonly candidate: Candidate
      readonly stem: string
      readonly meta: Submissions.RunJson
      readonly imported: Omit<Imported, "path">
    }
    const planned: Array<Planned> = []
    const bases = new Set<string>()
    for (const [team, list] of [...byTeam].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const flags = new Map<Candidate, { late: boolean; postDeadline: boolean }>()
      let undecided = false
      for (const c of list) {
        const afterDeadline = isAfter(c.when, options.deadline)
        const afterGrace = options.lateUntil === undefined ? afterDeadline : isAfter(c.when, options.lateUntil)
        if (afterDeadline === undefined || (afterDeadline && afterGrace === undefined)) {
          const w = c.when as Extract<When, { _tag: "day" }>
          problem(
            c.entry.source,
            `made on ${w.day} at ??:${String(w.minute).padStart(2, "0")}:${String(w.second).padStart(2, "0")} UTC (the name gives no hour): it cannot be told whether it came after the deadline; give the submissions CSV`
          )
          undecided = true
          continue
        }
        flags.set(c, { late: afterDeadline && !afterGrace, postDeadline: afterDeadline && afterGrace === true })
      }
      if (undecided) continue
      // A late run is accepted (ranked, marked); a post-deadline one is scored for the record only.
      const inTime = list.filter((c) => !flags.get(c)!.postDeadline)
      const rule = options.primary ?? "last"
      const primary = rule === "none" ? undefined : rule === "first" ? inTime[0] : inTime[inTime.length - 1]
      let base = safeName(team)
      for (let k = 2; bases.has(base.toLowerCase()); k++) base = `${safeName(team)}-${k}`
      bases.add(base.toLowerCase())
      for (const [i, c] of list.entries()) {
        const run = i + 1
        const stem = `${base}_run${run}`
        const { late, postDeadline } = flags.get(c)!
        const submitted = c.when?._tag === "exact" ? c.when.at.toISOString() : undefined
        const submittedDay = c.when?._tag === "day" ? c.when.day : undefined
        const description = short(
          `Codabench submission${c.id !== undefined ? ` ${c.id}` : ""}${c.owner !== undefined ? ` by ${c.owner}` : ""}${submitted !== undefined ? `, ${submitted}` : submittedDay !== undefined ? `, ${submittedDay}` : ""} (${c.entry.source})`,
          Submissions.MAX_DESCRIPTION_LENGTH
        )
        const meta: Submissions.RunJson = { team, run, primary: c === primary, late, postDeadline, description }
        // The run.json we write must be one `rank` reads back (the same Schema).
        const checked = Submissions.parseRunJson(new TextEncoder().encode(JSON.stringify(meta)), `${stem}${Submissions.RUN_JSON_SUFFIX}`)
        if (checked.value === undefined) {
          problem(c.entry.source, checked.issues.map((i) => i.message).join("; "))
          continue
        }
        planned.push({
          candidate: c,
          stem,
          meta,
          imported: { team, owner: c.owner, run, primary: c === primary, late, postDeadline, submitted, submittedDay, id: c.id, phase: c.phase, source: c.entry.source }
        })
      }
    }

    // 7. Every submission's bytes, checked to be a zip (a v1.22 download's blocks joined).
    const contents = new Map<Planned, Uint8Array>()
    for (const p of planned) {
      const read = yield* p.candidate.entry.bytes().pipe(Effect.result)
      if (read._tag === "Failure") {
        problem(p.candidate.entry.source, read.failure)
        continue
      }
      if (!looksLikeZip(read.success)) {
        problem(p.candidate.entry.source, `it is not a zip${p.candidate.entry.parts > 1 ? ` (its ${p.candidate.entry.parts} entries joined)` : ""}: Codabench stores submissions as zips`)
        continue
      }
      contents.set(p, read.success)
    }

    if (problems.length > 0) {
      return yield* new ImportError({
        reason: `${problems.length} submission${problems.length === 1 ? "" : "s"} of ${input} cannot be imported; nothing was written`,
        problems
      })
    }
    if (planned.length === 0) {
      return yield* new ImportError({
        reason: `no submission of ${input} was imported${skipped.length > 0 ? " (each was excluded, see the list)" : ""}; nothing was written`,
        problems: skipped
      })
    }

    // 8. Written into a fresh folder beside `out`, then moved into place: all or nothing.
    const target = path.resolve(out)
    const existing = yield* fs.readDirectory(target).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    if (existing.length > 0) return yield* fail(`${out} is not empty; give a new folder to --out`)
    const runs: Array<Imported> = []
    // all or nothing, also when stopped half-way (Ctrl-C): formats' Files.writeFolder
    yield* Files.writeFolder(target, (staging) =>
      Effect.gen(function* () {
        for (const p of planned) {
          yield* fs.writeFile(path.join(staging, `${p.stem}.zip`), contents.get(p)!)
          yield* fs.writeFileString(path.join(staging, `${p.stem}${Submissions.RUN_JSON_SUFFIX}`), `${JSON.stringify(p.meta, null, 2)}\n`)
          runs.push({ ...p.imported, path: path.join(target, `${p.stem}.zip`) })
        }
        // Provenance for the organiser; hidden, so that discovery does not take it for a run.
        yield* fs.writeFileString(
          path.join(staging, ".codabench-import.json"),
          `${JSON.stringify({ input: path.basename(input), download, deadline: options.deadline?.toISOString() ?? null, lateUntil: options.lateUntil?.toISOString() ?? null, runs, skipped, notes }, null, 2)}\n`
        )
      })
    ).pipe(Effect.mapError((e) => fail(`${out} cannot be written: ${Files.describe(e)}`)))
    return { runs, skipped, download, notes }
  })

const idOf = (f: Entry): string => (f.name._tag === "other" ? "0" : f.name.id)
