/**
 * Runs in a submissions folder (SPEC §2.3). A run is one file (SICK, STS Benchmark), one folder of
 * per-dataset files (STS 2012-2017), or a `.zip` of such a folder. Team, run number and the primary
 * flag come from the run's name (`Team_run2primary`, `Team_run2`, `Team-run2`,
 * `TeamName_runNprimary.txt`) or from an optional `run.json`:
 * `{ "team", "run", "primary", "late", "corrected", "postDeadline", "description" }` — inside the run's folder or
 * zip, or beside the run as `<run name>.run.json` (for `ECNU_run1.txt` or `ECNU_run1.zip`:
 * `ECNU_run1.run.json`). Values in `run.json` take precedence over the name.
 *
 * Discovery reads bytes only; parsing and scoring happen elsewhere. Problems become issues on the
 * run (or on the folder), never a failure, except when the submissions folder itself is unreadable.
 *
 * @since 0.1.0
 */
import { Effect, FileSystem, Path, Schema } from "effect"
import type { PlatformError } from "effect/PlatformError"
import { unzipSync } from "fflate"
import * as Issue from "./Issue.js"
import { firstProblem } from "./internal/schemaIssues.js"
import type { TaskEdition } from "./Registry.js"
import { DEFAULT_MAX_BYTES } from "./Text.js"

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** @since 0.1.0 */
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
}

/** @since 0.1.0 */
export interface RunFile {
  /** base name, e.g. `STS.output.headlines.txt` */
  readonly name: string
  /** for messages, e.g. `sub/ECNU_run1/STS.output.headlines.txt` or `sub/ECNU_run1.zip!STS.output.headlines.txt` */
  readonly path: string
  readonly bytes: Uint8Array
}

/** @since 0.1.0 */
export interface Submission {
  readonly meta: RunMeta
  /** the run's file, folder or zip, as found */
  readonly path: string
  readonly kind: "file" | "folder" | "zip"
  /** the run's files, sorted by name (hidden files and run.json excluded) */
  readonly files: ReadonlyArray<RunFile>
  readonly issues: ReadonlyArray<Issue.Issue>
}

/** @since 0.1.0 */
export interface Discovered {
  readonly runs: ReadonlyArray<Submission>
  /** issues about the folder as a whole: run limits, entries that are not runs */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/** @since 0.1.0 */
export interface DiscoverOptions {
  /** largest total uncompressed size of one zip (default 256 MiB); larger zips are refused, not unpacked */
  readonly maxZipBytes?: number
  /** largest single run file read (default `Text.DEFAULT_MAX_BYTES`) */
  readonly maxFileBytes?: number
}

/**
 * The optional `run.json`. Every field is optional; unknown fields are an error (they are usually
 * typos, e.g. `"primery"`).
 *
 * @since 0.1.0
 */
export const RunJson = Schema.Struct({
  team: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1))),
  run: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  primary: Schema.optionalKey(Schema.Boolean),
  late: Schema.optionalKey(Schema.Boolean),
  corrected: Schema.optionalKey(Schema.Boolean),
  postDeadline: Schema.optionalKey(Schema.Boolean),
  description: Schema.optionalKey(Schema.String)
})
/** @since 0.1.0 */
export type RunJson = typeof RunJson.Type

/** The metadata file's name inside a run folder or zip. @since 0.1.0 */
export const RUN_JSON = "run.json"
/** The suffix of a metadata file beside a run: `<run name>.run.json`. @since 0.1.0 */
export const RUN_JSON_SUFFIX = ".run.json"

const DEFAULT_MAX_ZIP_BYTES = 256 * 1024 * 1024
// Runs hold a handful of files; deeper or larger trees are not submissions (and bound the walk).
const MAX_DEPTH = 3
const MAX_FILES = 500
const MAX_RUN_JSON_BYTES = 1024 * 1024

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/** @since 0.1.0 */
export interface ParsedRunName {
  readonly team: string
  readonly run: number
  readonly primary: boolean
}

// Team names may contain `_` and `-` (The_Meaning_Factory_run1): the team is everything before the
// last `_run<N>` (greedy), so a team called "Rerun" keeps its name in "Rerun_run1".
const RUN_NAME = /^(.+)[_-]+run[_-]?(\d+)(?:[_-]?(primary))?$/i
const STRIP_EXTENSION = /\.(txt|tsv|csv|zip|out|output|run)$/i

/**
 * Team, run number and primary flag from a run's file or folder name, or `undefined` when the name
 * does not follow `Team_runN[primary]` / `Team-runN[primary]`. A `.txt` / `.zip` (etc.) extension is
 * ignored.
 *
 * @since 0.1.0
 */
export const parseRunName = (name: string): ParsedRunName | undefined => {
  const stem = stripExtension(name)
  const m = RUN_NAME.exec(stem)
  if (m === null) return undefined
  return { team: m[1], run: Number(m[2]), primary: m[3] !== undefined }
}

/** The name without a known extension. @since 0.1.0 */
export const stripExtension = (name: string): string => name.replace(STRIP_EXTENSION, "")

const isHidden = (name: string) => name.startsWith(".") || name === "__MACOSX" || name === "Thumbs.db"
const isMetadata = (name: string) => name === RUN_JSON || name.endsWith(RUN_JSON_SUFFIX)

// ---------------------------------------------------------------------------------------------
// Zip
// ---------------------------------------------------------------------------------------------

/**
 * The files of a zip held in memory: base names mapped to bytes, plus issues. Directory entries,
 * hidden files and `__MACOSX` are skipped. Entries whose name is absolute or climbs out with `..`
 * are refused (path traversal); a zip whose declared uncompressed size exceeds `maxBytes` is not
 * unpacked at all (zip bomb). Nested zips are reported, not opened.
 *
 * @since 0.1.0
 */
export const readZip = (
  bytes: Uint8Array,
  zipPath: string,
  maxBytes: number = DEFAULT_MAX_ZIP_BYTES
): { readonly files: ReadonlyArray<RunFile>; readonly metadata: Uint8Array | undefined; readonly issues: ReadonlyArray<Issue.Issue> } => {
  const issues: Array<Issue.Issue> = []
  const files: Array<RunFile> = []
  let metadata: Uint8Array | undefined
  let declared = 0
  let unpacked: Record<string, Uint8Array>
  try {
    // The filter sees each entry's declared size before inflating: sum them and inflate nothing once
    // the cap is passed. fflate inflates into a buffer of the declared size, so a lying header cannot
    // make an entry larger than declared (the entry comes out cut to that size; checked by hand).
    const refused = new Set<string>()
    let tooLarge = false
    unpacked = unzipSync(bytes, {
      filter: (entry) => {
        if (entry.name.endsWith("/") || entry.name.endsWith("\\")) return false
        if (unsafeEntryName(entry.name)) {
          refused.add(entry.name)
          return false
        }
        declared += entry.originalSize
        if (declared > maxBytes) tooLarge = true
        return !tooLarge
      }
    })
    if (tooLarge) {
      return {
        files: [],
        metadata: undefined,
        issues: [
          Issue.error("too-large", zipPath, `the zip unpacks to more than ${maxBytes} bytes; it was not unpacked`, {
            expected: `at most ${maxBytes} bytes uncompressed`,
            found: `more than ${maxBytes} bytes`
          })
        ]
      }
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
    return {
      files: [],
      metadata: undefined,
      issues: [Issue.error("file-unreadable", zipPath, `the zip cannot be read: ${(e as Error).message}`)]
    }
  }
  const seen = new Map<string, string>()
  for (const entryName of Object.keys(unpacked).sort()) {
    // Zips made on Windows may separate folders with a backslash.
    const parts = entryName.split(/[\\/]/)
    const base = parts[parts.length - 1]
    if (base === "" || parts.some(isHidden)) continue
    const path = `${zipPath}!${entryName}`
    if (base === RUN_JSON) {
      metadata = unpacked[entryName]
      continue
    }
    if (/\.zip$/i.test(base)) {
      issues.push(Issue.warning("unknown-file", path, `a zip inside the zip is not opened: "${entryName}"`))
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
    files.push({ name: base, path, bytes: unpacked[entryName] })
  }
  return { files, metadata, issues }
}

const unsafeEntryName = (name: string): boolean =>
  name.startsWith("/") || name.startsWith("\\") || /^[A-Za-z]:/.test(name) || name.split(/[\\/]/).includes("..")

// ---------------------------------------------------------------------------------------------
// Metadata
// ---------------------------------------------------------------------------------------------

const decodeRunJson = Schema.decodeUnknownResult(RunJson, { onExcessProperty: "error", reportInput: true, errors: "all" })

/**
 * Decode a run.json's bytes; `undefined` and an issue `bad-run-metadata` naming the file when it is
 * not valid.
 *
 * @since 0.1.0
 */
export const parseRunJson = (bytes: Uint8Array, file: string): { readonly value: RunJson | undefined; readonly issues: ReadonlyArray<Issue.Issue> } => {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, ""))
  } catch (e) {
    return {
      value: undefined,
      issues: [Issue.error("bad-run-metadata", file, `run.json is not valid JSON (${(e as Error).message}); it was ignored`, { expected: "a JSON object" })]
    }
  }
  const result = decodeRunJson(json)
  if (result._tag === "Success") return { value: result.success, issues: [] }
  const { field, message } = firstProblem(result.failure)
  return {
    value: undefined,
    issues: [
      Issue.error("bad-run-metadata", file, `run.json is not valid: ${field !== undefined ? `${field}: ` : ""}${message}; it was ignored`, {
        ...(field !== undefined ? { field } : {}),
        expected: '{ "team": string, "run": integer, "primary": boolean, "late": boolean, "corrected": boolean, "postDeadline": boolean, "description": string }'
      })
    ]
  }
}

const makeMeta = (
  name: string,
  path: string,
  json: RunJson | undefined
): { readonly meta: Omit<RunMeta, "id">; readonly issues: ReadonlyArray<Issue.Issue> } => {
  const parsed = parseRunName(name)
  const issues: Array<Issue.Issue> = []
  const team = json?.team ?? parsed?.team ?? stripExtension(name)
  const run = json?.run ?? parsed?.run
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

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

type Loaded = Omit<Submission, "meta"> & { readonly meta: Omit<RunMeta, "id"> }

const readBytes = (fs: FileSystem.FileSystem, path: string, maxBytes: number) =>
  Effect.gen(function* () {
    const info = yield* fs.stat(path)
    if (Number(info.size) > maxBytes) {
      return {
        bytes: undefined,
        issue: Issue.error("too-large", path, `the file has ${Number(info.size)} bytes, more than the limit of ${maxBytes}; it was not read`, {
          expected: `at most ${maxBytes} bytes`,
          found: `${Number(info.size)} bytes`
        })
      }
    }
    return { bytes: yield* fs.readFile(path), issue: undefined }
  }).pipe(
    Effect.catch((e: PlatformError) =>
      Effect.succeed({ bytes: undefined, issue: Issue.error("file-unreadable", path, `the file cannot be read: ${e.message}`) })
    )
  )

/** Files of a folder run, recursively (up to MAX_DEPTH), sorted by relative path. */
const walk = (
  fs: FileSystem.FileSystem,
  pathApi: Path.Path,
  dir: string,
  depth: number
): Effect.Effect<ReadonlyArray<string>, PlatformError> =>
  Effect.gen(function* () {
    const names = (yield* fs.readDirectory(dir)).filter((n) => !isHidden(n)).sort()
    const out: Array<string> = []
    for (const name of names) {
      const full = pathApi.join(dir, name)
      const info = yield* fs.stat(full).pipe(Effect.option)
      if (info._tag === "None") continue
      if (info.value.type === "Directory") {
        if (depth < MAX_DEPTH) out.push(...(yield* walk(fs, pathApi, full, depth + 1)))
      } else if (info.value.type === "File") out.push(full)
    }
    return out
  })

const besideMetadata = (fs: FileSystem.FileSystem, runPath: string, name: string, pathApi: Path.Path) =>
  Effect.gen(function* () {
    const file = pathApi.join(pathApi.dirname(runPath), `${stripExtension(name)}${RUN_JSON_SUFFIX}`)
    const exists = yield* fs.exists(file).pipe(Effect.orElseSucceed(() => false))
    if (!exists) return undefined
    const read = yield* readBytes(fs, file, MAX_RUN_JSON_BYTES)
    return { file, bytes: read.bytes, issue: read.issue }
  })

const loadOne = (
  path: string,
  edition: TaskEdition,
  options: DiscoverOptions
): Effect.Effect<Loaded | undefined, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_BYTES
    const name = pathApi.basename(path)
    const info = yield* fs.stat(path)
    const issues: Array<Issue.Issue> = []
    const files: Array<RunFile> = []
    let kind: Submission["kind"]
    let json: { file: string; bytes: Uint8Array } | undefined
    if (info.type === "Directory") {
      kind = "folder"
      const found = yield* walk(fs, pathApi, path, 1)
      if (found.length > MAX_FILES) {
        issues.push(
          Issue.error("too-large", path, `the folder holds ${found.length} files, more than the ${MAX_FILES} a run may have; it was not read`, {
            expected: `at most ${MAX_FILES} files`,
            found: `${found.length} files`
          })
        )
      }
      // run.json: the shallowest one (a folder unzipped into itself has it one level down).
      const depth = (p: string) => p.split(/[\\/]/).length
      const metadataFile = found.filter((f) => pathApi.basename(f) === RUN_JSON).sort((a, b) => depth(a) - depth(b))[0]
      for (const full of found.length > MAX_FILES ? [] : found) {
        const base = pathApi.basename(full)
        if (isMetadata(base) && full !== metadataFile) continue
        const read = yield* readBytes(fs, full, base === RUN_JSON ? MAX_RUN_JSON_BYTES : maxFileBytes)
        if (read.issue !== undefined) issues.push(read.issue)
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
    } else if (info.type === "File" && /\.zip$/i.test(name)) {
      kind = "zip"
      const read = yield* readBytes(fs, path, maxFileBytes)
      if (read.issue !== undefined) issues.push(read.issue)
      if (read.bytes !== undefined) {
        const zip = readZip(read.bytes, path, options.maxZipBytes ?? DEFAULT_MAX_ZIP_BYTES)
        issues.push(...zip.issues)
        files.push(...zip.files)
        if (zip.metadata !== undefined) json = { file: `${path}!${RUN_JSON}`, bytes: zip.metadata }
      }
    } else if (info.type === "File") {
      kind = "file"
      const read = yield* readBytes(fs, path, maxFileBytes)
      if (read.issue !== undefined) issues.push(read.issue)
      if (read.bytes !== undefined) files.push({ name, path, bytes: read.bytes })
    } else {
      return undefined
    }
    if (json === undefined) {
      const beside = yield* besideMetadata(fs, path, name, pathApi)
      if (beside?.issue !== undefined) issues.push(beside.issue)
      if (beside?.bytes !== undefined) json = { file: beside.file, bytes: beside.bytes }
    }
    let runJson: RunJson | undefined
    if (json !== undefined) {
      const parsed = parseRunJson(json.bytes, json.file)
      issues.push(...parsed.issues)
      runJson = parsed.value
    }
    const meta = makeMeta(name, path, runJson)
    issues.push(...meta.issues)
    if (files.length === 0 && !Issue.hasErrors(issues)) {
      issues.push(Issue.error("empty-file", path, kind === "file" ? "the run file is empty" : `the run's ${kind} holds no files`))
    }
    if (edition.submission === "file" && files.length > 1) {
      issues.push(
        Issue.error(
          "unknown-file",
          path,
          `a run of ${edition.id} is one file, but this ${kind} holds ${files.length}: ${files.map((f) => f.name).join(", ")}`,
          { expected: "one run file", found: `${files.length} files` }
        )
      )
    }
    files.sort((a, b) => compare(a.name, b.name))
    return { meta: meta.meta, path, kind, files, issues }
  })

const duplicateNames = (files: ReadonlyArray<RunFile>): Map<string, Array<string>> => {
  const byName = new Map<string, Array<string>>()
  for (const f of files) byName.set(f.name, [...(byName.get(f.name) ?? []), f.path])
  return new Map([...byName].filter(([, paths]) => paths.length > 1))
}

// Code-point order, so the order is the same on every machine and locale.
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * What orders runs and breaks ties wherever runs are listed (discovery, ranking, reports, the
 * live leaderboard): team in code-point order, then run number in numeric order (run2 before
 * run10; runs without a number last), then the run's name. Locale-independent, so every machine
 * gives the same order.
 *
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
 * @since 0.1.0
 */
export const metaFromName = (name: string): RunMeta => {
  const { meta } = makeMeta(name, name, undefined)
  return { id: runId(meta, name), ...meta }
}

/**
 * The id of a run, the one string every output names it by (`rank`, `report`, `watch`, failed
 * runs, `compare`, `significance`): `team/runN` when the run has a number (`ECNU/run1`), else its
 * name without extension when that is the team (`foo.txt` -> `foo`, `Team-Name.txt` ->
 * `Team-Name`), else `team/<name>` (a run.json naming another team). `name` is the run's file,
 * folder or zip name. `assignIds` makes ids unique within a folder.
 *
 * @since 0.2.0
 */
export const runId = (meta: { readonly team: string; readonly run: number | undefined }, name: string): string => {
  const stem = stripExtension(name)
  return meta.run !== undefined ? `${meta.team}/run${meta.run}` : meta.team === stem ? stem : `${meta.team}/${stem}`
}

/**
 * Unique ids for the runs of one folder, in the order given: `runId`, with `~2`, `~3`... on a
 * clash (two runs claiming the same team and number). Callers pass runs in `compareRuns` order so
 * that the same folder always gives the same ids.
 *
 * @since 0.2.0
 */
export const assignIds = (
  runs: ReadonlyArray<{ readonly team: string; readonly run: number | undefined; readonly name: string }>
): ReadonlyArray<string> => {
  const used = new Set<string>()
  return runs.map((r) => {
    const base = runId(r, r.name)
    let id = base
    for (let k = 2; used.has(id); k++) id = `${base}~${k}`
    used.add(id)
    return id
  })
}

const withIds = (loaded: ReadonlyArray<Loaded>, basename: (p: string) => string): ReadonlyArray<Submission> => {
  const ids = assignIds(loaded.map((l) => ({ team: l.meta.team, run: l.meta.run, name: basename(l.path) })))
  return loaded.map((l, i) => ({ ...l, meta: { id: ids[i], ...l.meta } }))
}

/**
 * Load one run given directly (a file, a folder or a zip).
 *
 * @since 0.1.0
 */
export const loadRun = (
  path: string,
  edition: TaskEdition,
  options: DiscoverOptions = {}
): Effect.Effect<Submission, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const pathApi = yield* Path.Path
    const loaded = yield* loadOne(path, edition, options)
    if (loaded === undefined) {
      return {
        meta: metaFromName(pathApi.basename(path)),
        path,
        kind: "file" as const,
        files: [],
        issues: [Issue.error("file-unreadable", path, "not a regular file, folder or zip")]
      }
    }
    return withIds([loaded], (p) => pathApi.basename(p))[0]
  })

/**
 * Discover the runs of a submissions folder: each entry of the folder is one run — a file, a
 * folder or a zip — except hidden entries and `*.run.json` metadata. For an edition whose runs are
 * folders (STS), a plain file at the top is reported (`unknown-file`) and skipped. Teams with more
 * runs than the edition's `runLimit` get a `run-limit` warning. Runs are sorted by team, run
 * number, then path.
 *
 * @since 0.1.0
 */
export const discover = (
  folder: string,
  edition: TaskEdition,
  options: DiscoverOptions = {}
): Effect.Effect<Discovered, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const names = (yield* fs.readDirectory(folder)).filter((n) => !isHidden(n) && !isMetadata(n)).sort(compare)
    const issues: Array<Issue.Issue> = []
    const loaded: Array<Loaded> = []
    for (const name of names) {
      const full = pathApi.join(folder, name)
      const info = yield* fs.stat(full).pipe(Effect.option)
      if (info._tag === "None") {
        issues.push(Issue.warning("file-unreadable", full, "the entry cannot be read (a broken link?); it was skipped"))
        continue
      }
      const type = info.value.type
      if (edition.submission === "folder" && type === "File" && !/\.zip$/i.test(name)) {
        issues.push(
          Issue.warning("unknown-file", full, `not a run: a run of ${edition.id} is a folder (or a zip) of per-dataset files; the file was skipped`, {
            expected: "a folder or a .zip",
            found: name
          })
        )
        continue
      }
      const run = yield* loadOne(full, edition, options)
      if (run === undefined) {
        issues.push(Issue.warning("unknown-file", full, "not a regular file, folder or zip; skipped"))
        continue
      }
      loaded.push(run)
    }
    const name = (l: Loaded) => ({ team: l.meta.team, run: l.meta.run, name: pathApi.basename(l.path) })
    loaded.sort((a, b) => compareRuns(name(a), name(b)))
    const runs = withIds(loaded, (p) => pathApi.basename(p))
    const byTeam = new Map<string, Array<Submission>>()
    for (const r of runs) byTeam.set(r.meta.team, [...(byTeam.get(r.meta.team) ?? []), r])
    for (const [team, teamRuns] of byTeam) {
      if (teamRuns.length > edition.runLimit) {
        issues.push(
          Issue.warning(
            "run-limit",
            folder,
            `team "${team}" has ${teamRuns.length} runs, more than the ${edition.runLimit} allowed in ${edition.id}: ${teamRuns.map((r) => pathApi.basename(r.path)).join(", ")}`,
            { field: team, expected: `at most ${edition.runLimit} runs`, found: `${teamRuns.length} runs` }
          )
        )
      }
    }
    return { runs, issues }
  })
