/**
 * Locating the first malformed UTF-8 sequence.
 *
 * Hand-written because `TextDecoder` (fatal) only says *that* the bytes are invalid, not *where*;
 * this runs only after the decoder has refused the file, in one linear pass (RFC 3629 table 3-7:
 * no overlongs, no surrogates, nothing above U+10FFFF).
 *
 * @internal
 */

/** Byte offset of the first byte of the first malformed sequence at or after `start`, or -1. */
export const firstInvalidOffset = (bytes: Uint8Array, start = 0): number => {
  const n = bytes.length
  let i = start
  while (i < n) {
    const c = bytes[i]
    if (c < 0x80) {
      i++
      continue
    }
    let need: number
    let lo = 0x80
    let hi = 0xbf
    if (c >= 0xc2 && c <= 0xdf) need = 1
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2
      if (c === 0xe0) lo = 0xa0
      else if (c === 0xed) hi = 0x9f
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3
      if (c === 0xf0) lo = 0x90
      else if (c === 0xf4) hi = 0x8f
    } else return i
    // the sequence is cut short by the end of the file
    if (i + need >= n) return i
    const b1 = bytes[i + 1]
    if (b1 < lo || b1 > hi) return i
    for (let k = 2; k <= need; k++) {
      if ((bytes[i + k] & 0xc0) !== 0x80) return i
    }
    i += need + 1
  }
  return -1
}

/** 1-based line of a byte offset (LF, CRLF and bare CR each end a line). */
export const lineOfOffset = (bytes: Uint8Array, offset: number): number => {
  let line = 1
  for (let i = 0; i < offset && i < bytes.length; i++) {
    const c = bytes[i]
    if (c === 0x0a) line++
    else if (c === 0x0d && bytes[i + 1] !== 0x0a) line++
  }
  return line
}

/** Up to `count` bytes from `offset`, as hex (`0xc3 0x28`). */
export const hexBytes = (bytes: Uint8Array, offset: number, count = 4): string =>
  Array.from(bytes.subarray(offset, offset + count), (b) => `0x${b.toString(16).padStart(2, "0")}`).join(" ")
