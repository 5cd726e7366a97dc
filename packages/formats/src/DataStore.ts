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
import { Effect, FileSystem, Schema } from "effect"
import { gunzipSync, unzipSync } from "fflate"

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

/** @since 0.1.0 */
export class DataFetchError extends Schema.TaggedError<DataFetchError>()("DataFetchError", {
  url: Schema.String,
  message: Schema.String
}) {}

/** @since 0.1.0 */
export class ChecksumMismatch extends Schema.TaggedError<ChecksumMismatch>()("ChecksumMismatch", {
  url: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {
  override get message() {
    return `${this.url}: SHA-256 is ${this.actual}, the registry expects ${this.expected}; nothing was cached`
  }
}

/** What the manifest records for one fetched source. @since 0.1.0 */
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

/** @since 0.1.0 */
export const Manifest = Schema.Struct({ sources: Schema.Array(FetchedSource) })
/** @since 0.1.0 */
export type Manifest = typeof Manifest.Type

/** The manifest's file name inside an edition's data folder. @since 0.1.0 */
export const MANIFEST = ".stseval-data.json"

/**
 * The data root: `$STSEVAL_DATA`, else `$XDG_CACHE_HOME/stseval`, else `~/.cache/stseval`.
 *
 * @since 0.1.0
 */
export const defaultRoot = (env: Record<string, string | undefined> = process.env): string =>
  env["STSEVAL_DATA"] ?? nodePath.join(env["XDG_CACHE_HOME"] ?? nodePath.join(os.homedir(), ".cache"), "stseval")

/** Hex SHA-256 of some bytes. @since 0.1.0 */
export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

// Archives are small (a few MiB); a cap keeps a hostile or wrong download from filling memory.
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024

const keepMember = (name: string): boolean => {
  const base = nodePath.posix.basename(name)
  return base !== "" && !base.startsWith(".") && !name.split("/").includes("__MACOSX") && !name.endsWith("/")
}

/**
 * Read the regular files of a (POSIX ustar / GNU) tar archive held in memory.
 *
 * Hand-written because fflate (already used for zip and gzip) has no tar reader and the npm tar
 * packages are stream- and file-system-oriented; the subset needed here — regular files of a
 * gzip-ed tarball in memory — is the 512-byte header walk below.
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
 *
 * @since 0.1.0
 */
export const unpack = (file: string, bytes: Uint8Array): Map<string, Uint8Array> => {
  const lower = file.toLowerCase()
  let members: Map<string, Uint8Array>
  if (lower.endsWith(".zip")) {
    let total = 0
    members = new Map(
      Object.entries(
        unzipSync(bytes, {
          filter: (f) => {
            total += f.originalSize
            if (total > MAX_UNPACKED_BYTES) throw new Error(`${file}: unpacks to more than ${MAX_UNPACKED_BYTES} bytes`)
            return keepMember(f.name)
          }
        })
      )
    )
  } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
    members = untar(gunzipSync(bytes))
  } else if (lower.endsWith(".gz")) {
    members = new Map([[file.slice(0, -3), gunzipSync(bytes)]])
  } else {
    return new Map()
  }
  return new Map([...members].filter(([name]) => keepMember(name)))
}

/** @since 0.1.0 */
export interface FetchOptions {
  /** fetch implementation (tests pass their own); defaults to the global `fetch` */
  readonly fetch?: typeof globalThis.fetch
  /** re-download even when the manifest says the file is there */
  readonly force?: boolean
}

const download = (url: string, fetchImpl: typeof globalThis.fetch) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetchImpl(url)
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`)
      return new Uint8Array(await response.arrayBuffer())
    },
    catch: (cause) =>
      new DataFetchError({ url, message: `${url}: ${cause instanceof Error ? cause.message : String(cause)}` })
  })

/**
 * Read an edition folder's manifest (an empty one when there is none or it is unreadable).
 *
 * @since 0.1.0
 */
export const readManifest = Effect.fnUntraced(function*(dir: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(nodePath.join(dir, MANIFEST)).pipe(Effect.orElseSucceed(() => ""))
  if (text === "") return { sources: [] } satisfies Manifest
  return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(Manifest))(text).pipe(
    Effect.orElseSucceed((): Manifest => ({ sources: [] }))
  )
})

const writeAtomically = Effect.fnUntraced(function*(file: string, bytes: Uint8Array) {
  const fs = yield* FileSystem.FileSystem
  const tmp = `${file}.${process.pid}.tmp`
  yield* fs.writeFile(tmp, bytes)
  yield* fs.rename(tmp, file)
})

/**
 * Fetch one source into `dir`: download, verify, unpack, then record it in the manifest. Nothing is
 * written when the checksum does not match.
 *
 * @since 0.1.0
 */
export const fetchSource = Effect.fnUntraced(function*(dir: string, source: DataSource, options: FetchOptions = {}) {
  const fs = yield* FileSystem.FileSystem
  const manifest = yield* readManifest(dir)
  const known = manifest.sources.find((s) => s.url === source.url)
  if (known !== undefined && options.force !== true) {
    const present = yield* fs.exists(nodePath.join(dir, known.file))
    if (present) return { source: known, cached: true }
  }
  const bytes = yield* download(source.url, options.fetch ?? globalThis.fetch)
  const actual = sha256(bytes)
  if (source.sha256 !== undefined && source.sha256.toLowerCase() !== actual) {
    return yield* new ChecksumMismatch({ url: source.url, expected: source.sha256.toLowerCase(), actual })
  }
  const members = yield* Effect.try({
    try: () => unpack(source.file, bytes),
    catch: (cause) => new DataFetchError({ url: source.url, message: `${source.url}: cannot unpack ${source.file}: ${String(cause)}` })
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
    const base = nodePath.posix.basename(name)
    // Several members with one base name (READMEs in sub-folders): the first one wins.
    if (unpacked.includes(base)) continue
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
    const actual = sha256(yield* fs.readFile(file))
    const expected = source.sha256?.toLowerCase() ?? entry.sha256
    results.push(
      actual === expected
        ? { url: source.url, file: source.file, status: "ok", detail: source.sha256 !== undefined ? "matches the registry" : "matches the first download (no checksum in the registry)" }
        : { url: source.url, file: source.file, status: "mismatch", detail: `sha256 ${actual}, expected ${expected}` }
    )
  }
  return results
})
