// Moving a number's decimal point exactly, on its shortest decimal form: 99.99 / 100 is
// 0.9998999999999999 in doubles, "99.99" moved is "0.9999", the level the user wrote.

/** The finite, non-negative x x 10^places, as text without exponent and without needless zeros. */
export const shift = (x: number, places: number): string => {
  const [mantissa, exponent = "0"] = String(x).split("e")
  const [int, frac = ""] = mantissa.split(".")
  const point = int.length + Number(exponent) + places
  const padded = point <= 0 ? "0".repeat(1 - point) + int + frac : (int + frac).padEnd(point, "0")
  const at = Math.max(point, 1)
  const whole = padded.slice(0, at).replace(/^0+(?=\d)/, "")
  const rest = padded.slice(at).replace(/0+$/, "")
  return rest === "" ? whole : `${whole}.${rest}`
}
