/**
 * Reading a zip held in memory, safely: the central directory is walked by hand and every member
 * is unpacked with a budget of bytes **actually produced**.
 *
 * Hand-written because the libraries at hand trust the archive: fflate's `unzipSync` sizes its
 * output by the *declared* uncompressed size (a stored member declaring 0 bytes is copied whole; a
 * deflated one declaring 10 bytes is silently cut to 10), and neither it nor yauzl notices central
 * directory entries that point at the same bytes (500 entries on one 20 MB member unpack to 10 GB).
 * Inflating is node:zlib's (`maxOutputLength` stops it as soon as the budget is spent); the walk
 * itself is the APPNOTE 6.3 layout (end of central directory, optional ZIP64 record, central and
 * local headers).
 *
 * @internal
 */
import * as zlib from "node:zlib"
import { Schema } from "effect"

/** One member of the archive, as its central directory entry describes it. */
export interface ZipEntry {
  readonly name: string
  readonly flags: number
  readonly method: number
  readonly crc: number
  readonly compressedSize: number
  readonly size: number
  readonly localOffset: number
}

/**
 * Why a zip (or one of its entries) was refused: a user's file, so an expected failure. The walk is
 * synchronous and throws it; its callers (`runZip`, the data store's `archive`) catch it by class.
 */
export class ZipError extends Schema.TaggedError<ZipError>()("ZipError", {
  kind: Schema.Literals(["unreadable", "too-large", "unsafe", "encrypted"]),
  message: Schema.String
}) {}

const fail = (kind: ZipError["kind"], message: string): never => {
  throw new ZipError({ kind, message })
}

const EOCD = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_EOCD = 0x06064b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8)
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0
// Offsets and sizes up to 2^53 are exact; a zip beyond that is refused as too large anyway.
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32

const need = (bytes: Uint8Array, at: number, length: number, what: string): void => {
  if (at < 0 || at + length > bytes.length) fail("unreadable", `${what} lies past the end of the file (the zip is cut short or damaged)`)
}

/**
 * The longest entry name read (bytes): no file system takes a path longer than 4,096 bytes
 * (Linux's PATH_MAX), so a longer name is no file of a run, only a way to fill every output that
 * quotes it; it is refused before any name is decoded.
 */
export const MAX_NAME_BYTES = 4096

const utf8 = new TextDecoder("utf-8")
const latin1 = new TextDecoder("latin1")

/**
 * The central directory: every entry, checked for what can be checked without unpacking (entry
 * count, encryption, methods, overlapping or out-of-range members).
 */
export const entries = (
  bytes: Uint8Array,
  maxEntries: number,
  /** `keep`: entries of one name are all returned, in order (Codabench up to v1.22 writes a file as several) */
  duplicates: "refuse" | "keep" = "refuse",
  /** the most bytes all entry names may take together (the caller's byte cap) */
  maxNameBytes: number = Number.POSITIVE_INFINITY
): ReadonlyArray<ZipEntry> => {
  // The end-of-central-directory record is in the last 22 + 65535 (comment) bytes.
  let eocd = -1
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(bytes, i) === EOCD) {
      eocd = i
      break
    }
  }
  if (eocd === -1) fail("unreadable", "it has no zip directory at its end (not a zip, or cut short while uploading)")
  let count = u16(bytes, eocd + 10)
  let cdSize = u32(bytes, eocd + 12)
  let cdOffset = u32(bytes, eocd + 16)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20
    if (locator >= 0 && u32(bytes, locator) === ZIP64_LOCATOR) {
      const record = u64(bytes, locator + 8)
      need(bytes, record, 56, "the ZIP64 directory record")
      if (u32(bytes, record) !== ZIP64_EOCD) fail("unreadable", "its ZIP64 directory record is damaged")
      count = u64(bytes, record + 32)
      cdSize = u64(bytes, record + 40)
      cdOffset = u64(bytes, record + 48)
    }
  }
  if (count > maxEntries) {
    fail("too-large", `it holds ${count} entries, more than the ${maxEntries} a run may have; it was not unpacked`)
  }
  need(bytes, cdOffset, cdSize, "the zip directory")
  const out: Array<ZipEntry> = []
  let nameBytes = 0
  let at = cdOffset
  for (let k = 0; k < count; k++) {
    need(bytes, at, 46, "a zip directory entry")
    if (u32(bytes, at) !== CENTRAL) fail("unreadable", "its directory is damaged")
    const flags = u16(bytes, at + 8)
    const method = u16(bytes, at + 10)
    const crc = u32(bytes, at + 16)
    let compressedSize = u32(bytes, at + 20)
    let size = u32(bytes, at + 24)
    const nameLength = u16(bytes, at + 28)
    const extraLength = u16(bytes, at + 30)
    const commentLength = u16(bytes, at + 32)
    let localOffset = u32(bytes, at + 42)
    need(bytes, at + 46, nameLength + extraLength + commentLength, "a zip directory entry")
    if (nameLength > MAX_NAME_BYTES) {
      fail("too-large", `it has an entry name of ${nameLength} bytes, more than the ${MAX_NAME_BYTES} a path may have; it was not unpacked`)
    }
    // names count against the zip's byte cap, as its members do (990 names of 60,000 bytes are 59 MB)
    nameBytes += nameLength
    if (nameBytes > maxNameBytes) {
      fail("too-large", `its entry names alone take more than ${maxNameBytes} bytes; it was not unpacked`)
    }
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength)
    // Bit 11: the name is UTF-8; otherwise CP437, of which run file names use the ASCII part.
    const name = (flags & 0x800) !== 0 ? utf8.decode(rawName) : latin1.decode(rawName)
    // ZIP64 extra field: the 64-bit values of the fields set to 0xffffffff, in this order.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(bytes, e)
      const length = u16(bytes, e + 2)
      if (id === 0x0001) {
        let p = e + 4
        if (size === 0xffffffff) {
          size = u64(bytes, p)
          p += 8
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(bytes, p)
          p += 8
        }
        if (localOffset === 0xffffffff) localOffset = u64(bytes, p)
      }
      e += 4 + length
    }
    out.push({ name, flags, method, crc, compressedSize, size, localOffset })
    at += 46 + nameLength + extraLength + commentLength
  }
  // Members must not share bytes: central entries pointing at one member are a bomb, not a zip.
  const spans = out
    .map((e) => ({ e, start: e.localOffset, end: dataStart(bytes, e) + e.compressedSize }))
    .sort((a, b) => a.start - b.start)
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]
    if (s.end > cdOffset) fail("unsafe", `the entry "${s.e.name}" runs into the zip directory (a damaged or crafted zip); it was not unpacked`)
    const next = spans[i + 1]
    if (next !== undefined && next.start < s.end) {
      fail(
        "unsafe",
        `the entries "${s.e.name}" and "${next.e.name}" overlap (they point at the same bytes, the shape of a zip bomb); it was not unpacked`
      )
    }
  }
  // Two entries of one name: which one is the file is not ours to guess (an unzip tool keeps one or
  // the other, or asks), and taking the second silently would score a file the author may not see.
  const names = new Set<string>()
  for (const e of duplicates === "keep" ? [] : out) {
    if (e.name.endsWith("/") || e.name.endsWith("\\")) continue
    if (names.has(e.name)) fail("unsafe", `two of its entries are named "${e.name}", so which one is meant is ambiguous; it was not unpacked`)
    names.add(e.name)
  }
  return out
}

/** Offset of a member's data, after its local header (whose name and extra lengths may differ from the central ones). */
const dataStart = (bytes: Uint8Array, e: ZipEntry): number => {
  need(bytes, e.localOffset, 30, `the entry "${e.name}"`)
  if (u32(bytes, e.localOffset) !== LOCAL) fail("unreadable", `the entry "${e.name}" is damaged (no local header where the directory says)`)
  const start = e.localOffset + 30 + u16(bytes, e.localOffset + 26) + u16(bytes, e.localOffset + 28)
  need(bytes, start, e.compressedSize, `the entry "${e.name}"`)
  return start
}

/** True when the entry is encrypted (traditional PKWARE bit 0, or AES, method 99). */
export const isEncrypted = (e: ZipEntry): boolean => (e.flags & 1) !== 0 || e.method === 99

/**
 * Unpack one member with at most `budget` bytes of output. Stored members are copied (their real
 * size counts, whatever they declare); deflated ones are inflated with node:zlib's
 * `maxOutputLength`, which stops as soon as the budget is spent. The output must have the declared
 * size and CRC-32.
 */
export const unpack = (bytes: Uint8Array, e: ZipEntry, budget: number, cap: number): Uint8Array => {
  if (isEncrypted(e)) {
    fail("encrypted", `the zip is encrypted (entry "${e.name}" needs a password); send it without a password`)
  }
  const start = dataStart(bytes, e)
  const data = bytes.subarray(start, start + e.compressedSize)
  let out: Uint8Array
  if (e.method === 0) {
    if (data.length > budget) fail("too-large", `it unpacks to more than ${cap} bytes; it was not unpacked`)
    out = data.slice()
  } else if (e.method === 8) {
    // Inflating stops at the declared size (or the budget, if smaller): a member that would go on
    // is a lie or too large, and nothing past that point is produced.
    const limit = Math.min(e.size, budget)
    try {
      out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, limit) })
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") {
        return fail("unreadable", `the entry "${e.name}" is damaged (${(error as Error).message})`)
      }
      return e.size > budget
        ? fail("too-large", `it unpacks to more than ${cap} bytes; it was not unpacked`)
        : fail("unsafe", `the entry "${e.name}" declares ${e.size} bytes but unpacks to more (a damaged or crafted zip); it was not unpacked`)
    }
    if (out.length > budget) fail("too-large", `it unpacks to more than ${cap} bytes; it was not unpacked`)
  } else {
    return fail("unreadable", `the entry "${e.name}" uses compression method ${e.method}; only stored (0) and deflate (8) are read`)
  }
  if (out.length !== e.size) {
    fail("unsafe", `the entry "${e.name}" declares ${e.size} bytes but holds ${out.length} (a damaged or crafted zip); it was not unpacked`)
  }
  if (typeof zlib.crc32 === "function" && zlib.crc32(out) !== e.crc) {
    fail("unreadable", `the entry "${e.name}" is damaged (its CRC-32 does not match)`)
  }
  return out
}
