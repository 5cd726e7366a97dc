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
 * readers of many runs of short score lines (2,000 STS-B runs: 77 ms against 210 ms for decoding,
 * splitting and `Number`).
 */
export const exactDecimalLines = (bytes: Uint8Array, maxLines: number): Float64Array | undefined => {
  const n = bytes.length
  if (n === 0 || bytes[n - 1] !== LF) return undefined
  // a line is rarely shorter than 2 bytes: n / 2 + 1 is room for most files, grown otherwise
  let values = new Float64Array(Math.min(maxLines, (n >>> 1) + 1))
  let count = 0
  let m = 0
  let significant = 0
  let after = 0
  let digits = 0
  let dot = false
  let signed = false
  let negative = false
  for (let i = 0; i < n; i++) {
    const c = bytes[i]
    if (c >= ZERO && c <= NINE) {
      digits++
      if (m !== 0 || c !== ZERO) significant++
      m = m * 10 + (c - ZERO)
      if (dot) after++
    } else if (c === LF) {
      if (digits === 0 || significant > 15 || after > 22 || count === maxLines) return undefined
      if (count === values.length) {
        const grown = new Float64Array(Math.min(maxLines, values.length * 2))
        grown.set(values)
        values = grown
      }
      const value = after === 0 ? m : m / EXACT_POWERS[after]
      values[count++] = negative ? -value : value
      m = significant = after = digits = 0
      dot = signed = negative = false
    } else if (c === DOT && !dot) dot = true
    else if ((c === MINUS || c === PLUS) && !signed && digits === 0 && !dot) {
      signed = true
      negative = c === MINUS
    } else return undefined
  }
  return count === values.length ? values : values.slice(0, count)
}
