/**
 * Benchmark of the scoring engine, wired into `pnpm bench` by tooling/bench:
 * (a) one SICK test run (4927 pairs) end to end through the library: decode + parse + validate +
 *     score, from bytes in memory (the overlap baseline run when ../shared exists, else a
 *     synthetic gold and run);
 * (b) ranking 1,000 STS Benchmark test runs (gold + seeded noise) written to a temp folder, in one
 *     `Engine.score` call on the folder (discover, load, score, rank, sign).
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { scoreRun } from "../src/internal/score.js"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Gold, Registry, Sick, Sts, StsBenchmark, Text } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import type { ScoredRun } from "../src/index.js";
import { Engine } from "../src/index.js"

const shared = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../shared")
const hasShared = fs.existsSync(path.join(shared, "reference"))

// Deterministic generator (mulberry32) so every machine benchmarks the same inputs.
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]

const sickInputs = (): { gold: Uint8Array; run: Uint8Array; source: string } => {
  if (hasShared) {
    return {
      gold: fs.readFileSync(path.join(shared, "data/sick2014/SICK_test_annotated.txt")),
      run: fs.readFileSync(path.join(shared, "reference/sick-test.overlap-baseline.txt")),
      source: "overlap baseline run on SICK test"
    }
  }
  const r = rng(1)
  const pairs = Array.from({ length: 4927 }, (_, i) => ({
    pairId: String(i + 1),
    sentenceA: "A man is playing a guitar.",
    sentenceB: "A person plays an instrument.",
    relatedness: 1 + Math.round(r() * 400) / 100,
    entailment: LABELS[Math.floor(r() * 3)] as Sick.EntailmentLabel,
    set: undefined,
    line: i + 2
  }))
  const run = pairs.map((p) => ({ pairId: p.pairId, entailment: LABELS[Math.floor(r() * 3)], relatedness: p.relatedness + r() - 0.5 }))
  return { gold: new TextEncoder().encode(Sick.writeData(pairs, { gold: true })), run: new TextEncoder().encode(Sick.writeRun(run)), source: "synthetic (no ../shared)" }
}

const time = async (f: () => unknown, minMs = 300): Promise<{ seconds: number; iterations: number }> => {
  for (let i = 0; i < 2; i++) await f()
  let iterations = 0
  const start = performance.now()
  while (iterations < 3 || performance.now() - start < minMs) {
    await f()
    iterations++
  }
  return { seconds: (performance.now() - start) / 1000 / iterations, iterations }
}

/** @since 0.1.0 */
export const run = async (): Promise<Array<{ name: string; seconds: number; [k: string]: unknown }>> => {
  const rows: Array<{ name: string; seconds: number; [k: string]: unknown }> = []

  // (a) one SICK run, bytes -> scored run (gold parsed once, as an app scoring many runs does)
  const sick = Registry.get("sick2014")!
  const inputs = sickInputs()
  const goldAll = Gold.goldFromTexts(sick, sick.datasets.map((d) => ({ dataset: d.name, file: "SICK_test_annotated.txt", content: inputs.gold })))
  const submission: Submissions.Submission = {
    meta: { id: "Baseline/run1", team: "Baseline", run: 1, primary: true, late: false, corrected: false, postDeadline: false },
    path: "Baseline_run1primary.txt",
    kind: "file",
    files: [{ name: "Baseline_run1primary.txt", path: "Baseline_run1primary.txt", bytes: inputs.run }],
    issues: []
  }
  let last: ScoredRun.ScoredRun | undefined
  const a = await time(() => {
    last = scoreRun(sick, goldAll, submission)
  })
  rows.push({ name: "sick: one run, 4927 pairs (decode+parse+validate+score)", seconds: a.seconds, iterations: a.iterations, source: inputs.source, ok: last?.status === "scored" })
  const g = await time(() => Gold.goldFromTexts(sick, sick.datasets.map((d) => ({ dataset: d.name, file: "SICK_test_annotated.txt", content: inputs.gold }))))
  rows.push({ name: "sick: parse the gold (once per session)", seconds: g.seconds, iterations: g.iterations })

  // (b) 1,000 STS-B test runs in a temp folder, ranked in one Engine.score call
  const stsb = Registry.get("stsb")!
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-bench-"))
  try {
    let goldScores: Float64Array
    let goldFile: string
    const sharedGold = path.join(shared, "data/stsbenchmark/sts-test.csv")
    if (fs.existsSync(sharedGold)) {
      goldFile = sharedGold
      const text = Text.decode(fs.readFileSync(sharedGold), sharedGold).value
      goldScores = Float64Array.from(StsBenchmark.parse(text).value.rows, (r) => r.score)
    } else {
      const r = rng(7)
      const rowsCsv = Array.from({ length: 1379 }, (_, i) => ({
        genre: "main-news",
        source: "headlines",
        year: "2016",
        id: String(i).padStart(4, "0"),
        score: Math.round(r() * 500) / 100,
        sentence1: "a",
        sentence2: "b",
        extra: []
      }))
      goldFile = path.join(dir, "sts-test.csv")
      fs.writeFileSync(goldFile, StsBenchmark.write(rowsCsv))
      goldScores = Float64Array.from(rowsCsv, (x) => x.score)
    }
    const subs = path.join(dir, "subs")
    fs.mkdirSync(subs)
    const RUNS = 1000
    const write0 = performance.now()
    for (let k = 0; k < RUNS; k++) {
      const r = rng(1000 + k)
      const noise = 0.5 + (k % 10) / 5
      const scores = Array.from(goldScores, (y) => Math.min(5, Math.max(0, y + (r() - 0.5) * 2 * noise)))
      fs.writeFileSync(path.join(subs, `Team${String(k).padStart(4, "0")}_run1primary.txt`), Sts.writeOutput(scores))
    }
    const writeSeconds = (performance.now() - write0) / 1000
    let ranked = 0
    const b = await time(async () => {
      const results = await Effect.runPromise(Engine.score({ task: stsb, gold: goldFile, folder: subs }).pipe(Effect.provide(NodeServices.layer)))
      ranked = results.ranked.rankings[0].entries.filter((e) => e.rank !== undefined).length
    }, 0)
    rows.push({ name: "stsb: Engine.score over 1,000 test runs (discover+load+score+rank+sign)", seconds: b.seconds, iterations: b.iterations, runs: RUNS, ranked, writeSeconds })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
