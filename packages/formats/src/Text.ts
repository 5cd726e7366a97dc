/**
 * Bytes to lines, losslessly: BOM, CRLF / bare CR / mixed endings, missing final newline, trailing
 * blank lines, invalid UTF-8, binary or compressed data posing as text, and a size cap.
 *
 * @since 0.1.0
 */
import type { Parsed } from "./Issue.js"

/** Files larger than this are refused before decoding (documented in docs/formats.md). @since 0.1.0 */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024

/** @since 0.1.0 */
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

/** @since 0.1.0 */
export interface DecodeOptions {
  readonly maxBytes?: number
}

/**
 * Decode a file's bytes. Never throws; a fatal problem (binary, compressed, invalid UTF-8, too
 * large, empty) gives `lines: []` and an error issue.
 *
 * @since 0.1.0
 */
export declare const decode: (bytes: Uint8Array, file: string, options?: DecodeOptions) => Parsed<TextFile>
