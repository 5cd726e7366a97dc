/**
 * Test helpers: gold scores (real from ../shared when present, else synthetic) and runs whose
 * Pearson r against a gold is exactly a chosen value.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { mulberry32 } from "@stseval/vitest-config/random"
import { stsEdition } from "@stseval/vitest-config/edition"
import { Registry } from "@stseval/formats"
import { MetricValue } from "@stseval/metrics"
import { Rank } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import type { Ranking, Results, RunResult } from "../src/Results.js"

const here = path.dirname(fileURLToPath(import.meta.url))
/** repo root = packages/tables/test/../../.. */
export const repoRoot = path.resolve(here, "../../..")
// STSEVAL_SHARED_DIR overrides the location (e.g. a missing path, to check the suite passes without it)
export const sharedDir = process.env.STSEVAL_SHARED_DIR ?? process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedDir, "data"))

/** A small deterministic PRNG (mulberry32) so fixtures are reproducible. */
export const rng = mulberry32

/** Synthetic gold on the 0-5 scale. */
export const syntheticGold = (n: number, seed: number): Float64Array => {
  const u = rng(seed)
  return Float64Array.from({ length: n }, () => Math.round(u() * 50) / 10)
}

/** Gold scores of a `STS.gs.*.txt` file (blank lines skipped). */
export const readGold = (file: string): Float64Array =>
  Float64Array.from(
    fs
      .readFileSync(file, "utf8")
      .split(/\r?\n/)
      .filter((l) => l.trim().length > 0)
      .map((l) => Number(l.split("\t")[0]))
  )

const standardise = (x: Float64Array): Float64Array => {
  const n = x.length
  const m = x.reduce((s, v) => s + v, 0) / n
  const sd = Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / n)
  return x.map((v) => (v - m) / sd)
}

export const pearson = (x: Float64Array, y: Float64Array): number => {
  const zx = standardise(x)
  const zy = standardise(y)
  return zx.reduce((s, v, i) => s + v * zy[i], 0) / x.length
}

/**
 * A run with Pearson r exactly `r` against `gold`: z = standardised gold, e = noise made orthogonal
 * to z (residual of noise regressed on z) and standardised; run = r z + sqrt(1 - r^2) e, mapped to
 * the 0-5 scale (an affine map keeps r).
 */
export const runWithPearson = (gold: Float64Array, r: number, seed: number): Float64Array => {
  const z = standardise(gold)
  const u = rng(seed)
  const noise = standardise(Float64Array.from(gold, () => u() + u() + u() - 1.5))
  const b = noise.reduce((s, v, i) => s + v * z[i], 0) / z.length
  const e = standardise(noise.map((v, i) => v - b * z[i]))
  return z.map((v, i) => 2.5 + 0.9 * (r * v + Math.sqrt(1 - r * r) * e[i]))
}

export { runsWithCorrelations } from "@stseval/vitest-config/random"

// ---------------------------------------------------------------------------------------------
// Hand-made results as scoring would rank and mark them (layouts only read rankings and marks)


/** Results built by hand, before their rankings. */
export type HandMade = Omit<Results, "rankings"> & { readonly rankings?: ReadonlyArray<Ranking> | undefined }

/** A ranking of hand-made rows: its name, metric, the figures it orders by and each row's figure. */
export interface RankBy {
  readonly ranking: string
  readonly metric: string
  readonly figures: ReadonlyArray<string>
  readonly value: (r: RunResult) => number | undefined
  readonly lower?: boolean
}

/** The official figure (`aggregates.official`), as STS editions rank. */
export const officialBy: RankBy = { ranking: "official", metric: "pearson", figures: ["aggregate:official"], value: (r) => r.aggregates.official }

const RUN_NUMBER = /^run(\d+)$/i

const metaOf = (row: RunResult) => ({
  id: row.id,
  team: row.team,
  run: row.runNumber ?? (RUN_NUMBER.test(row.run) ? Number(RUN_NUMBER.exec(row.run)![1]) : undefined),
  primary: row.primary,
  late: row.late === true,
  corrected: row.corrected === true,
  postDeadline: row.postDeadline === true,
  ...(row.identityUnknown === true ? { identityUnknown: true as const } : {})
})

/** Hand-made STS 2017 results on two of its tracks (es-es on `esPairs` pairs, en-en on 250), ranked by the official figure. */
export const twoTracks = (esPairs: number, runs: HandMade["runs"]): Results =>
  ranked({
    edition: "sts2017",
    datasets: [
      { name: "track3.es-es", header: "es-es", pairs: esPairs, metric: "pearson" },
      { name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }
    ],
    runs
  })

/** `results` with hand-made intervals (95%, 1000 resamples, seed 12345): each run as `ci` gives it. */
export const handIntervals = (results: Results, ci: (run: RunResult, k: number) => RunResult, signature = "test"): Results => ({
  ...results,
  intervals: { level: 0.95, resamples: 1000, seed: 12345, signature },
  runs: results.runs.map(ci)
})

/** Hand-made results ranked as scoring ranks (`Rank.rank`, the one ranking): what a layout reads. */
export const ranked = (results: HandMade, by: ReadonlyArray<RankBy> = [officialBy], options: { readonly primaryOnly?: boolean } = {}): Results => {
  const rows = results.runs.map((row) => ({ row, meta: metaOf(row), status: "scored" as const, failure: undefined, official: [] }))
  const made = Rank.rank(rows, {
    primaryOnly: options.primaryOnly ?? false,
    by: by.map((b) => ({
      ranking: b.ranking,
      metric: b.metric,
      lowerIsBetter: b.lower,
      value: (x: (typeof rows)[number]) => {
        const v = b.value(x.row)
        return v !== undefined && Number.isFinite(v) ? MetricValue.defined(v) : MetricValue.undefined_("no figure")
      }
    }))
  })
  return {
    ...results,
    primaryOnly: options.primaryOnly ?? false,
    rankings: made.rankings.map((k, i) => ({
      ranking: k.ranking,
      metric: k.metric,
      direction: k.lowerIsBetter ? ("lower" as const) : ("higher" as const),
      figures: by[i].figures,
      entries: k.entries.map((e) => ({ id: e.run.row.id, rank: e.rank, ...(e.reason !== undefined ? { reason: e.reason } : {}) }))
    }))
  }
}

/**
 * Marks for ranked hand-made results whose runs carry scores on each dataset: `Marks.compute` over
 * the runs as the engine holds them (Pearson per dataset, the official figure the mean of the
 * datasets), ranked by the results' `official` ranking.
 */
export const marked = (results: Results, options: Marks.Options = {}): Results => {
  const edition = Registry.decodeEditionSync(
    stsEdition(`${results.edition}-hand-made`, "hand-made results", results.datasets.map((d) => d.name), {
      runLimit: 1000,
      missingDataset: "no-official-score",
      published: { style: results.style ?? "r3" }
    })
  )
  const figure = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? MetricValue.defined(v) : MetricValue.undefined_("no figure"))
  const scored = new Map(
    results.runs.map((r): [string, ScoredRun.ScoredRun] => [
      r.id,
      {
        edition: edition.id,
        path: r.id,
        meta: metaOf(r),
        status: "scored",
        failure: undefined,
        datasets: results.datasets.map((d) => {
          const run = r.scores?.[d.name]
          const gold = d.gold
          const ok = run !== undefined && gold !== undefined && run.length === gold.length
          const v = r.datasets[d.name]?.["pearson"]
          return {
            dataset: d.name,
            subtask: "similarity",
            metric: "pearson",
            status: ok ? "scored" : "missing",
            reason: undefined,
            file: undefined,
            pairs: gold?.length ?? 0,
            weight: gold?.length ?? 0,
            runLines: run?.length ?? 0,
            linesScored: undefined,
            figures: { pearson: figure(typeof v === "number" ? v : undefined) },
            aligned: ok ? { kind: "scores", gold, run } : undefined
          }
        }),
        aggregates: {},
        official: [{ ranking: "official", metric: "pearson", rule: "mean", direction: "higher", value: figure(r.aggregates.official), datasets: [], zeroed: [] }],
        errors: [],
        warnings: [],
        infos: []
      }
    ])
  )
  const official = results.rankings.find((k) => k.ranking === "official")
  const rankings = official === undefined ? [] : [{ ranking: "official", metric: "pearson", lowerIsBetter: false, entries: official.entries.map((e) => {
    const run = scored.get(e.id)!
    // the marks Rank.rank gives: a post-deadline run carries its flag
    return { rank: e.rank, run, meta: run.meta, primary: true, flags: run.meta.postDeadline ? (["post-deadline"] as const) : [], value: run.official[0].value, reason: e.reason }
  }) }]
  const marks = Marks.compute({ edition, runs: [...scored.values()], ranked: { edition: edition.id, primaryOnly: results.primaryOnly ?? false, runLimit: undefined, rankings, standings: [], excluded: 0, merged: [] } }, options)
  return { ...results, marks: Object.fromEntries(marks.figures.map((f) => [f.key, f])) }
}
