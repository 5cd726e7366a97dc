/**
 * The packages only some commands need, loaded when one of them runs. `stseval score` (and
 * validate, rank, tasks, data) never pays for them: @stseval/significance pulls in @stdlib's
 * distribution functions, about 150 ms of module loading, and the report generator and the watcher
 * depend on it. The names and types are imported statically with `import type`, which costs nothing.
 */
import { Effect } from "effect"
import type { Compare } from "@stseval/significance"

export const significance = Effect.promise(() => import("@stseval/significance"))
export const tables = Effect.promise(() => import("@stseval/tables"))
export const leaderboard = Effect.promise(() => import("@stseval/leaderboard"))
export const marks = Effect.promise(() => import("@stseval/scoring/Marks"))

/**
 * The marks' rule's defaults (`Marks.defaults` of @stseval/scoring/Marks), written out so that
 * `significance`'s flags default to them without loading the package; a test checks they are the same.
 */
export const ruleDefaults = { alpha: 0.05, correction: "holm", resamples: 1000, seed: 12345 } as const

/**
 * `Compare.testNames`, written out so that flags can list them without loading the package; a test
 * checks the two lists are the same.
 */
export const testNames: ReadonlyArray<Compare.TestName> = [
  "pearson1898",
  "hotelling1940",
  "williams1959",
  "olkin1967",
  "dunn1969",
  "hendrickson1970",
  "steiger1980",
  "meng1992",
  "hittner2003",
  "zou2007",
  "bootstrap",
  "permutation"
]
