/**
 * The hints every reader adds for the common mistakes in a field or a line, said the same way in
 * every format (one place): a decimal comma, and a line whose fields are separated by something
 * other than the format's separator.
 *
 * @internal
 */

const COMMA_DECIMAL = /^\s*[+-]?\d*,\d+\s*$/

/** `; use "." as the decimal point` when `raw` is a number written with a decimal comma, else "". */
export const decimalHint = (raw: string): string => (COMMA_DECIMAL.test(raw) ? `; use "." as the decimal point` : "")

/** The separators a line is written with by mistake, in the words of a message. */
const OTHER_SEPARATORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/;/, `";"`],
  [/\S {1,}\S/, "spaces"],
  [/,/, "commas"],
  [/\t/, "TABs"]
]

/**
 * `; fields must be separated by <separator>, not <found>` when `raw` has no `separator` but one of
 * the usual others (`;`, spaces, commas, TABs), else "". `separator` is the character, `name` how a
 * message names it (`a TAB`, `a comma`).
 */
export const separatorHint = (raw: string, separator: string, name: string): string => {
  if (raw.includes(separator)) return ""
  const other = OTHER_SEPARATORS.find(([pattern, n]) => pattern.test(raw.trim()) && !(separator === "\t" && n === "TABs") && !(separator === "," && n === "commas"))
  return other === undefined ? "" : `; fields must be separated by ${name}, not ${other[1]}`
}
