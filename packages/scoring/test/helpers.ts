/**
 * Small in-memory fixtures: toy editions, gold built from text, and submissions from strings.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Gold, Registry } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { MetricValue } from "@stseval/metrics"
import { expect } from "vitest"
import { stsEdition } from "@stseval/vitest-config/edition"
import type { ScoredRun } from "@stseval/scoring"

// The engine's own steps, which `Engine.scoreSubmission` (the one public way) runs: the tests check each.
export { scoreDataset, scoreRun } from "../src/internal/score.js"
export { validateRun } from "../src/internal/validate.js"

/** `../shared` beside the repository checkout (CI clones with shared beside it). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
// STSEVAL_SHARED overrides the location (e.g. to check that the suite passes without it)
export const sharedRoot = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedRoot, "reference")) && fs.existsSync(path.join(sharedRoot, "data"))

const encode = (s: string) => new TextEncoder().encode(s)

/** A run (submission) from file contents held in memory. */
export const submission = (
  files: Readonly<Record<string, string>>,
  meta: Partial<Submissions.RunMeta> = {},
  runPath = `${meta.team ?? "Team"}_run${meta.run ?? 1}${meta.primary === false ? "" : "primary"}`
): Submissions.Submission => ({
  meta: { id: `${meta.team ?? "Team"}/run${meta.run ?? 1}`, team: "Team", run: 1, primary: true, late: false, corrected: false, postDeadline: false, ...meta },
  path: runPath,
  kind: Object.keys(files).length === 1 ? "file" : "folder",
  files: Object.entries(files).map(([name, text]) => ({ name, path: `${runPath}/${name}`, bytes: encode(text) })),
  issues: []
})

/** A two-dataset STS edition (datasets `a` and `b`), weighted mean, missing dataset = r 0. */
export const toyEdition = (over: Partial<typeof Registry.TaskEdition.Encoded> = {}): Registry.TaskEdition =>
  Registry.decodeEditionSync(
    stsEdition("toy", "toy STS edition", ["a", "b"], {
      // as STS 2013-2014: Spearman beside Pearson, and the confidence-weighted Pearson of runs with confidences
      ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "wmean", metrics: ["pearson", "spearman", "weighted-pearson"] }],
      ...over
    })
  )

export const goldOf = (edition: Registry.TaskEdition, texts: Readonly<Record<string, string>>): Gold.Gold =>
  Gold.goldFromTexts(
    edition,
    Object.entries(texts).map(([dataset, content]) => ({ dataset, file: `gold/${dataset}`, content }))
  )

export const lines = (xs: ReadonlyArray<number | string>) => xs.map((x) => `${x}\n`).join("")

export const sickEdition = () => Registry.get("sick2014")!

/** A SICK gold file from rows [pair_ID, relatedness, entailment]. */
export const sickGold = (rows: ReadonlyArray<readonly [number, number, string]>) =>
  `pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n${rows
    .map(([id, r, e]) => `${id}\tA man plays.\tA person plays.\t${r}\t${e}\n`)
    .join("")}`

/** The metric is defined and within 10^-digits of `value`. */
export const expectClose = (m: MetricValue.MetricValue, value: number, digits = 14) => {
  expect(m._tag).toBe("Defined")
  expect(MetricValue.getOrNaN(m)).toBeCloseTo(value, digits)
}

/** mulberry32: a generator of the tests' own, unrelated to the engine's xoroshiro128+. */
export { mulberry32 } from "@stseval/vitest-config/random"

/**
 * A SemRel-shaped edition (SemEval-2024 Task 1): languages `eng`, `amh` and `esp` (esp without a
 * public gold, as in the registry), ranked per language by Spearman.
 */
export const semrelToyEdition = (): Registry.TaskEdition =>
  toyEdition({
    id: "semrel-toy",
    title: "SemRel-like toy edition",
    family: "sts",
    scale: { min: 0, max: 1 },
    submission: "folder",
    datasets: ["eng", "amh", "esp"].map((l) => ({
      name: l,
      gold: `${l}/${l}_test_with_labels.csv`,
      goldFormat: "semrel-csv",
      run: `pred_${l}.csv`,
      ...(l === "esp" ? { goldNotPublic: "the organisers did not release the esp test labels" } : {})
    })),
    runLimit: 1,
    ranking: [{ subtask: "relatedness", metric: "spearman", aggregate: "mean", ranked: "per-dataset", report: ["spearman", "pearson"] }],
    missingDataset: "no-official-score",
    published: { style: "r3" }
  })

/** The graded scores of an aligned dataset (a test of scores fails here on labels). */
export const numeric = <A extends { readonly kind: string }>(a: A | undefined): Extract<A, { kind: "scores" }> => {
  if (a?.kind !== "scores") throw new Error("expected graded scores")
  return a as Extract<A, { kind: "scores" }>
}

/** A dataset of a scored run, by name (SICK: `relatedness`, `entailment`). */
export const ds = (run: { readonly datasets: ReadonlyArray<{ readonly dataset: string }> }, name: string) => {
  const d = run.datasets.find((x) => x.dataset === name)
  if (d === undefined) throw new Error(`no dataset ${name}`)
  return d as ScoredRun.DatasetScore
}
