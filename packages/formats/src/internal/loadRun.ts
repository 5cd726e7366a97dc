/**
 * Reading one run from disk (`Submissions`' discovery half): a file, a folder or a zip, the checks
 * on links, its `run.json` (inside it or beside it), and the issues of a run that cannot be scored
 * as given.
 *
 * @internal
 */
import { Effect, FileSystem, Path } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as Issue from "../Issue.js"
import { calls } from "./calls.js"
import * as Files from "../Files.js"
import { datasetOfRunFile } from "../Registry.js"
import type { TaskEdition } from "../Registry.js"
import { DEFAULT_MAX_BYTES } from "../Text.js"
import type { DiscoverOptions, EntryKind, LoadedRun, RunFile, Submission } from "../Submissions.js"
import { MAX_RUN_JSON_BYTES, metadataReadIssue, NOT_SCORED, parseRunJson, readMetadata, severalRunJson } from "./runJson.js"
import type { RunJson } from "./runJson.js"
import { besideNames, compare, isHidden, isMetadata, listNames, makeMeta, RUN_JSON, unknownMeta } from "./runNames.js"
import { DEFAULT_MAX_ZIP_BYTES, readZip } from "./runZip.js"

// Runs hold a handful of files; deeper or larger trees are not submissions (and bound the walk).
const MAX_DEPTH = 3
const MAX_FILES = 500

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

type Loaded = LoadedRun

/** A file's bytes through `Files.readFile` (links out of `within` refused), or the issue saying why not. */
const readBytes = (path: string, maxBytes: number, within: string | Files.Within | undefined, what = "the run file", lookedAt = false) =>
  Files.readFile(path, { maxBytes, what, lookedAt, ...(within !== undefined ? { within } : {}) }).pipe(
    Effect.map((bytes) => ({ bytes, issue: undefined })),
    Effect.catch((e: Files.ReadError) => Effect.succeed({ bytes: undefined, issue: Files.toIssue(e) }))
  )


/** What a path is (links followed), as `loadOne` tells runs apart. */
export type EntryType = "File" | "Directory" | "Other"

/**
 * What `path` is, links followed; undefined when it cannot be found (a broken link, a race with a
 * deletion). Through formats' own calls, which an isolated scorer makes synchronous
 * (`Files.useSynchronousCalls`): a stat per run and per run file, the most frequent call here.
 */
export const typeOf = (path: string): Effect.Effect<EntryType | undefined> =>
  Effect.promise(() =>
    calls.stat(path).then(
      (info): EntryType => (info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other"),
      () => undefined
    )
  )

/**
 * What `path` is, as `typeOf`, and whether it is a link: an `lstat`, and a `stat` only for a link
 * (most entries are none), so that `loadOne` need not resolve a plain entry to know it stays in its
 * folder (`linkProblem`: a `realpath` is a `readlink` per part of the path).
 */
export const entryOf = (path: string): Effect.Effect<EntryKind | undefined> =>
  Effect.promise(async () => {
    const info = await calls.lstat(path).catch(() => undefined)
    if (info === undefined) return undefined
    if (!info.isSymbolicLink()) return { type: info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other", link: false }
    const type = await calls.stat(path).then(
      (target): EntryType => (target.isFile() ? "File" : target.isDirectory() ? "Directory" : "Other"),
      () => undefined
    )
    return type === undefined ? undefined : { type, link: true }
  })

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
const besideMetadata = (runPath: string, name: string, edition: TaskEdition, pathApi: Path.Path, within: Files.Within, listed: ReadonlyArray<string> | undefined) =>
  Effect.gen(function* () {
    // the caller's listing of the folder, when given, says which are there (no call per absent name)
    const names = (listed ?? besideNames(name, edition)).map((n) => pathApi.join(pathApi.dirname(runPath), n))
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
const linkProblem = (pathApi: Path.Path, path: string, within: Files.Within, link: boolean | undefined) =>
  Effect.gen(function* () {
    const rootReal = within.real
    const parent = pathApi.dirname(path)
    const inFolder = parent === within.path || pathApi.resolve(parent) === pathApi.resolve(within.path)
    // no link, right in the folder: its real path is the folder's and its name (nothing to resolve);
    // one swapped in after this look is what the checked read refuses (`Files.readFile`)
    if (link === false && inFolder) return undefined
    const parentReal = inFolder ? within.real : yield* Files.realPath(parent)
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

export const loadOne = (
  path: string,
  edition: TaskEdition,
  options: DiscoverOptions,
  within: Files.Within,
  /** what the path is, when the caller has just looked (`entryOf`) */
  known?: EntryKind
): Effect.Effect<Loaded | undefined, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_BYTES
    const name = pathApi.basename(path)
    const type = known?.type ?? (yield* fs.stat(path)).type
    if (type !== "Directory" && type !== "File") return undefined
    const kind: Submission["kind"] = type === "Directory" ? "folder" : /\.zip$/i.test(name) ? "zip" : "file"
    const link = yield* linkProblem(pathApi, path, within, known?.link)
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
      // an entry just looked at (`entryOf`) and found a regular file is not looked at again
      const read = yield* readBytes(path, maxFileBytes, within, "the run file", known?.type === "File" && !known.link)
      if (read.issue !== undefined) issues.push(read.issue)
      if (read.bytes !== undefined) files.push({ name, path, bytes: read.bytes })
    }
    if (json === undefined && metadataIssue === undefined) {
      const beside = yield* besideMetadata(path, name, edition, pathApi, within, options.runJsonBeside)
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

const duplicateNames = (files: ReadonlyArray<RunFile>): Map<string, Array<string>> => {
  const byName = new Map<string, Array<string>>()
  for (const f of files) byName.set(f.name, [...(byName.get(f.name) ?? []), f.path])
  return new Map([...byName].filter(([, paths]) => paths.length > 1))
}
