/**
 * What Codabench's own code makes of submissions, re-stated from codalab/codabench so that the
 * tests build exactly what an organiser downloads, and order a leaderboard as Codabench does:
 *
 * - the stored file name: `PathWrapper.__call__` (`src/utils/data.py`, c7dbc756) keeps the first 35
 *   characters of the uploaded name before its extension, then Django's `Storage.get_valid_name`
 *   (`django.utils.text.get_valid_filename`: strip, spaces to `_`, drop what is not `[-\w.]`);
 * - the bulk download of v1.23 and later: `SubmissionViewSet.download_many`
 *   (`src/apps/api/views/submissions.py`, c3790807, as at c7dbc756) names each file
 *   `f"{sub.id}_{sub.owner}_PhaseId{sub.phase.id}_{sub.data.created_when.strftime('%Y-%m-%d:%M-%S')}_{file_path}"`
 *   and the browser's `bulk_download` (`src/static/riot/competitions/detail/submission_manager.tag`)
 *   stores it in `bulk_submissions.zip` as `file.name.replace(/[:/\\]/g, "_")` (JSZip; here fflate:
 *   the container differs, the names and bytes do not), with `failed.txt` for what it could not fetch;
 * - the bulk download of v1.22 and before: `zip_generator` (`src/apps/competitions/tasks.py`, v1.22
 *   162ef1e6) writes `"ID_" + str(submission_id) + '_' + file_name`, one `writestr` (ZIP_DEFLATED)
 *   per block `retrieve_data` yields (`fp.read(1024 * 8)`): one entry per 8 KiB, all of one name;
 * - the CSV export: `SubmissionViewSet` with `rest_framework_csv.renderers.CSVRenderer`
 *   (`csv.writer`, the excel dialect: CRLF, minimal quoting), header from `get_renderer_context`
 *   (v1.23+, adba1107: Submission ID, File Name, Owner, Created When, Status, Phase; v1.22: Owner,
 *   Created When, Status, Phase), rows in the queryset's order `order_by('-pk')`, `created_when` as
 *   DRF's `DateTimeField` writes it (`isoformat()`, `+00:00` as `Z`);
 * - the leaderboard's order: `LeaderboardPhaseSerializer.get_submissions`
 *   (`src/apps/api/serializers/leaderboards.py`, c7dbc756) orders the phase's leaderboard
 *   submissions by `primary_col` (`Sum` of the primary column's score: NULL without one), `-` for a
 *   `desc` column, then every other visible column by index with its own sorting, then
 *   `created_when`; PostgreSQL sorts NULLs as larger than any value: first in a descending order,
 *   last in an ascending one. A failed submission gets no scores and is never put on the leaderboard
 *   (`compute_worker.py` `run_wrapper`: no `push_scores` after a non-zero exit;
 *   `upload_submission_scores` puts a submission on the leaderboard).
 */
import { Zip, ZipDeflate, zipSync } from "fflate"

/** One submission as Codabench holds it. */
export interface Submission {
  readonly id: number
  readonly owner: string
  readonly phaseId: number
  readonly phase: string
  /** `created_when` of the submission (and, a moment before, of its data) */
  readonly created: Date
  readonly status: "Finished" | "Failed" | "Cancelled"
  /** the name of the file the participant uploaded */
  readonly uploaded: string
  readonly bytes: Uint8Array
}

/** `os.path.splitext`: the extension from the last dot, a leading dot not counted. */
const splitext = (name: string): readonly [string, string] => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 || name.slice(0, dot).replace(/^\.+/, "") === "" ? [name, ""] : [name.slice(0, dot), name.slice(dot)]
}

/** The stored file's name: `PathWrapper` (35 characters before the extension), then `get_valid_filename`. */
export const storedFileName = (uploaded: string): string => {
  const [stem, ext] = splitext(uploaded)
  const cut = `${stem.slice(0, 35)}${ext}`
  return cut.trim().replace(/ /g, "_").replace(/[^-\p{L}\p{N}_.]/gu, "")
}

const two = (n: number) => String(n).padStart(2, "0")

/** `created_when.strftime('%Y-%m-%d:%M-%S')`, UTC (`TIME_ZONE = 'UTC'`, `USE_TZ = True`). */
const strftime = (d: Date) => `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}:${two(d.getUTCMinutes())}-${two(d.getUTCSeconds())}`

/** The name `download_many` gives a submission (before the browser's substitution). */
export const serverName = (s: Submission): string => `${s.id}_${s.owner}_PhaseId${s.phaseId}_${strftime(s.created)}_${storedFileName(s.uploaded)}`

/** `bulk_submissions.zip` of v1.23 and later; `failed`: submissions the browser could not fetch. */
export const bulkDownloadV123 = (selected: ReadonlyArray<Submission>, failed: ReadonlyArray<{ readonly submission: Submission; readonly error: string }> = []): Uint8Array => {
  const files: Record<string, Uint8Array> = {}
  for (const s of selected) files[serverName(s).replace(/[:/\\]/g, "_")] = s.bytes
  if (failed.length > 0) {
    files["failed.txt"] = new TextEncoder().encode(`The following submissions failed to download:\n\n${failed.map((f) => `${serverName(f.submission)} (${f.error})`).join("\n")}`)
  }
  return zipSync(files)
}

/** `bulk_submissions.zip` of v1.22 and before: one entry of the file's name per block of 8 KiB, in the order of `pks`. */
export const bulkDownloadV122 = (selected: ReadonlyArray<Submission>): Uint8Array => {
  const chunks: Array<Uint8Array> = []
  const zip = new Zip((error, data) => {
    if (error !== null) throw error
    chunks.push(data)
  })
  for (const s of selected) {
    const name = `ID_${s.id}_${storedFileName(s.uploaded)}`
    for (let at = 0; at < s.bytes.length; at += 8192) {
      const entry = new ZipDeflate(name, { level: 6 })
      zip.add(entry)
      entry.push(s.bytes.subarray(at, Math.min(at + 8192, s.bytes.length)), true)
    }
  }
  zip.end()
  return new Uint8Array(Buffer.concat(chunks))
}

/** A field as `csv.writer` (excel dialect, QUOTE_MINIMAL) writes it. */
const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)

/** DRF's `DateTimeField.to_representation`: `isoformat()`, microseconds only when not zero, `+00:00` as `Z`. */
export const drfDate = (d: Date, microseconds = 0): string => {
  const us = d.getUTCMilliseconds() * 1000 + microseconds
  return `${d.toISOString().slice(0, 19)}${us > 0 ? `.${String(us).padStart(6, "0")}` : ""}Z`
}

/** The submissions table's CSV export (rows newest first), as Codabench v1.23+ or v1.22 writes it. */
export const csvExport = (version: "v1.23+" | "v1.22-", rows: ReadonlyArray<Submission>): string => {
  const header = version === "v1.23+" ? ["Submission ID", "File Name", "Owner", "Created When", "Status", "Phase"] : ["Owner", "Created When", "Status", "Phase"]
  const fields = (s: Submission) =>
    version === "v1.23+" ? [String(s.id), storedFileName(s.uploaded), s.owner, drfDate(s.created), s.status, s.phase] : [s.owner, drfDate(s.created), s.status, s.phase]
  return [header, ...[...rows].sort((a, b) => b.id - a.id).map(fields)].map((r) => `${r.map(csvField).join(",")}\r\n`).join("")
}

/** A submission on a leaderboard: its `scores.json` and when it was made. */
export interface Entry {
  readonly name: string
  readonly created: number
  readonly scores: Readonly<Record<string, number>>
}

/**
 * `get_submissions`' order on PostgreSQL: the primary column (NULLs first when descending, last when
 * ascending), the other columns by index with their sorting, then `created_when`.
 */
export const leaderboardOrder = (
  columns: ReadonlyArray<{ readonly key: string; readonly index: number; readonly sorting?: "desc" | "asc" | undefined }>,
  primaryIndex: number,
  entries: ReadonlyArray<Entry>
): ReadonlyArray<string> => {
  const primary = columns.find((c) => c.index === primaryIndex)!
  const order = [primary, ...columns.filter((c) => c !== primary).sort((a, b) => a.index - b.index)]
  const compare = (a: Entry, b: Entry): number => {
    for (const c of order) {
      const [x, y] = [a.scores[c.key], b.scores[c.key]]
      const desc = (c.sorting ?? "desc") === "desc"
      if (x === undefined && y === undefined) continue
      // NULL is larger than every value: first in DESC, last in ASC
      if (x === undefined) return desc ? -1 : 1
      if (y === undefined) return desc ? 1 : -1
      if (x !== y) return desc ? y - x : x - y
    }
    return a.created - b.created
  }
  return [...entries].sort(compare).map((e) => e.name)
}

/**
 * What a participant can download of a competition made from `bundle`, as Codabench serves it
 * (codalab/codabench c7dbc756): `PhaseTaskInstanceSerializer.get_public_datasets`
 * (`src/apps/api/serializers/tasks.py`) lists, for every phase's task, its `input_data`,
 * `reference_data`, `ingestion_program` and `scoring_program` with their keys (in
 * `CompetitionDetailSerializer` -> `PhaseDetailSerializer`, which `CompetitionViewSet.retrieve`
 * returns to an approved participant, and to anyone once published); `download(request, key)`
 * (`src/apps/datasets/views.py`) checks no permission and redirects to the file, which the unpacker
 * made by zipping the bundle's folder as it is (`zip_if_directory`,
 * `src/apps/competitions/unpackers/utils.py`). Returns each listed dataset (its folder in the
 * bundle) with its files: name -> bytes.
 */
export const publicDatasets = (
  bundle: string,
  competition: { readonly phases: ReadonlyArray<{ readonly tasks: ReadonlyArray<number> }>; readonly tasks: ReadonlyArray<Record<string, unknown>> },
  readTree: (dir: string) => ReadonlyMap<string, Uint8Array>
): ReadonlyMap<string, ReadonlyMap<string, Uint8Array>> => {
  const listed = new Map<string, ReadonlyMap<string, Uint8Array>>()
  for (const phase of competition.phases) {
    for (const index of phase.tasks) {
      const task = competition.tasks.find((t) => t["index"] === index)
      if (task === undefined) continue
      for (const field of ["input_data", "reference_data", "ingestion_program", "scoring_program"]) {
        const folder = task[field]
        if (typeof folder === "string" && !listed.has(folder)) listed.set(folder, readTree(`${bundle}/${folder}`))
      }
    }
  }
  return listed
}

/** A submission as `Competition.apply_phase_migration` sees it. */
export interface PhaseSubmission {
  readonly name: string
  readonly status: "Finished" | "Failed"
  /** `leaderboard` not null: the worker uploaded its scores and the submission rule put it on the board */
  readonly onLeaderboard: boolean
}

/**
 * The submissions `Competition.apply_phase_migration` (`src/apps/competitions/models.py`, c7dbc756)
 * copies into the next phase: `phase=current_phase, is_migrated=False, parent__isnull=True,
 * leaderboard__isnull=False, status=FINISHED`. A submission is Finished when the scoring program
 * exits 0 and its scores are uploaded (`run_wrapper`, `push_scores` in
 * `compute_worker/compute_worker.py`); `upload_submission_scores` then puts it on the leaderboard by
 * the rule (`Force_Latest_Multiple`: `AllModeStrategy` in `src/apps/leaderboards/strategies.py`,
 * every one), even with no score at all.
 */
export const migrated = (submissions: ReadonlyArray<PhaseSubmission>): ReadonlyArray<string> =>
  submissions.filter((s) => s.status === "Finished" && s.onLeaderboard).map((s) => s.name)
