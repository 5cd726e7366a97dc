// Moving a number's decimal point exactly, on its shortest decimal form: 99.99 / 100 is
// 0.9998999999999999 in doubles, "99.99" moved is "0.9999", the level the user wrote.

/** The plain decimal digits of a finite, non-negative x: `[integer digits, fraction digits]`. */
const digits = (x: number): readonly [string, string] => {
  const [mantissa, exponent = "0"] = String(x).split("e")
  const [int, frac = ""] = mantissa.split(".")
  const e = Number(exponent)
  const all = int + frac
  const point = int.length + e
  if (point <= 0) return ["0", "0".repeat(-point) + all]
  if (point >= all.length) return [all + "0".repeat(point - all.length), ""]
  return [all.slice(0, point), all.slice(point)]
}

/** The decimal x x 10^places, as text without exponent and without needless zeros. */
export const shift = (x: number, places: number): string => {
  const [int, frac] = digits(x)
  const all = int + frac
  const point = int.length + places
  const padded = point <= 0 ? "0".repeat(1 - point) + all : point > all.length ? all + "0".repeat(point - all.length) : all
  const at = Math.max(point, 1)
  const whole = padded.slice(0, at).replace(/^0+(?=\d)/, "")
  const rest = padded.slice(at).replace(/0+$/, "")
  return rest === "" ? whole : `${whole}.${rest}`
}
