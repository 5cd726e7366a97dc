/**
 * Terminal styling for output meant for people: colour only when stdout is a TTY, never with
 * NO_COLOR (https://no-color.org) or TERM=dumb; FORCE_COLOR turns it on for demos.
 */
const env = process.env

export const colourEnabled = (stream: { readonly isTTY?: boolean } = process.stdout): boolean => {
  if (env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "") return false
  if (env["FORCE_COLOR"] !== undefined && env["FORCE_COLOR"] !== "0") return true
  if (env["TERM"] === "dumb") return false
  return stream.isTTY === true
}

const wrap = (open: number, close: number) => (s: string): string =>
  colourEnabled() ? `\u001b[${open}m${s}\u001b[${close}m` : s

export const bold = wrap(1, 22)
export const dim = wrap(2, 22)
export const red = wrap(31, 39)
export const green = wrap(32, 39)
export const yellow = wrap(33, 39)
export const cyan = wrap(36, 39)

/** Remove ANSI styling, to measure what a person sees. */
// eslint-disable-next-line no-control-regex
export const strip = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "")

/** Display width: code points, not UTF-16 units (combining marks and wide CJK are rare in run names). */
export const width = (s: string): number => [...strip(s)].length
