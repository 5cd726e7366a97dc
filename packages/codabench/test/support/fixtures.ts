/**
 * Small fixtures built in the tests (so the suite runs without ../shared), an independent Pearson,
 * and `stseval score --json` for one run, in process.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, Json } from "@stseval/scoring"
import { Effect } from "effect"
import { repoRoot } from "./worker.js"

export const sickExample = {
  gold: path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt"),
  runs: path.join(repoRoot, "examples/sick2014/submissions")
}

/** Run an Effect needing the file system. */
export const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>): Promise<A> => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))

/**
 * `stseval score --task <task> --gold <gold> <run> --json`, in process: the run's object of the
 * documented scored-results JSON. (The one place the tests call the scoring engine directly.)
 */
export const scoreJson = (task: string | Registry.TaskEdition, gold: string, runPath: string): Promise<Json.ScoredRunJson> =>
  run(Engine.scorePaths({ task, gold, runs: [runPath] })).then((session) => Json.toJson(session.runs[0]))

/** Pearson's r, written out here (not the metrics package's), to check figures independently. */
export const pearson = (x: ReadonlyArray<number>, y: ReadonlyArray<number>): number => {
  const n = x.length
  const mx = x.reduce((a, b) => a + b, 0) / n
  const my = y.reduce((a, b) => a + b, 0) / n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my)
    sxx += (x[i] - mx) ** 2
    syy += (y[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}

/** A deterministic pseudo-random stream (LCG), so fixtures are the same on every run. */
export const random = (seed: number) => {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100

/** Gold scores on 0-5 and a run = gold + noise, `n` pairs. */
export const scores = (seed: number, n: number, noise: number): { readonly gold: Array<number>; readonly run: Array<number> } => {
  const r = random(seed)
  const gold = Array.from({ length: n }, () => round2(5 * r()))
  const run = gold.map((g) => round2(g + noise * (r() - 0.5) * 5))
  return { gold, run }
}

const lines = (xs: ReadonlyArray<number>) => xs.map((x) => `${x}\n`).join("")

export const sts2017 = Registry.get("sts2017")!
export const stsb = Registry.get("stsb")!

/**
 * An STS 2017 gold folder and a run folder per team: 7 tracks of `n` pairs. `missing` tracks are
 * left out of a run.
 */
export const writeSts2017 = (
  dir: string,
  teams: ReadonlyArray<{ readonly name: string; readonly seed: number; readonly noise: number; readonly missing?: ReadonlyArray<string> }>,
  n = 24
): { readonly gold: string; readonly runs: Record<string, string>; readonly values: Record<string, Record<string, { gold: Array<number>; run: Array<number> }>> } => {
  const gold = path.join(dir, "gold")
  fs.mkdirSync(gold, { recursive: true })
  const goldScores: Record<string, Array<number>> = {}
  for (const [k, d] of sts2017.datasets.entries()) {
    goldScores[d.name] = scores(1000 + k, n, 0).gold
    fs.writeFileSync(path.join(gold, d.gold), lines(goldScores[d.name]))
  }
  const runs: Record<string, string> = {}
  const values: Record<string, Record<string, { gold: Array<number>; run: Array<number> }>> = {}
  for (const team of teams) {
    const folder = path.join(dir, "runs", team.name)
    fs.mkdirSync(folder, { recursive: true })
    values[team.name] = {}
    const r = random(team.seed)
    for (const d of sts2017.datasets) {
      if (team.missing?.includes(d.name)) continue
      const g = goldScores[d.name]
      const run = g.map((x) => round2(x + team.noise * (r() - 0.5) * 5))
      values[team.name][d.name] = { gold: g, run }
      fs.writeFileSync(path.join(folder, d.run), lines(run))
    }
    runs[team.name] = folder
  }
  return { gold, runs, values }
}

/** An STS Benchmark csv of `n` rows and a run file for it. */
export const writeStsb = (dir: string, seed: number, n = 40, noise = 0.6): { readonly gold: string; readonly run: string; readonly values: { gold: Array<number>; run: Array<number> } } => {
  fs.mkdirSync(dir, { recursive: true })
  const v = scores(seed, n, noise)
  const gold = path.join(dir, "sts-test.csv")
  fs.writeFileSync(
    gold,
    v.gold.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA "man" plays ${i}.\tA person plays ${i}.\n`).join("")
  )
  const runFile = path.join(dir, "sts-test.output.txt")
  fs.writeFileSync(runFile, lines(v.run))
  return { gold, run: runFile, values: v }
}

/** `stseval rank --json` on a submissions folder, in process: each ranking's entries without paths. */
export const rankJson = (task: string, gold: string, folder: string, primaryOnly = true) =>
  run(Engine.rankFolder({ task, gold, folder, primaryOnly })).then((session) =>
    Json.rankedToJson(session.ranked).rankings.map((r) => ({
      ranking: r.ranking,
      entries: r.entries.map((e) => ({ rank: e.rank, team: e.team, run: e.run, primary: e.primary, value: e.value }))
    }))
  )
