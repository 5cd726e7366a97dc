/**
 * Terminal styling for output meant for people: colour only when stdout is a terminal, never with
 * NO_COLOR (https://no-color.org) or TERM=dumb; FORCE_COLOR turns it on for demos.
 *
 * Nothing is read at import time: the decision is made once per command run (`withColour`) from
 * the `Environment` service (the process's environment, or an in-process run's own) and
 * `StdoutIsTTY` (`bin.ts` says whether stdout is a terminal; an in-process run says what it
 * captures into), and the commands read the resulting `Colour` palette.
 */
import { Context, Effect } from "effect"
import { Environment } from "./Environment.js"

/** The styles a command prints with: ANSI when colour is on, the text as it is when off. */
export interface Palette {
  readonly enabled: boolean
  readonly bold: (s: string) => string
  readonly dim: (s: string) => string
  readonly red: (s: string) => string
  readonly green: (s: string) => string
  readonly yellow: (s: string) => string
  readonly cyan: (s: string) => string
}

const wrap = (enabled: boolean, open: number, close: number) => (s: string): string => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s)

export const palette = (enabled: boolean): Palette => ({
  enabled,
  bold: wrap(enabled, 1, 22),
  dim: wrap(enabled, 2, 22),
  red: wrap(enabled, 31, 39),
  green: wrap(enabled, 32, 39),
  yellow: wrap(enabled, 33, 39),
  cyan: wrap(enabled, 36, 39)
})

/** No styling: pipes, files, captured output. */
export const plain: Palette = palette(false)

/** Whether to colour: never with NO_COLOR (non-empty), always with FORCE_COLOR (not "0"), never on TERM=dumb, else when stdout is a terminal. */
export const colourEnabled = (env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean => {
  if (env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "") return false
  if (env["FORCE_COLOR"] !== undefined && env["FORCE_COLOR"] !== "0") return true
  if (env["TERM"] === "dumb") return false
  return isTTY
}

/** Whether stdout is a terminal: false unless the entry point says so (`bin.ts`, from `process.stdout`). */
export const StdoutIsTTY = Context.Reference<boolean>("@stseval/cli/StdoutIsTTY", { defaultValue: () => false })

/** The palette of the command run (`withColour` resolves it); plain until then. */
export const Colour = Context.Reference<Palette>("@stseval/cli/Colour", { defaultValue: () => plain })

/** The terminal's width in columns when stdout is one (`bin.ts`, from `process.stdout.columns`); undefined for a pipe. */
export const TerminalColumns = Context.Reference<number | undefined>("@stseval/cli/TerminalColumns", { defaultValue: () => undefined })

/** How wide text tables may be (`TextTable.fit`): `COLUMNS` when set, else the terminal's width, else no limit (a pipe, a file). */
export const Width = Context.Reference<number | undefined>("@stseval/cli/Width", { defaultValue: () => undefined })

/** `COLUMNS` (a positive whole number) when set, else the terminal's width: what `Width` is. */
export const widthLimit = (env: Readonly<Record<string, string | undefined>>, columns: number | undefined): number | undefined => {
  const set = Number(env["COLUMNS"])
  return env["COLUMNS"] !== undefined && Number.isInteger(set) && set > 0 ? set : columns !== undefined && columns > 0 ? columns : undefined
}

/** Run `self` with the palette and the table width decided once from the `Environment` service, `StdoutIsTTY` and `TerminalColumns`. */
export const withColour = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.all([Environment, StdoutIsTTY, TerminalColumns]), ([env, tty, columns]) =>
    self.pipe(Effect.provideService(Colour, palette(colourEnabled(env, tty))), Effect.provideService(Width, widthLimit(env, tty ? columns : undefined)))
  )

/** Remove ANSI styling, to measure what a person sees. */
// eslint-disable-next-line no-control-regex
export const strip = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "")

/** Display width: code points, not UTF-16 units (combining marks and wide CJK are rare in run names). */
export const width = (s: string): number => [...strip(s)].length
