/**
 * What `compare` and `significance` share: their resampling flags, the alignment of the runs'
 * scores per dataset (from the scoring package's validation), and number formats.
 */
import { Flag } from "effect/cli"
import type { Registry } from "@stseval/formats"
import { Pearson } from "@stseval/metrics"
import type { Validation } from "@stseval/scoring"
import type { Significance } from "./Lazy.js"
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

export const resamples = Flag.Int("resamples").pipe(
  Flag.withDescription("Resamples for bootstrap / permutation"),
  Flag.withDefault(10_000)
)

export const seed = Flag.Int("seed").pipe(Flag.withDescription("Seed of the resampling (printed in the signature)"), Flag.withDefault(12345))

export const metric = Flag.Literals("metric", ["pearson", "spearman"]).pipe(
  Flag.withDescription("Correlation compared (spearman: bootstrap only)"),
  Flag.withDefault("pearson")
)

export const dataset = Flag.String("dataset").pipe(
  Flag.withDescription("Compare on this dataset (track) only"),
  Flag.optional
)

// ---------------------------------------------------------------------------------------------
// Aligned scores
// ---------------------------------------------------------------------------------------------

export interface DatasetScores {
  readonly name: string
  readonly gold: Float64Array
  /** one array per run, in the order of the validations given */
  readonly runs: ReadonlyArray<Float64Array>
}

export interface Aligned {
  readonly datasets: ReadonlyArray<DatasetScores>
  /** datasets left out, with the reason */
  readonly skipped: ReadonlyArray<{ readonly dataset: string; readonly reason: string }>
}

const sameValues = (a: Float64Array, b: Float64Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The gold and every run's scores of each dataset that all the given runs have scored (aligned by
 * the scoring package's validation). SICK has one dataset, `relatedness`.
 */
export const alignScores = (
  edition: Registry.TaskEdition,
  validations: ReadonlyArray<Validation.RunValidation>,
  only: string | undefined
): Aligned => {
  const datasets: Array<DatasetScores> = []
  const skipped: Array<{ dataset: string; reason: string }> = []
  if (edition.family === "sick") {
    const subs = validations.map((v) => v.sick?.relatedness)
    const bad = validations.findIndex((_, i) => subs[i]?.status !== "scored")
    if (bad >= 0) {
      skipped.push({ dataset: "relatedness", reason: `${validations[bad].meta.id}: ${subs[bad]?.reason ?? "not scored"}` })
      return { datasets, skipped }
    }
    const gold = subs[0]!.gold
    const runs = subs.map((s) => s!.run)
    const undefinedRun = undefinedCorrelation(gold, runs)
    if (undefinedRun !== undefined) skipped.push({ dataset: "relatedness", reason: `${validations[undefinedRun.index].meta.id}: ${undefinedRun.reason}` })
    else datasets.push({ name: "relatedness", gold, runs })
    return { datasets, skipped }
  }
  for (const spec of edition.datasets) {
    if (only !== undefined && spec.name !== only) continue
    const checks = validations.map((v) => v.datasets.find((d) => d.dataset === spec.name))
    const bad = checks.findIndex((c) => c?.status !== "scored")
    if (bad >= 0) {
      skipped.push({ dataset: spec.name, reason: `${validations[bad].meta.id}: ${checks[bad]?.reason ?? "not scored"}` })
      continue
    }
    const gold = checks[0]!.gold
    if (!checks.every((c) => sameValues(c!.gold, gold))) {
      skipped.push({ dataset: spec.name, reason: "the runs were scored on different pairs" })
      continue
    }
    const runs = checks.map((c) => c!.run)
    const undefinedRun = undefinedCorrelation(gold, runs)
    if (undefinedRun !== undefined) {
      skipped.push({ dataset: spec.name, reason: `${validations[undefinedRun.index].meta.id}: ${undefinedRun.reason}` })
      continue
    }
    datasets.push({ name: spec.name, gold, runs })
  }
  return { datasets, skipped }
}

/** The first run whose correlation with the gold has no value (a constant run), and why in words. */
const undefinedCorrelation = (gold: Float64Array, runs: ReadonlyArray<Float64Array>): { readonly index: number; readonly reason: string } | undefined => {
  for (let index = 0; index < runs.length; index++) {
    const r = Pearson.pearson(gold, runs[index])
    if (r._tag === "Undefined") return { index, reason: `its correlation with the gold is undefined (${r.reason})` }
  }
  return undefined
}

/** How the edition combines datasets, as the resampling aggregate (pooled: all pairs as one). */
export const aggregateOf = (edition: Registry.TaskEdition): "weighted" | "unweighted" | "pooled" => {
  const rule = edition.ranking[0]?.aggregate
  return rule === "mean" ? "unweighted" : rule === "pooled" || rule === "allnrm" ? "pooled" : "weighted"
}

/** Flat gold / runs (+ strata unless pooled) over several datasets. */
export const joined = (
  significance: Significance,
  datasets: ReadonlyArray<DatasetScores>,
  aggregate: "weighted" | "unweighted" | "pooled"
): { gold: Float64Array; runs: ReadonlyArray<Float64Array>; strata?: Int32Array; aggregate?: "weighted" | "unweighted" } => {
  if (datasets.length === 1) return { gold: datasets[0].gold, runs: datasets[0].runs }
  const j = significance.Compare.concatDatasets(datasets)
  if (significance.TestResult.isInvalid(j)) throw j // cannot happen: alignScores gives equal run counts and lengths
  return aggregate === "pooled" ? { gold: j.gold, runs: j.runs } : { gold: j.gold, runs: j.runs, strata: j.strata, aggregate }
}

export const fmt = (x: number | undefined, digits = 4): string =>
  x === undefined || Number.isNaN(x) ? "-" : x.toFixed(digits)

export const fmtP = (p: number | undefined): string =>
  p === undefined || Number.isNaN(p) ? "-" : p === 0 ? "0" : p < 1e-4 ? p.toExponential(2) : p.toFixed(4)

export const fmtCi = (ci: readonly [number, number] | undefined): string =>
  ci === undefined ? "-" : `[${fmt(ci[0])}, ${fmt(ci[1])}]`

/** A progress line on stderr for long resampling jobs (text mode on a terminal only). */
export const progressReporter = (json: boolean) => {
  if (json || !process.stderr.isTTY) return undefined
  return (done: number, total: number) => {
    process.stderr.write(`\rresampling ${Math.round((100 * done) / total)}%${done === total ? "\r\x1b[K" : ""}`)
  }
}
