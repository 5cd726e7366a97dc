/**
 * Matching: each submission file to its CSV row (by id; without ids, by position), then who made
 * it, when, in which phase, and whether it is imported.
 */
import { Submissions } from "@stseval/formats"
import { Effect } from "effect"
import { short } from "./download.js"
import type { Entry, Findings, Manifest, Row } from "./download.js"
import { ImportError } from "./model.js"
import type { Options } from "./model.js"
import { parseDownloadName, parseInstant } from "./names.js"

/** When a submission was made: the exact instant (CSV), or a UTC day with the minute and second but not the hour (a v1.23+ name). */
export type When = { readonly _tag: "exact"; readonly at: Date } | { readonly _tag: "day"; readonly day: string; readonly minute: number; readonly second: number }

/** Whether `when` is after `instant`: `undefined` when the unknown hour decides it. */
export const isAfter = (when: When | undefined, instant: Date | undefined): boolean | undefined => {
  if (instant === undefined || when === undefined) return false
  if (when._tag === "exact") return when.at.getTime() > instant.getTime()
  const at = (hour: number) => Date.parse(`${when.day}T${String(hour).padStart(2, "0")}:${String(when.minute).padStart(2, "0")}:${String(when.second).padStart(2, "0")}Z`)
  const [earliest, latest] = [at(0), at(23)]
  return earliest > instant.getTime() ? true : latest <= instant.getTime() ? false : undefined
}

/** A submission matched to what says whose it is. */
export interface Candidate {
  readonly entry: Entry
  readonly owner: string | undefined
  readonly team: string
  readonly when: When | undefined
  readonly id: string | undefined
  readonly phase: string | undefined
  readonly nameRun: number | undefined
}


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

const idOf = (f: Entry): string => (f.name._tag === "other" ? "0" : f.name.id)

/** Step 4: each file's CSV row. */
export const rowsOf = (files: ReadonlyArray<Entry>, manifest: Manifest | undefined, found: Findings) =>
  Effect.gen(function* () {
    const { notes } = found
    const problem = (source: string, reason: string) => found.problems.push({ source, reason })
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
    return rowOf
  })

/** Step 5: the submissions to import, with their team, time and phase. */
export const candidatesOf = (files: ReadonlyArray<Entry>, rowOf: ReadonlyMap<Entry, Row>, manifest: Manifest | undefined, options: Options, found: Findings) =>
  Effect.gen(function* () {
    const { problems, skipped } = found
    const problem = (source: string, reason: string) => problems.push({ source, reason })
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
    return candidates
  })
