/**
 * Reading one numeric field the way the task files write them.
 *
 * Hand-written instead of `Number(s)` / `parseFloat(s)`: `Number` accepts `""`, `"0x1f"` and
 * `"Infinity"`, and `parseFloat` reads `"3.2abc"` as 3.2 — exactly the silent acceptance the old
 * scorers were criticised for. Only plain decimal notation (with an optional exponent) is a number.
 *
 * @internal
 */

export type NumberField =
  | { readonly _tag: "number"; readonly value: number }
  | { readonly _tag: "missing" }
  | { readonly _tag: "not-a-number" }
  | { readonly _tag: "non-finite" }

const ZERO = 48
const NINE = 57
const DOT = 46
const PLUS = 43
const MINUS = 45

/**
 * Whether `s` can be a number in plain decimal notation, judging by its ends: it starts with a digit,
 * `.`, `+` or `-`, ends with a digit or `.`, and is not `0x` / `0o` / `0b` something. Such a string
 * is a plain decimal number — `/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/` — exactly when
 * `Number` reads it (is not NaN): what `Number` accepts beyond that grammar is surrounding white
 * space, `Infinity` and the `0x` / `0o` / `0b` literals (ECMA-262, StringToNumber and its
 * StringNumericLiteral grammar), all excluded here. A test checks the two agree.
 *
 * Instead of that pattern: a backtracking regular expression engine tries every way of splitting a
 * run of digits between `\d+` and `\d*`, which is quadratic on a long run of digits ending in a
 * bad character (20,000 digits and an `x`: 0.9 s; 160,000: 52 s). `Number` reads a string in one
 * left-to-right pass (a million digits: under a millisecond), and it is read anyway for the value,
 * so the check costs two character looks.
 */
const plainEnds = (s: string): boolean => {
  const n = s.length
  if (n === 0) return false
  const first = s.charCodeAt(0)
  const last = s.charCodeAt(n - 1)
  if (!((first >= ZERO && first <= NINE) || first === DOT || first === PLUS || first === MINUS)) return false
  if (!((last >= ZERO && last <= NINE) || last === DOT)) return false
  if (first === ZERO && n > 2) {
    const prefix = s.charCodeAt(1) | 0x20 // lower case
    if (prefix === 0x78 || prefix === 0x6f || prefix === 0x62) return false // x, o, b
  }
  return true
}

/** True when `s` is a number in plain decimal notation (overflowing to infinity included). */
export const isDecimal = (s: string): boolean => plainEnds(s) && !Number.isNaN(Number(s))
const NON_FINITE = /^[+-]?(?:nan|inf|infinity)$/i

/** Parse a field (surrounding spaces and tabs ignored). */
export const parseNumber = (raw: string): NumberField => {
  const s = raw.trim()
  if (s === "") return { _tag: "missing" }
  const value = plainEnds(s) ? Number(s) : Number.NaN
  if (!Number.isNaN(value)) return Number.isFinite(value) ? { _tag: "number", value } : { _tag: "non-finite" }
  if (NON_FINITE.test(s)) return { _tag: "non-finite" }
  return { _tag: "not-a-number" }
}

/**
 * The value of a field that is a finite number in plain decimal notation with nothing around it,
 * else NaN (then `parseNumber` says what is wrong): the common case of a score line, without
 * `parseNumber`'s trim and result object, for parsers that read hundreds of thousands of lines.
 */
export const plainNumber = (raw: string): number => {
  if (!plainEnds(raw)) return Number.NaN
  const value = Number(raw)
  return Number.isFinite(value) ? value : Number.NaN
}

/** The shortest text that reads back as the same double (`-0` kept). */
export const formatNumber = (n: number): string => (Object.is(n, -0) ? "-0" : String(n))

const LF = 10

/** 10^0 .. 10^22: the powers of ten a double holds exactly. */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`))

/**
 * The values of a file of LF-ended lines, each a plain decimal number that converts exactly the
 * short way, else undefined (the caller then reads the text, with `plainNumber`): a line is an
 * optional sign, digits with at most one `.`, at least one digit, at most 15 significant digits and
 * 22 after the point; the file ends with a LF; at most `maxLines` lines. Such a number is
 * m / 10^k with m < 10^15 < 2^53 and 10^k exact, so one correctly rounded division gives the
 * correctly rounded value of the decimal, the very double `Number` gives (Clinger's fast path;
 * ECMA-262 requires `Number` to round correctly). One pass over the bytes and no string: for
 * readers of many runs of short score lines. `expected`: the likely number of lines (the gold's),
 * the size of the array first taken.
 *
 * A line is read by a loop per part (sign, digits, point, digits) instead of one loop of states
 * per byte: about half the time on 2,000 STS-B runs (see the changeset of issue 36). The count of
 * significant digits is not kept: at most 15 of them is m < 10^15 (m, the digits read as an
 * integer, leading zeros dropping out), and m only grows, so a longer line stays rejected even
 * once m is no longer exact.
 */
export const exactDecimalLines = (bytes: Uint8Array, maxLines: number, expected = 0): Float64Array | undefined => {
  const n = bytes.length
  if (n === 0 || bytes[n - 1] !== LF) return undefined
  // a line has a digit and its LF: at most n / 2 lines, the size taken without an expected count
  const most = Math.min(maxLines, n >>> 1)
  let values = new Float64Array(expected > 0 ? Math.min(most, expected) : most)
  let count = 0
  let i = 0
  // every inner loop stops at the final LF at the latest: no read past the end
  while (i < n) {
    let c = bytes[i]
    const negative = c === MINUS
    if (negative || c === PLUS) c = bytes[++i]
    const start = i
    let m = 0
    while (c >= ZERO && c <= NINE) {
      m = m * 10 + (c - ZERO)
      c = bytes[++i]
    }
    let after = 0
    if (c === DOT) {
      const point = ++i
      c = bytes[i]
      while (c >= ZERO && c <= NINE) {
        m = m * 10 + (c - ZERO)
        c = bytes[++i]
      }
      after = i - point
      if (after === 0 && point - 1 === start) return undefined // "." alone: no digit
    } else if (i === start) return undefined // no digit
    if (c !== LF || !(m < 1e15) || after > 22 || count === maxLines) return undefined
    if (count === values.length) {
      // fewer lines expected than there are (never beyond `most`, which `maxLines` caps above)
      const grown = new Float64Array(Math.min(most, values.length * 2 + 1))
      grown.set(values)
      values = grown
    }
    const value = after === 0 ? m : m / EXACT_POWERS[after]
    values[count++] = negative ? -value : value
    i++
  }
  return count === values.length ? values : values.slice(0, count)
}
