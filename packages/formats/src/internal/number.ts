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

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const NON_FINITE = /^[+-]?(?:nan|inf|infinity)$/i

/** Parse a field (surrounding spaces and tabs ignored). */
export const parseNumber = (raw: string): NumberField => {
  const s = raw.trim()
  if (s === "") return { _tag: "missing" }
  if (DECIMAL.test(s)) {
    const value = Number(s)
    return Number.isFinite(value) ? { _tag: "number", value } : { _tag: "non-finite" }
  }
  if (NON_FINITE.test(s)) return { _tag: "non-finite" }
  return { _tag: "not-a-number" }
}

/**
 * The value of a field that is a finite number in plain decimal notation with nothing around it,
 * else NaN (then `parseNumber` says what is wrong): the common case of a score line, without
 * `parseNumber`'s trim and result object, for parsers that read hundreds of thousands of lines.
 */
export const plainNumber = (raw: string): number => {
  if (!DECIMAL.test(raw)) return Number.NaN
  const value = Number(raw)
  return Number.isFinite(value) ? value : Number.NaN
}

/** The shortest text that reads back as the same double (`-0` kept). */
export const formatNumber = (n: number): string => (Object.is(n, -0) ? "-0" : String(n))
