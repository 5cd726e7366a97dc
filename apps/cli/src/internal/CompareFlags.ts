/**
 * What `compare` and `significance` share: their flags, number formats and progress line. The
 * scores they compare come aligned from the scoring package (`Aligned`), the tests and the
 * default test from the significance package.
 */
import { Flag } from "effect/cli"
import * as Flags from "./Flags.js"
import { Style } from "@stseval/scoring"
import { testNames } from "./Lazy.js"

// ---------------------------------------------------------------------------------------------
// Flags shared with `significance`
// ---------------------------------------------------------------------------------------------

export const test = Flag.Literals("test", testNames).pipe(
  Flag.withDescription(
    "Test: a cocor test for two dependent correlations (williams1959 [default, as STS 2017], steiger1980, meng1992, hittner2003, zou2007, ...), or bootstrap / permutation (correlation-level resampling; used for multi-dataset aggregates)"
  ),
  Flag.optional
)

export const resamples = Flags.resamples

export const seed = Flag.Int("seed").pipe(Flags.defaulting("Seed of the resampling (printed in the signature)", 12345))

export const metric = Flag.Literals("metric", ["pearson", "spearman"]).pipe(
  Flags.defaulting("Correlation compared (spearman: bootstrap only)", "pearson")
)

export const dataset = Flag.String("dataset").pipe(
  Flag.withDescription("Compare on this dataset (track) only"),
  Flag.optional
)

export const fmt = (x: number | undefined, digits = 4): string =>
  x === undefined || Number.isNaN(x) ? "-" : x.toFixed(digits)

export const fmtP = (p: number | undefined): string =>
  p === undefined || Number.isNaN(p) ? "-" : p === 0 ? "0" : p < 1e-4 ? p.toExponential(2) : p.toFixed(4)

/** A correlation (or a difference of correlations) in the edition's published style (`Style`). */
export const fmtR = (x: number | undefined, style: Style.NumberStyle): string => Style.metric(x, style, "-")

export const fmtCi = (ci: readonly [number, number] | undefined, style: Style.NumberStyle): string =>
  ci === undefined ? "-" : `[${fmtR(ci[0], style)}, ${fmtR(ci[1], style)}]`

/** A progress line on stderr for long resampling jobs (text mode on a terminal only). */
export const progressReporter = (json: boolean) => {
  if (json || !process.stderr.isTTY) return undefined
  return (done: number, total: number) => {
    process.stderr.write(`\rresampling ${Math.round((100 * done) / total)}%${done === total ? "\r\x1b[K" : ""}`)
  }
}
