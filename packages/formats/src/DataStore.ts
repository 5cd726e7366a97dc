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
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Buffer } from "node:buffer"
import * as zlib from "node:zlib"
import { realpath } from "node:fs/promises"
import { Effect, FileSystem, Schema } from "effect"
import * as Files from "./Files.js"
import * as Zip from "./internal/zip.js"
import { isFileName, isRelativePath } from "./Registry.js"
import type { TaskEdition } from "./Registry.js"

/**
 * One downloadable file of an edition.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * const source: DataStore.DataSource = { url: "https://example.org/sts2017.eval.v1.1.zip", sha256: "9f3e...", file: "sts2017.eval.v1.1.zip" }
 * ```
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
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", Registry.get("sts2017")!.data!.sources[0]).pipe(
 *   Effect.catchTag("DataFetchError", (e: DataStore.DataFetchError) => Effect.fail(`${e.url}: ${e.message}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class DataFetchError extends Schema.TaggedError<DataFetchError>()("DataFetchError", {
  url: Schema.String,
  message: Schema.String
}) {}

/**
 * A download or folder that would be written outside the data root (an edition file whose
 * `sources[].file` or `data.dir` climbs out). Nothing is written.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", Registry.get("sts2017")!.data!.sources[0], { root: "/data/stseval" }).pipe(
 *   Effect.catchTag("DataPathError", (e: DataStore.DataPathError) => Effect.fail(`${e.path}: ${e.message}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class DataPathError extends Schema.TaggedError<DataPathError>()("DataPathError", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sts2017")!
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", edition.data!.sources[0]).pipe(
 *   Effect.catchTag("ChecksumMismatch", (e: DataStore.ChecksumMismatch) => Effect.fail(`${e.url}: expected ${e.expected}, got ${e.actual}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class ChecksumMismatch extends Schema.TaggedError<ChecksumMismatch>()("ChecksumMismatch", {
  url: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {
  override get message() {
    return `${this.url}: SHA-256 is ${this.actual}, the registry expects ${this.expected}; nothing was cached`
  }
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
 * @example
 * ```ts
 * import * as path from "node:path"
 * import { DataStore } from "@stseval/formats"
 *
 * const manifest = path.join(DataStore.defaultRoot(), "sts2017", DataStore.MANIFEST) // what was fetched, with its hashes
 * ```
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
 * What one download may unpack to, counted as it is produced (zip, tar.gz and gz alike). The
 * archives of the tasks are a few MiB; a cap keeps a hostile or wrong download from filling memory
 * or the disk.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * const cap: number = DataStore.MAX_UNPACKED_BYTES // what one archive may unpack to
 * ```
 * @since 0.2.0
 */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024

/**
 * What one download may be (the bytes received, counted as they arrive).
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * const cap: number = DataStore.MAX_DOWNLOAD_BYTES // a larger download is stopped, not stored
 * ```
 * @since 0.2.0
 */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024

/**
 * How long a server may stay silent (connecting, or between two pieces of the body).
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * const timeout: number = DataStore.DEFAULT_TIMEOUT_MS // 60 s per download
 * ```
 * @since 0.2.0
 */
export const DEFAULT_TIMEOUT_MS = 60_000

/**
 * How long one download may take in all: a server that sends a byte now and then is never silent
 * for long, and would otherwise hold the command for ever. The tasks' archives take seconds.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * DataStore.DEFAULT_TOTAL_TIMEOUT_MS // 900000: 15 minutes per download, unless `FetchOptions.totalTimeoutMs` says otherwise
 * ```
 * @since 0.2.0
 */
export const DEFAULT_TOTAL_TIMEOUT_MS = 15 * 60_000

const keepMember = (name: string): boolean => {
  const base = nodePath.posix.basename(name)
  return base !== "" && !base.startsWith(".") && !name.split("/").includes("__MACOSX") && !name.endsWith("/")
}

/**
 * Read the regular files of a (POSIX ustar / GNU) tar archive held in memory.
 *
 * Hand-written because fflate has no tar reader and the npm tar
 * packages are stream- and file-system-oriented; the subset needed here — regular files of a
 * gzip-ed tarball in memory — is the 512-byte header walk below.
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { DataStore } from "@stseval/formats"
 *
 * const files = DataStore.untar(fs.readFileSync("stsbenchmark.tar")) // path -> bytes
 * ```
 * @since 0.1.0
 */
export const untar = (bytes: Uint8Array): Map<string, Uint8Array> => {
  const files = new Map<string, Uint8Array>()
  const text = (from: number, length: number) => {
    let end = from
    while (end < from + length && bytes[end] !== 0) end++
    return new TextDecoder().decode(bytes.subarray(from, end))
  }
  let offset = 0
  let longName: string | undefined
  while (offset + 512 <= bytes.length) {
    if (bytes[offset] === 0) break // two zero blocks end the archive
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8)
    if (!Number.isFinite(size) || size < 0) throw new Error(`tar: bad size field at byte ${offset}`)
    const type = String.fromCharCode(bytes[offset + 156] ?? 0)
    const prefix = text(offset + 345, 155)
    const name = longName ?? (prefix !== "" ? `${prefix}/${text(offset, 100)}` : text(offset, 100))
    longName = undefined
    const body = offset + 512
    if (body + size > bytes.length) throw new Error(`tar: ${name} is cut short`)
    if (type === "L") longName = text(body, size) // GNU long name for the next entry
    else if (type === "0" || type === "\0") files.set(name, bytes.slice(body, body + size))
    offset = body + Math.ceil(size / 512) * 512
  }
  return files
}

/**
 * The members of a downloaded file, by archive format (zip, tar.gz / tgz, gz), or the file itself.
 * Throws when the archive unpacks to more than `maxBytes` (counted while inflating: inflating stops
 * there) or is damaged.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { DataStore } from "@stseval/formats"
 *
 * // zip, tar.gz or gz, by the name; stops past the cap instead of filling the disk
 * const files = DataStore.unpack("Stsbenchmark.tar.gz", fs.readFileSync("Stsbenchmark.tar.gz"))
 * ```
 * @since 0.1.0
 */
export const unpack = (file: string, bytes: Uint8Array, maxBytes: number = MAX_UNPACKED_BYTES): Map<string, Uint8Array> => {
  const lower = file.toLowerCase()
  const tooLarge = (cause: unknown) => new Error(`${file}: unpacks to more than ${maxBytes} bytes; it was not unpacked`, { cause })
  const gunzip = (data: Uint8Array): Uint8Array => {
    try {
      return zlib.gunzipSync(data, { maxOutputLength: maxBytes })
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(e)
      throw e
    }
  }
  let members: Map<string, Uint8Array>
  if (lower.endsWith(".zip")) {
    members = new Map()
    let total = 0
    try {
      for (const entry of Zip.entries(bytes, MAX_ARCHIVE_ENTRIES)) {
        if (!keepMember(entry.name)) continue
        const content = Zip.unpack(bytes, entry, maxBytes - total, maxBytes)
        total += content.length
        members.set(entry.name, content)
      }
    } catch (e) {
      if (e instanceof Zip.ZipError) throw new Error(`${file}: ${e.message}`, { cause: e })
      throw e
    }
  } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
    members = untar(gunzip(bytes))
  } else if (lower.endsWith(".gz")) {
    members = new Map([[file.slice(0, -3), gunzip(bytes)]])
  } else {
    return new Map()
  }
  return new Map([...members].filter(([name]) => keepMember(name)))
}

// The task archives hold tens of files; a zip with more entries than this is not one of them.
const MAX_ARCHIVE_ENTRIES = 10_000

/**
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * // a fetch of one's own (a proxy, a test double); force: download again even when verified
 * const options: DataStore.FetchOptions = { force: true, timeoutMs: 120_000 }
 * ```
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

/** What to do instead when a download cannot be made. */
const INSTEAD = "check the network, or use a copy of the data: give the gold with --gold <path>, or point STSEVAL_DATA=<folder> at a data root holding it"

/** The operating system's reason behind undici's bare "fetch failed". */
const causeOf = (e: unknown): string => {
  const cause = e instanceof Error ? (e as Error & { cause?: unknown }).cause : undefined
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  const detail = cause instanceof Error ? cause.message : undefined
  return [e instanceof Error ? e.message : String(e), code !== undefined && detail?.includes(code) !== true ? code : undefined, detail]
    .filter((x) => x !== undefined && x !== "")
    .join(": ")
}

class Silent extends Error {}
class TooSlow extends Error {}

/**
 * Download with an idle timeout (no answer, or no new bytes, for `timeoutMs`), a limit on the
 * whole download's time (`totalMs`) and a cap on the bytes received.
 */
const download = (url: string, fetchImpl: typeof globalThis.fetch, timeoutMs: number, totalMs: number) =>
  Effect.tryPromise({
    try: async (signal) => {
      const controller = new AbortController()
      const abort = () => controller.abort(new Silent())
      signal.addEventListener("abort", () => controller.abort(signal.reason))
      let timer = setTimeout(abort, timeoutMs)
      const total = setTimeout(() => controller.abort(new TooSlow()), totalMs)
      const idle = () => {
        clearTimeout(timer)
        timer = setTimeout(abort, timeoutMs)
      }
      try {
        const response = await fetchImpl(url, { signal: controller.signal })
        if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`)
        if (response.body === null) return new Uint8Array(0)
        const chunks: Array<Uint8Array> = []
        let total = 0
        const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader()
        for (;;) {
          idle()
          const { done, value } = await reader.read()
          if (done) break
          total += value.length
          if (total > MAX_DOWNLOAD_BYTES) {
            await reader.cancel()
            throw new Error(`the download is larger than ${MAX_DOWNLOAD_BYTES} bytes; it was stopped`)
          }
          chunks.push(value)
        }
        const out = Buffer.concat(chunks, total)
        return new Uint8Array(out.buffer, out.byteOffset, out.length)
      } catch (e) {
        if (controller.signal.reason instanceof Silent) {
          throw new Error(`no answer for ${timeoutMs / 1000} s (the server does not respond); ${INSTEAD}`, { cause: e })
        }
        if (controller.signal.reason instanceof TooSlow) {
          throw new Error(`the download took more than ${totalMs / 1000} s in all (the server sends too slowly); it was stopped; ${INSTEAD}`, { cause: e })
        }
        throw e
      } finally {
        clearTimeout(timer)
        clearTimeout(total)
      }
    },
    catch: (cause) => {
      const message = causeOf(cause)
      return new DataFetchError({
        url,
        message: message.startsWith("no answer") || message.startsWith("HTTP ") || message.startsWith("the download")
          ? `${url}: ${message}`
          : `${url}: cannot download (${message}); ${INSTEAD}`
      })
    }
  })

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
  const bytes = yield* download(source.url, options.fetch ?? globalThis.fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS)
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
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * declare const status: DataStore.EditionStatus
 * const missing: ReadonlyArray<DataStore.GoldFileStatus> = status.gold.filter((g) => g.status === "missing")
 * ```
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
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const status: DataStore.EditionStatus = await Effect.runPromise(DataStore.status(Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
 * status.ready // every gold file there and verified
 * ```
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
