/**
 * Bytes to lines, losslessly: BOM, CRLF / bare CR / mixed endings, missing final newline, trailing
 * blank lines, invalid UTF-8, binary or compressed data posing as text, and a size cap.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { Buffer, isUtf8 } from "node:buffer"
import { firstInvalidOffset, hexBytes, lineOfOffset } from "./internal/utf8.js"

/**
 * Files larger than this are refused before decoding (documented in docs/formats.md).
 *
 * @since 0.1.0
 */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024

/**
 * Files with more lines than this are refused before any line is decoded. The largest file of these
 * tasks has about 10,000 lines (the full SICK release); a million keeps the memory of the parsed
 * lines and rows bounded (docs/formats.md, "Size caps").
 *
 * @since 0.2.0
 */
export const DEFAULT_MAX_LINES = 1_000_000

/**
 * The line endings a file was found with.
 *
 * @since 0.1.0
 */
export type LineEnding = "lf" | "crlf" | "cr" | "mixed" | "none"

/**
 * A decoded text file. `lines[i]` is physical line `i + 1`, without its terminator and without the
 * BOM; the empty piece after a final newline is not a line. Trailing blank lines are kept (parsers
 * decide what they mean) and reported as an info issue.
 *
 * @since 0.1.0
 */
export interface TextFile {
  readonly file: string
  readonly lines: ReadonlyArray<string>
  readonly bom: boolean
  readonly lineEnding: LineEnding
  readonly finalNewline: boolean
}

/**
 * The bounds of a decoded file: bytes and lines.
 *
 * @since 0.1.0
 */
export interface DecodeOptions {
  readonly maxBytes?: number
  /** @since 0.2.0 */
  readonly maxLines?: number
}

/**
 * Decode a file's bytes. Never throws; a fatal problem (binary, compressed, invalid UTF-8, too
 * large, empty) gives `lines: []` and an error issue.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Text } from "@stseval/formats"
 *
 * // UTF-8 checked, BOM and line endings noted as issues, lines split
 * const { value, issues } = Text.decode(fs.readFileSync("STS.output.headlines.txt"), "STS.output.headlines.txt")
 * ```
 * @since 0.1.0
 */
export const decode = (bytes: Uint8Array, file: string, options?: DecodeOptions): Parsed<TextFile> => {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES
  const refuse = (issue: Issue.Issue, bom = false): Parsed<TextFile> => ({
    value: { file, lines: [], bom, lineEnding: "none", finalNewline: false },
    issues: [issue]
  })
  if (bytes.length > maxBytes) {
    return refuse(
      Issue.error("too-large", file, `the file has ${bytes.length} bytes, more than the limit of ${maxBytes}`, {
        expected: `at most ${maxBytes} bytes`,
        found: `${bytes.length} bytes`
      })
    )
  }
  if (bytes.length === 0) return refuse(Issue.error("empty-file", file, "the file is empty"))
  const compressed = compressedFormat(bytes)
  if (compressed !== undefined) {
    return refuse(
      Issue.error("compressed-file", file, `the file is ${compressed}-compressed data, not text; decompress it first`, {
        expected: "UTF-8 text",
        found: `${compressed} data (${hexBytes(bytes, 0)})`
      })
    )
  }
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  if (utf16) {
    return refuse(
      Issue.error("invalid-utf8", file, "the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8", {
        line: 1,
        expected: "UTF-8 text",
        found: `UTF-16 byte order mark (${hexBytes(bytes, 0, 2)})`
      })
    )
  }
  const nul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0)
  if (nul !== -1) {
    return refuse(
      Issue.error("binary-file", file, `the file holds binary data (a NUL byte at byte offset ${nul}), not text`, {
        line: lineOfOffset(bytes, nul),
        expected: "text without NUL bytes",
        found: `NUL byte at offset ${nul}`
      })
    )
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  const body = bom ? bytes.subarray(3) : bytes
  // Validated without building the text: a whole-file string (twice the bytes once one character
  // is outside Latin-1) plus its lines was most of the memory of reading a large file.
  if (!isUtf8(body)) {
    const at = firstInvalidOffset(body)
    const offset = (at === -1 ? 0 : at) + (bom ? 3 : 0)
    return refuse(
      Issue.error("invalid-utf8", file, `the file is not valid UTF-8: malformed byte sequence at byte offset ${offset}`, {
        line: lineOfOffset(bytes, offset),
        expected: "UTF-8 text",
        found: hexBytes(bytes, offset)
      }),
      bom
    )
  }
  const maxLines = options?.maxLines ?? DEFAULT_MAX_LINES
  const split = splitLines(body, maxLines)
  if (split === undefined) {
    return refuse(
      Issue.error("too-large", file, `the file has more than ${maxLines} lines, the limit; it was not read (the files of these tasks have at most tens of thousands)`, {
        expected: `at most ${maxLines} lines`,
        found: `more than ${maxLines} lines`
      }),
      bom
    )
  }
  const issues: Array<Issue.Issue> = []
  if (bom) issues.push(Issue.info("bom", file, "the UTF-8 byte order mark (BOM) at the start was removed", { line: 1 }))
  const { lines } = split
  let blankFrom = lines.length
  while (blankFrom > 0 && isBlank(lines[blankFrom - 1])) blankFrom--
  if (blankFrom === 0) {
    return {
      value: { file, lines: [], bom, lineEnding: "none", finalNewline: false },
      issues: [...issues, Issue.error("empty-file", file, body.length === 0 ? "the file is empty" : "the file holds only blank lines")]
    }
  }
  const { lf, crlf, cr } = split.counts
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0)
  const lineEnding: LineEnding = kinds === 0 ? "none" : kinds > 1 ? "mixed" : lf > 0 ? "lf" : crlf > 0 ? "crlf" : "cr"
  if (lineEnding === "crlf") {
    issues.push(Issue.info("crlf", file, "the file has Windows (CRLF) line endings"))
  } else if (lineEnding === "cr") {
    issues.push(Issue.info("bare-cr", file, "the file has old Mac (bare CR) line endings"))
  } else if (lineEnding === "mixed") {
    issues.push(
      Issue.info(
        "mixed-line-endings",
        file,
        `the file mixes line endings (${lf} LF, ${crlf} CRLF, ${cr} bare CR); the first change is at line ${split.firstChange}`,
        { line: split.firstChange, found: `${lf} LF, ${crlf} CRLF, ${cr} CR` }
      )
    )
  }
  if (!split.finalNewline) {
    issues.push(Issue.info("no-final-newline", file, "the last line has no line ending", { line: lines.length }))
  }
  if (blankFrom < lines.length) {
    const count = lines.length - blankFrom
    issues.push(
      Issue.info(
        "trailing-blank-lines",
        file,
        `the file ends with ${count} blank line${count === 1 ? "" : "s"} (from line ${blankFrom + 1})`,
        { line: blankFrom + 1, found: `${count} blank line${count === 1 ? "" : "s"}` }
      )
    )
  }
  return { value: { file, lines, bom, lineEnding, finalNewline: split.finalNewline }, issues }
}

/**
 * Decode a string as if it were a file's content (tests, in-memory data). The string is encoded as
 * UTF-8 first, so every check of `decode` applies.
 *
 * @example
 * ```ts
 * import { Text } from "@stseval/formats"
 *
 * const { value } = Text.fromString("4.6\n3.9\n", "STS.output.headlines.txt")
 * value.lines // ["4.6", "3.9"]
 * ```
 * @since 0.1.0
 */
export const fromString = (text: string, file: string, options?: DecodeOptions): Parsed<TextFile> =>
  decode(new TextEncoder().encode(text), file, options)

/**
 * The physical lines after the last non-blank one (trailing blank lines), as an index: lines at or
 * after it are blank. Parsers use it to ignore the padding `decode` reports as info.
 *
 * @example
 * ```ts
 * import { Text } from "@stseval/formats"
 *
 * Text.contentEnd(["4.6", "3.9", "", ""]) // 2: trailing blank lines are not content
 * ```
 * @since 0.1.0
 */
export const contentEnd = (lines: ReadonlyArray<string>): number => {
  let end = lines.length
  while (end > 0 && isBlank(lines[end - 1])) end--
  return end
}

/**
 * A line holding nothing but spaces and tabs.
 *
 * @example
 * ```ts
 * import { Text } from "@stseval/formats"
 *
 * Text.isBlank(" \t") // true
 * ```
 * @since 0.1.0
 */
export const isBlank = (line: string): boolean => /^[ \t]*$/.test(line)

// "binary data posing as text": NUL bytes never occur in the task files, so their presence in the
// first 8 KiB is a reliable sign (the same heuristic git and grep use).
const BINARY_SNIFF_BYTES = 8 * 1024

const startsWith = (bytes: Uint8Array, magic: ReadonlyArray<number>): boolean =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b)

/** The compression format whose magic number starts the bytes, if any. */
const compressedFormat = (bytes: Uint8Array): string | undefined => {
  if (startsWith(bytes, [0x1f, 0x8b])) return "gzip"
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return "zip"
  // "BZh" alone could start a sentence: require the block size digit and a block (or end) magic.
  if (
    startsWith(bytes, [0x42, 0x5a, 0x68]) &&
    bytes.length >= 10 &&
    bytes[3] >= 0x31 &&
    bytes[3] <= 0x39 &&
    (startsWith(bytes.subarray(4), [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) ||
      startsWith(bytes.subarray(4), [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]))
  ) return "bzip2"
  if (startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return "xz"
  if (startsWith(bytes, [0x28, 0xb5, 0x2f, 0xfd])) return "zstd"
  return undefined
}

interface Split {
  readonly lines: Array<string>
  readonly counts: { lf: number; crlf: number; cr: number }
  readonly finalNewline: boolean
  /** first line whose ending differs from the first line's ending (0 when none) */
  readonly firstChange: number
}

const LF = 10
const CR = 13

/**
 * Two linear passes over the bytes: count the lines (undefined past `maxLines`, before anything is
 * decoded), then decode each line on its own. LF, CRLF and bare CR each end a line (they never
 * occur inside a multi-byte UTF-8 sequence); the piece after a final ending is not a line.
 */
/**
 * Files up to this size are decoded whole and split natively (a few ms for the tasks' files; a
 * per-line decode costs a native call per line, most of a cold `stseval score`); larger ones line
 * by line, so that a file near the size cap never holds its whole text and its lines at once.
 */
const WHOLE_DECODE_BYTES = 16 * 1024 * 1024

const countOf = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0

/** The fast path of `splitLines`: one line-ending kind in the whole file (or none); else undefined. */
const splitWhole = (body: Uint8Array, maxLines: number): Split | "too-many" | undefined => {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8")
  if (text.indexOf("\r") === -1) {
    // LF endings only, or none: most files. One native split, and its pieces count the LFs (the
    // three pattern counts below cost about as much as the split; a fifth of reading a run file)
    const lines = text.split("\n")
    const lf = lines.length - 1
    const finalNewline = text.length > 0 && lines[lf] === ""
    if (finalNewline || text.length === 0) lines.pop()
    if (lines.length > maxLines) return "too-many"
    return { lines, counts: { lf, crlf: 0, cr: 0 }, finalNewline, firstChange: 0 }
  }
  const crlf = countOf(text, /\r\n/g)
  const cr = countOf(text, /\r(?!\n)/g)
  const lf = countOf(text, /(?<!\r)\n/g)
  if ((crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0) + (lf > 0 ? 1 : 0) > 1) return undefined
  const lines = text.split(crlf > 0 ? "\r\n" : cr > 0 ? "\r" : "\n")
  const finalNewline = text.length > 0 && lines[lines.length - 1] === ""
  if (finalNewline || text.length === 0) lines.pop()
  if (lines.length > maxLines) return "too-many"
  return { lines, counts: { lf, crlf, cr }, finalNewline, firstChange: 0 }
}

const splitLines = (body: Uint8Array, maxLines: number): Split | undefined => {
  if (body.length <= WHOLE_DECODE_BYTES) {
    const whole = splitWhole(body, maxLines)
    if (whole === "too-many") return undefined
    if (whole !== undefined) return whole
  }
  const n = body.length
  let count = 0
  for (let i = 0; i < n; i++) {
    const c = body[i]
    if (c === LF || c === CR) {
      if (c === CR && body[i + 1] === LF) i++
      if (++count > maxLines) return undefined
    }
  }
  const last = n > 0 && (body[n - 1] === LF || body[n - 1] === CR)
  if (!last && n > 0 && ++count > maxLines) return undefined
  // A view, not a copy: Buffer's native UTF-8 decoding of each line (the bytes are known valid).
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const lines = new Array<string>(count)
  const counts = { lf: 0, crlf: 0, cr: 0 }
  let firstKind = ""
  let firstChange = 0
  let start = 0
  let k = 0
  for (let i = 0; i < n; i++) {
    const c = body[i]
    if (c !== LF && c !== CR) continue
    let kind: "lf" | "crlf" | "cr"
    if (c === LF) kind = "lf"
    else if (i + 1 < n && body[i + 1] === LF) kind = "crlf"
    else kind = "cr"
    lines[k++] = buffer.toString("utf8", start, i)
    counts[kind]++
    if (firstKind === "") firstKind = kind
    else if (firstChange === 0 && kind !== firstKind) firstChange = k
    if (kind === "crlf") i++
    start = i + 1
  }
  const finalNewline = start === n && n > 0
  if (start < n) lines[k] = buffer.toString("utf8", start, n)
  return { lines, counts, finalNewline, firstChange }
}
