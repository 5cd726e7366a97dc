

/**
 * The local data store: fetches an edition's public files (gold, inputs) from the addresses in the
 * registry, verifies their SHA-256, unpacks archives and caches the result, so that `--gold` can be
 * left out and the registry's default location is used.
 *
 * Layout under the data root (`$STSEVAL_DATA`, else `$XDG_CACHE_HOME/stseval`, else `~/.cache/stseval`):
 * `<root>/<edition.data.dir>/<files>` (archive members are placed by base name) and
 * `<root>/<edition.data.dir>/.stseval-data.json`, a manifest of what was fetched, from where, with
 * which checksum.
 *
 * Archives are read in `datastore/archive.ts`, downloads made in `datastore/download.ts`, the
 * errors declared in `datastore/errors.ts`.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as os from "node:os"
import * as nodePath from "node:path"
import { realpath } from "node:fs/promises"
import { Effect, FileSystem, Schema } from "effect"
import * as Files from "./Files.js"
import { isFileName, isRelativePath } from "./Registry.js"
import type { TaskEdition } from "./Registry.js"
import { MAX_UNPACKED_BYTES, unpack } from "./datastore/archive.js"
import { download } from "./datastore/download.js"
import { ChecksumMismatch, DataFetchError, DataPathError } from "./datastore/errors.js"

export * from "./datastore/errors.js"
export * from "./datastore/archive.js"

/**
 * One downloadable file of an edition.
 *
 * @since 0.1.0
 */
export interface DataSource {
  readonly url: string
  /** expected SHA-256 (hex) of the downloaded bytes; without it the first download's is recorded */
  readonly sha256?: string | undefined
  /** file name to store the download under, relative to the data folder (may name a sub-folder); an archive is unpacked beside it */
  readonly file: string
}

/**
 * What the manifest records for one fetched source.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * declare const manifest: DataStore.Manifest
 * const verified: ReadonlyArray<DataStore.FetchedSource> = manifest.sources.filter((s) => s.verified)
 * ```
 * @since 0.1.0
 */
export const FetchedSource = Schema.Struct({
  url: Schema.String,
  file: Schema.String,
  sha256: Schema.String,
  /** true when the registry gave the checksum and it matched; false when it was recorded on first use */
  verified: Schema.Boolean,
  bytes: Schema.Number,
  fetchedAt: Schema.String,
  /** files unpacked from the archive, by base name */
  unpacked: Schema.Array(Schema.String)
})
/** @since 0.1.0 */
export type FetchedSource = typeof FetchedSource.Type

/**
 * The manifest a fetch writes beside the data: each source, its hash and the files it gave.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const manifest: DataStore.Manifest = await Effect.runPromise(DataStore.readManifest("/data/stseval/sts2017").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const Manifest = Schema.Struct({ sources: Schema.Array(FetchedSource) })
/** @since 0.1.0 */
export type Manifest = typeof Manifest.Type

/**
 * The manifest's file name inside an edition's data folder.
 *
 * @since 0.1.0
 */
export const MANIFEST = ".stseval-data.json"

// A manifest lists a handful of downloads.
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024

/**
 * The data root: `$STSEVAL_DATA`, else `$XDG_CACHE_HOME/stseval`, else `~/.cache/stseval`.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * DataStore.defaultRoot({ STSEVAL_DATA: "/data/stseval" }) // "/data/stseval"
 * DataStore.defaultRoot({ XDG_CACHE_HOME: "/cache" }) // "/cache/stseval"
 * ```
 * @since 0.1.0
 */
export const defaultRoot = (env: Record<string, string | undefined> = process.env): string =>
  env["STSEVAL_DATA"] ?? nodePath.join(env["XDG_CACHE_HOME"] ?? nodePath.join(os.homedir(), ".cache"), "stseval")

/**
 * The folder an edition's gold is read from by default, and fetched into: `<root>/<data.dir>`
 * (the scoring engine's default for `--gold`); undefined for an edition without public data.
 *
 * @example
 * ```ts
 * import { DataStore, Registry } from "@stseval/formats"
 *
 * DataStore.goldDir(Registry.get("sts2017")!, "/data/stseval") // "/data/stseval/<the edition's data.dir>"
 * ```
 * @since 0.2.0
 */
export const goldDir = (edition: TaskEdition, root: string = defaultRoot()): string | undefined =>
  edition.data === undefined ? undefined : nodePath.join(root, edition.data.dir)

/**
 * Hex SHA-256 of some bytes.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * DataStore.sha256(new TextEncoder().encode("abc")) // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 * @since 0.1.0
 */
export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/**
 * What one download may be (the bytes received, counted as they arrive).
 *
 * @since 0.2.0
 */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024

/**
 * How long a server may stay silent (connecting, or between two pieces of the body).
 *
 * @since 0.2.0
 */
export const DEFAULT_TIMEOUT_MS = 60_000

/**
 * How long one download may take in all: a server that sends a byte now and then is never silent
 * for long, and would otherwise hold the command for ever. The tasks' archives take seconds.
 *
 * @since 0.2.0
 */
export const DEFAULT_TOTAL_TIMEOUT_MS = 15 * 60_000

/**
 * How a fetch runs: download again, time limits, and the fetch to use.
 *
 * @since 0.1.0
 */
export interface FetchOptions {
  /** fetch implementation (tests pass their own); defaults to the global `fetch` */
  readonly fetch?: typeof globalThis.fetch
  /** re-download even when the manifest says the file is there */
  readonly force?: boolean
  /** the data root: the edition folder must lie inside it (checked before anything is written) @since 0.2.0 */
  readonly root?: string
  /** how long the server may stay silent, in ms (default 60 s): connecting, or between two pieces @since 0.2.0 */
  readonly timeoutMs?: number
  /** how long the whole download may take, in ms (default 15 minutes) @since 0.2.0 */
  readonly totalTimeoutMs?: number
  /** what the download may unpack to (default `MAX_UNPACKED_BYTES`, 512 MiB) @since 0.2.0 */
  readonly maxUnpackedBytes?: number
}

/**
 * Read an edition folder's manifest (an empty one when there is none or it is unreadable).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const manifest = await Effect.runPromise(DataStore.readManifest("/data/stseval/sts2017").pipe(Effect.provide(NodeServices.layer)))
 * manifest.sources.map((s) => s.file)
 * ```
 * @since 0.1.0
 */
export const readManifest = Effect.fnUntraced(function*(dir: string) {
  const bytes = yield* Files.readFile(nodePath.join(dir, MANIFEST), { maxBytes: MAX_MANIFEST_BYTES, what: "the data manifest" }).pipe(
    Effect.orElseSucceed(() => new Uint8Array(0))
  )
  const text = new TextDecoder().decode(bytes)
  if (text === "") return { sources: [] } satisfies Manifest
  return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(Manifest))(text).pipe(
    Effect.orElseSucceed((): Manifest => ({ sources: [] }))
  )
})

/**
 * A data file written whole: to a temporary file beside it, renamed over it (a link there is
 * replaced, never written through: not `Files.writeAtomic`, which writes through a link). Not
 * interrupted once begun (Ctrl-C stops `data fetch` right after), and the temporary file is
 * removed when the write fails, so nothing half-written is left.
 */
const writeAtomically = (file: string, bytes: Uint8Array) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const tmp = `${file}.${process.pid}.tmp`
    // a new file (wx): a link planted under the temporary name is not written through
    yield* fs.remove(tmp, { force: true })
    yield* fs.writeFile(tmp, bytes, { flag: "wx" }).pipe(
      Effect.andThen(fs.rename(tmp, file)),
      Effect.tapError(() => fs.remove(tmp, { force: true }).pipe(Effect.ignore))
    )
  }).pipe(Effect.uninterruptible)

/** The real path of `path`, or of its nearest existing ancestor (with the rest of `path` after it). */
const realOrAncestor = async (path: string): Promise<string> => {
  const missing: Array<string> = []
  for (let at = nodePath.resolve(path); ; ) {
    try {
      return nodePath.join(await realpath(at), ...missing.reverse())
    } catch {
      const up = nodePath.dirname(at)
      if (up === at) return nodePath.resolve(path)
      missing.push(nodePath.basename(at))
      at = up
    }
  }
}

/** Whether `path` lies inside `root` by real paths (links resolved, as far as the path exists yet). */
const realInside = async (root: string, path: string): Promise<boolean> => Files.isInside(await realOrAncestor(root), await realOrAncestor(path))

/**
 * Fetch one source into `dir`: download, verify, unpack, then record it in the manifest. Nothing is
 * written when the checksum does not match.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // downloaded, checked against its SHA-256, unpacked, and noted in the folder's manifest
 * const edition = Registry.get("sts2017")!
 * const dir = DataStore.goldDir(edition)!
 * await Effect.runPromise(DataStore.fetchSource(dir, edition.data!.sources[0]).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const fetchSource = Effect.fnUntraced(function*(dir: string, source: DataSource, options: FetchOptions = {}) {
  const fs = yield* FileSystem.FileSystem
  // Writes happen only in `dir` (and only under the data root): checked before anything else.
  if (!isRelativePath(source.file)) {
    return yield* new DataPathError({
      path: source.file,
      message: `${source.url}: the source's file "${source.file}" leaves the data folder (it is absolute or climbs out with ".."): it must be a path inside the edition's folder; nothing was written`
    })
  }
  if (options.root !== undefined && !Files.isInside(nodePath.resolve(options.root), nodePath.resolve(dir))) {
    return yield* new DataPathError({ path: dir, message: `${dir} is outside the data root ${options.root}; nothing was written` })
  }
  // ... and by real paths, links resolved: a link inside the data root to a folder outside it
  // would otherwise take the writes out of it
  if (options.root !== undefined && !(yield* Effect.promise(() => realInside(options.root!, nodePath.join(dir, source.file))))) {
    return yield* new DataPathError({ path: dir, message: `${dir} leads out of the data root ${options.root} through a link; nothing was written` })
  }
  const manifest = yield* readManifest(dir)
  const known = manifest.sources.find((s) => s.url === source.url)
  if (known !== undefined && options.force !== true) {
    const present = yield* fs.exists(nodePath.join(dir, known.file))
    if (present) return { source: known, cached: true }
  }
  const bytes = yield* download(source.url, options.fetch ?? globalThis.fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS, MAX_DOWNLOAD_BYTES)
  const actual = sha256(bytes)
  if (source.sha256 !== undefined && source.sha256.toLowerCase() !== actual) {
    return yield* new ChecksumMismatch({ url: source.url, expected: source.sha256.toLowerCase(), actual })
  }
  const members = yield* Effect.try({
    try: () => unpack(source.file, bytes, options.maxUnpackedBytes ?? MAX_UNPACKED_BYTES),
    catch: (cause) =>
      new DataFetchError({ url: source.url, message: `${source.url}: cannot unpack ${source.file}: ${cause instanceof Error ? cause.message : String(cause)}` })
  })
  const target = nodePath.join(dir, source.file)
  // `file` may name a sub-folder (SemRel keeps the release's `<lang>/<lang>_test.csv` layout); the
  // registry schema refuses absolute paths and `..`, and this check keeps a hand-made source inside too.
  if (nodePath.relative(dir, target).startsWith("..") || nodePath.isAbsolute(source.file)) {
    return yield* new DataFetchError({ url: source.url, message: `${source.url}: the file name ${source.file} leaves the data folder` })
  }
  yield* fs.makeDirectory(nodePath.dirname(target), { recursive: true })
  yield* writeAtomically(target, bytes)
  const unpacked: Array<string> = []
  for (const [name, content] of members) {
    const base = nodePath.posix.basename(name.replace(/\\/g, "/"))
    // Several members with one base name (READMEs in sub-folders): the first one wins.
    if (unpacked.includes(base) || !isFileName(base)) continue
    yield* writeAtomically(nodePath.join(dir, base), content)
    unpacked.push(base)
  }
  const entry: FetchedSource = {
    url: source.url,
    file: source.file,
    sha256: actual,
    verified: source.sha256 !== undefined,
    bytes: bytes.length,
    fetchedAt: new Date().toISOString(),
    unpacked
  }
  const next: Manifest = { sources: [...manifest.sources.filter((s) => s.url !== source.url), entry] }
  yield* writeAtomically(
    nodePath.join(dir, MANIFEST),
    new TextEncoder().encode(`${JSON.stringify(next, null, 2)}\n`)
  )
  return { source: entry, cached: false }
})

/**
 * Re-hash every cached download of an edition folder against its manifest (and the registry's
 * checksum when it has one).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sts2017")!
 * const checks = await Effect.runPromise(DataStore.verify(DataStore.goldDir(edition)!, edition.data!.sources).pipe(Effect.provide(NodeServices.layer)))
 * checks.filter((c) => c.status !== "ok") // missing or changed since fetched
 * ```
 * @since 0.1.0
 */
export const verify = Effect.fnUntraced(function*(dir: string, sources: ReadonlyArray<DataSource>) {
  const fs = yield* FileSystem.FileSystem
  const manifest = yield* readManifest(dir)
  const results: Array<{ url: string; file: string; status: "ok" | "missing" | "mismatch"; detail: string }> = []
  for (const source of sources) {
    const entry = manifest.sources.find((s) => s.url === source.url)
    const file = nodePath.join(dir, source.file)
    const exists = yield* fs.exists(file)
    if (entry === undefined || !exists) {
      results.push({ url: source.url, file: source.file, status: "missing", detail: "not fetched yet" })
      continue
    }
    const content = yield* Files.readFile(file, { maxBytes: MAX_DOWNLOAD_BYTES, what: "the cached download" }).pipe(Effect.result)
    if (content._tag === "Failure") {
      results.push({ url: source.url, file: source.file, status: "mismatch", detail: Files.detail(content.failure) })
      continue
    }
    const actual = sha256(content.success)
    const expected = source.sha256?.toLowerCase() ?? entry.sha256
    results.push(
      actual === expected
        ? { url: source.url, file: source.file, status: "ok", detail: source.sha256 !== undefined ? "matches the registry" : "matches the first download (no checksum in the registry)" }
        : { url: source.url, file: source.file, status: "mismatch", detail: `sha256 ${actual}, expected ${expected}` }
    )
  }
  return results
})

/**
 * One gold file of an edition and where it stands in the data store.
 *
 * @since 0.2.0
 */
export interface GoldFileStatus {
  /** the datasets the file serves (SICK's one gold file: relatedness and entailment) */
  readonly datasets: ReadonlyArray<string>
  readonly file: string
  /** present: a regular file is there (scoring will read it), whoever put it there */
  readonly status: "present" | "missing"
}

/**
 * Which of an edition's gold files are in the data store, and whether they match what was fetched.
 *
 * @since 0.2.0
 */
export interface EditionStatus {
  readonly edition: string
  /** `goldDir(edition, root)`: where scoring looks for the gold by default */
  readonly dir: string | undefined
  /** each gold file, where scoring reads it, with the datasets it serves */
  readonly gold: ReadonlyArray<GoldFileStatus>
  /** true when every dataset's gold file is there: scoring needs no `--gold` */
  readonly ready: boolean
  /** the registry's downloads, re-verified against the manifest (`verify`) */
  readonly sources: ReadonlyArray<{ url: string; file: string; status: "ok" | "missing" | "mismatch"; detail: string }>
}

/**
 * What scoring will find for an edition under a data root: each dataset's gold file at the path the
 * scoring engine reads (`<root>/<data.dir>/<gold>`), present whether fetched or placed by hand (a
 * copy of the public data under `$STSEVAL_DATA`), plus the re-verified downloads.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // what `stseval data status` prints for each edition
 * const status = await Effect.runPromise(DataStore.status(Registry.get("sts2017")!, "/data/stseval").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.2.0
 */
export const status = Effect.fnUntraced(function*(edition: TaskEdition, root: string = defaultRoot()) {
  const fs = yield* FileSystem.FileSystem
  const dir = goldDir(edition, root)
  const gold: Array<GoldFileStatus> = []
  for (const g of new Set(edition.datasets.map((d) => d.gold))) {
    const file = nodePath.join(dir ?? root, g)
    const info = yield* fs.stat(file).pipe(Effect.option)
    const datasets = edition.datasets.filter((d) => d.gold === g).map((d) => d.name)
    gold.push({ datasets, file, status: info._tag === "Some" && info.value.type === "File" ? "present" : "missing" })
  }
  const sources = dir !== undefined && edition.data !== undefined ? yield* verify(dir, edition.data.sources) : []
  return { edition: edition.id, dir, gold, ready: dir !== undefined && gold.every((g) => g.status === "present"), sources } satisfies EditionStatus
})
