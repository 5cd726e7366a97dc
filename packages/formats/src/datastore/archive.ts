/** A download's members: zip, tar.gz / tgz and gz read in memory, capped while inflating. */
import * as nodePath from "node:path"
import * as zlib from "node:zlib"
import { Schema } from "effect"
import * as Zip from "../internal/zip.js"

/**
 * An archive that cannot be unpacked: damaged, or larger unpacked than allowed. `untar` and
 * `unpack` throw it (they are synchronous); `fetchSource` turns it into a `DataFetchError`.
 *
 * @example
 * ```ts
 * import { DataStore } from "@stseval/formats"
 *
 * try {
 *   DataStore.untar(new Uint8Array(1024).fill(57))
 * } catch (e) {
 *   if (e instanceof DataStore.ArchiveError) console.error(e.message) // "tar: bad size field at byte 0"
 * }
 * ```
 * @since 0.4.0
 */
export class ArchiveError extends Schema.TaggedError<ArchiveError>()("ArchiveError", {
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Unknown)
}) {}

/**
 * What one download may unpack to, counted as it is produced (zip, tar.gz and gz alike). The
 * archives of the tasks are a few MiB; a cap keeps a hostile or wrong download from filling memory
 * or the disk.
 *
 * @since 0.2.0
 */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024

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
    if (!Number.isFinite(size) || size < 0) throw new ArchiveError({ message: `tar: bad size field at byte ${offset}` })
    const type = String.fromCharCode(bytes[offset + 156] ?? 0)
    const prefix = text(offset + 345, 155)
    const name = longName ?? (prefix !== "" ? `${prefix}/${text(offset, 100)}` : text(offset, 100))
    longName = undefined
    const body = offset + 512
    if (body + size > bytes.length) throw new ArchiveError({ message: `tar: ${name} is cut short` })
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
  const tooLarge = (cause: unknown) => new ArchiveError({ message: `${file}: unpacks to more than ${maxBytes} bytes; it was not unpacked`, cause })
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
      if (e instanceof Zip.ZipError) throw new ArchiveError({ message: `${file}: ${e.message}`, cause: e })
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
