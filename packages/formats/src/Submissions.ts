/**
 * Runs in a submissions folder (SPEC §2.3). A run is one file (SICK, STS Benchmark), one folder of
 * per-dataset files (STS 2012-2017), or a `.zip` of such a folder. Team, run number and the primary
 * flag come from the run's name (`Team_run2primary`, `Team-run2`; any extension its edition's runs
 * may have, `runExtensions`) or, taking precedence, from an optional `run.json` inside the run or
 * beside it as `<run name>.run.json` (`ECNU_run1.run.json` or `ECNU_run1.txt.run.json`).
 *
 * Discovery reads bytes only. Problems become issues on the run (or on the folder), never a
 * failure, except when the submissions folder itself is unreadable. Nothing outside the folder is
 * read through a run: a link out of it, to it or to another run is refused (`outside-folder`). A
 * run that cannot be scored as given has no files and an error: a SICK run folder with several
 * files, an STS run with no file named after a dataset, a `run.json` that is there but cannot be
 * used (`bad-run-metadata`: the run is not scored under its name's team instead, its identity is
 * unknown, `RunMeta.identityUnknown`).
 *
 * @since 0.1.0
 */
import * as nodePath from "node:path"
import { Effect, FileSystem, Path } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as Issue from "./Issue.js"
import * as Files from "./Files.js"
import type { TaskEdition } from "./Registry.js"
import { entryOf, loadOne } from "./internal/loadRun.js"
import { assignIds, besideNames, compare, compareRuns, isIgnoredEntry, isMetadata, makeMeta, metaFromName, RUN_JSON_SUFFIX, teamKey, undecodableName } from "./internal/runNames.js"

// The module's public names, each documented where it is defined: naming and identity
// (internal/runNames.ts), the run.json (internal/runJson.ts) and zips (internal/runZip.ts).
export {
  assignIds,
  compareRuns,
  isBlankTeam,
  isIgnoredEntry,
  metaFromName,
  parseRunName,
  RUN_JSON,
  RUN_JSON_SUFFIX,
  runExtensions,
  runId,
  stripExtension,
  teamKey,
  undecodableName
} from "./internal/runNames.js"
export type { ParsedRunName } from "./internal/runNames.js"
export { MAX_DESCRIPTION_LENGTH, MAX_TEAM_LENGTH, parseRunJson, RunJson } from "./internal/runJson.js"
export { readZip, unzipAll, unzipEntries } from "./internal/runZip.js"
export type { ZipMember } from "./internal/runZip.js"

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/**
 * Who made a run and which it is: team, run number, primary flag and id.
 *
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
 * One file of a run: its name and bytes.
 *
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
 * One run as read: its metadata, files and issues.
 *
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
 * The runs found in a submissions folder, and the issues of what could not be read as a run.
 *
 * @since 0.1.0
 */
export interface Discovered {
  readonly runs: ReadonlyArray<Submission>
  /** issues about the folder as a whole: run limits, entries that are not runs */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * The bounds of a discovery, and the folder runs must stay within.
 *
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
  /**
   * The `run.json` files beside the run that the caller's listing of its folder holds
   * (`runJsonBeside`): the run's metadata beside it is then looked for among these names only,
   * instead of a look at the disk per name it may have (two failed calls for each of a folder's
   * runs, most of which have none). Without it, both names are looked for.
   */
  readonly runJsonBeside?: ReadonlyArray<string>
  /**
   * What `loadEntry`'s entry is, when the caller has just looked at it (an `lstat`, and a `stat`
   * of a link's target): it is then not looked at again. The checks on the opened file are the same
   * (`Files.readFile`: a link or another file put in its place since is refused or found out).
   *
   * @since 0.5.0
   */
  readonly lookedAt?: EntryKind
}

/**
 * What a submissions folder's entry is, links followed (`type`), and whether it is itself a link.
 *
 * @since 0.5.0
 */
export interface EntryKind {
  readonly type: "File" | "Directory" | "Other"
  readonly link: boolean
}

/**
 * A submissions folder's entries from one listing: `names`, those that may be runs (as
 * `entryNames` gives them), and `runJson`, the `*.run.json` metadata files beside runs.
 *
 * @since 0.4.0
 */
export interface FolderListing {
  readonly names: ReadonlyArray<string>
  readonly runJson: ReadonlySet<string>
}

/** Runs of a submissions folder read at once (see `discover`). */
const READ_CONCURRENCY = 16

const withIds = (loaded: ReadonlyArray<LoadedRun>, basename: (p: string) => string, edition: TaskEdition): ReadonlyArray<Submission> => {
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
 * @since 0.3.0
 */
export type LoadedRun = Omit<Submission, "meta"> & { readonly meta: Omit<RunMeta, "id"> }

/**
 * One entry of a submissions folder, read: a run (`Run`), or what the entry is instead and why it
 * was skipped (`Skipped`: a plain file where runs are folders, a broken link, a socket...).
 *
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
  Effect.map(listFolder(folder), (listing) => listing.names)

/**
 * A submissions folder listed once: the names that may be runs (`entryNames`) and the `run.json`
 * files beside them, for `runJsonBeside`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Submissions } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const listing = await Effect.runPromise(Submissions.listFolder("submissions").pipe(Effect.provide(NodeServices.layer)))
 * listing.names // ["ECNU_run1primary.zip", "ECNU_run2.zip", ...]
 * ```
 * @since 0.4.0
 */
export const listFolder = (folder: string): Effect.Effect<FolderListing, PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const all = yield* fs.readDirectory(folder)
    return {
      names: all.filter((n) => !isIgnoredEntry(n) && !isMetadata(n)).sort(compare),
      runJson: new Set(all.filter((n) => n.endsWith(RUN_JSON_SUFFIX)))
    }
  })

/**
 * The `run.json` files of `listing` that may describe run `name` (`DiscoverOptions.runJsonBeside`),
 * in the order they are looked for: `<name without its extension>.run.json`, then `<name>.run.json`.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const listing = { names: ["ECNU_run1.txt"], runJson: new Set(["ECNU_run1.run.json"]) }
 * Submissions.runJsonBeside(listing, "ECNU_run1.txt") // ["ECNU_run1.run.json"]
 * ```
 * @since 0.4.0
 */
export const runJsonBeside = (listing: FolderListing, name: string, edition?: TaskEdition): ReadonlyArray<string> =>
  besideNames(name, edition).filter((n) => listing.runJson.has(n))

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
    const entry = options.lookedAt ?? (yield* entryOf(full))
    const type = entry?.type
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
    const run = yield* loadOne(full, edition, options, within ?? (yield* folderWithin(folder)), entry)
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
  // each run's name made once, not twice per comparison (2,000 runs: 22,000 comparisons)
  const named = runs.map((l) => ({ l, team: l.meta.team, run: l.meta.run, name: basename(l.path), identityUnknown: l.meta.identityUnknown }))
  const sorted = named.sort(compareRuns)
  const ids = assignIds(sorted, edition)
  const settled = sorted.map(({ l }, i) => ({ ...l, meta: { id: ids[i], ...l.meta } }))
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
    const listing = yield* listFolder(folder)
    const names = listing.names
    // the folder's real path, resolved once for every run's links check and reads
    const within = yield* folderWithin(folder)
    // Entries are read concurrently: each read is a few round trips to libuv's thread pool (open,
    // stat, read, close, and realpath for the links check), so reading 200 runs one after the other
    // left the process idle for most of a quarter of a second. Results keep the folder's order.
    const entries = yield* Effect.forEach(names, (name) => loadEntry(folder, name, edition, { ...options, runJsonBeside: runJsonBeside(listing, name, edition) }, within), {
      concurrency: READ_CONCURRENCY
    })
    const issues: Array<Issue.Issue> = []
    const loaded: Array<LoadedRun> = []
    for (const entry of entries) {
      if (entry._tag === "Run") loaded.push(entry.run)
      else issues.push(entry.issue)
    }
    const settled = settle(folder, edition, loaded)
    return { runs: settled.runs, issues: [...issues, ...settled.issues] }
  })
