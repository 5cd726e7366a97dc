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
 * Each team's finished submissions become runs 1, 2, ... in submission id order (Codabench's
 * creation order): `<Team>_run<N>.zip` with its `.run.json` beside it. After `deadline` a
 * submission is `postDeadline`, or `late` within `lateUntil`; by default each team's last
 * submission before the deadline is primary.
 *
 * Nothing is written unless every submission is imported or excluded by a stated rule (not
 * Finished, another `phase`); any other (an entry climbing out of the zip, a zip no CSV row names,
 * an owner that is no team name, a bad date) fails the import with each listed
 * (`ImportError.problems`), as does an import of no run.
 *
 * Reading the download is `import/download.ts`, matching its files to the CSV and to teams
 * `import/match.ts`, numbering runs and writing them here.
 *
 * @since 0.1.0
 */
import { Files, Submissions } from "@stseval/formats"
import { Effect, FileSystem, Path } from "effect"
import { readDownload, short } from "./import/download.js"
import type { Findings } from "./import/download.js"
import { candidatesOf, isAfter, rowsOf } from "./import/match.js"
import type { Candidate, When } from "./import/match.js"
import { ImportError } from "./import/model.js"
import type { Imported, Options, Result, Skipped } from "./import/model.js"

export * from "./import/model.js"
export * from "./import/names.js"

/** A file-system-safe stem for a team, at most 100 characters (the written names stay far below NAME_MAX). */
const safeName = (team: string): string => {
  const cleaned = team.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "team"
  return cleaned.length <= 100 ? cleaned : cleaned.slice(0, 100).replace(/[-.]+$/, "")
}

const PK_LOCAL = [0x50, 0x4b, 0x03, 0x04]
const PK_EMPTY = [0x50, 0x4b, 0x05, 0x06]
const looksLikeZip = (b: Uint8Array) => b.length >= 4 && (PK_LOCAL.every((x, i) => b[i] === x) || PK_EMPTY.every((x, i) => b[i] === x))

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
    const found: Findings = { problems, skipped, notes }

    // 1-3. The download's files and its CSV export (import/download.ts).
    const { files, download, manifest } = yield* readDownload(input, options, found)
    // 4-5. Each file's CSV row, and who made it, when, in which phase (import/match.ts).
    const candidates = yield* candidatesOf(files, yield* rowsOf(files, manifest, found), manifest, options, found)

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

