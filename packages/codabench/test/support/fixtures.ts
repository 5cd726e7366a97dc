/**
 * Small fixtures built in the tests (so the suite runs without ../shared), an independent Pearson,
 * and `stseval score --json` for one run, in process.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, ResultJson } from "@stseval/scoring"
import type { ResultSchema } from "@stseval/scoring"
import { Effect } from "effect"
import { repoRoot } from "./worker.js"
import { pearson, spearman } from "@stseval/vitest-config/reference"

export const sickExample = {
  gold: path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt"),
  runs: path.join(repoRoot, "examples/sick2014/submissions")
}

/**
 * A SICK development gold beside the example's test gold: its first `n` pairs under pair IDs no
 * test pair has (a development phase must never score test pairs), as `SICK_trial.txt`.
 */
export const writeSickDev = (dir: string, n = 300): string => {
  const [header, ...rows] = fs.readFileSync(sickExample.gold, "utf8").split("\n").filter((l) => l !== "")
  const file = path.join(dir, "SICK_trial.txt")
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(file, [header, ...rows.slice(0, n).map((r) => r.replace(/^(\d+)/, (id) => String(900000 + Number(id))))].join("\n") + "\n")
  return file
}

/** Run an Effect needing the file system. */
export const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>): Promise<A> => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))

/**
 * `stseval score --task <task> --gold <gold> <run> --json`, in process: the run's object of the
 * documented scored-results JSON, made as apps/cli/src/commands/score.ts makes it (`Engine.score`,
 * then `ResultJson.resultsToJson` without the ranking). (With `rankJson`, the one place the tests call
 * the scoring engine directly.)
 */
export const scoreJson = (task: string | Registry.TaskEdition, gold: string, runPath: string): Promise<ResultSchema.ScoredRunJson & { readonly signature: string }> =>
  run(Engine.score({ task, gold, runs: [runPath] })).then((results) => {
    const json = ResultJson.resultsToJson({ ...results, ranked: undefined })
    if (json.runs.length !== 1) throw new Error(`${runPath} is ${json.runs.length} runs, not one`)
    return { ...json.runs[0], signature: json.signature.text }
  })

/** Pearson's r, the textbook formula (the shared independent reference of the tests). */
export { pearson, spearman }

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
    v.gold.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA "man" plays ${i} (set ${seed}).\tA person plays ${i}.\n`).join("")
  )
  const runFile = path.join(dir, "sts-test.output.txt")
  fs.writeFileSync(runFile, lines(v.run))
  return { gold, run: runFile, values: v }
}

/**
 * `stseval rank [--all-runs] --json` on a submissions folder, in process (`Engine.score` with the
 * folder, then `ResultJson.resultsToJson`, as apps/cli/src/commands/rank.ts): each ranking's entries
 * without paths and ids (the import names runs `Team_runN`, the examples folder its own way), with
 * their flags, so post-deadline and late marks must survive the import too.
 */
export const rankJson = (task: string, gold: string, folder: string, primaryOnly = true) =>
  run(Engine.score({ task, gold, folder, primaryOnly })).then((results) =>
    (ResultJson.resultsToJson(results).rankings?.rankings ?? []).map((r) => ({
      ranking: r.ranking,
      entries: r.entries.map((e) => ({ rank: e.rank, team: e.team, run: e.run, primary: e.primary, late: e.late, postDeadline: e.postDeadline, flags: e.flags, value: e.value }))
    }))
  )

export const semrel = Registry.get("semrel2024-a")!

/**
 * A SemEval-2024 Task 1 gold folder (`<lang>/<lang>_test_with_labels.csv`: PairID,Text,Score with
 * scores on 0-1) for every language of `edition` with a public gold, and one run folder
 * (`pred_<lang>.csv`: PairID,Pred_Score) for the languages `submitted`, its rows in another order
 * than the gold's (runs are matched by PairID).
 */
export const writeSemRel = (
  dir: string,
  edition: Registry.TaskEdition,
  n: number,
  submitted: ReadonlyArray<string>
): { readonly gold: string; readonly run: string; readonly values: Record<string, { gold: Array<number>; run: Array<number> }> } => {
  const gold = path.join(dir, "gold")
  const runDir = path.join(dir, "run")
  fs.mkdirSync(runDir, { recursive: true })
  const values: Record<string, { gold: Array<number>; run: Array<number> }> = {}
  for (const [k, d] of edition.datasets.entries()) {
    if (d.goldNotPublic !== undefined) continue
    const v = scores(2000 + k, n, 0.4)
    const g = v.gold.map((x) => Math.round(x * 20) / 100)
    const r = v.run.map((x) => Math.round(x * 20) / 100)
    const ids = g.map((_, i) => `${d.name.toUpperCase()}-test-${String(i).padStart(4, "0")}`)
    fs.mkdirSync(path.dirname(path.join(gold, d.gold)), { recursive: true })
    fs.writeFileSync(path.join(gold, d.gold), `PairID,Text,Score\n${g.map((x, i) => `${ids[i]},"A ""quoted"" text ${i}\nand its pair ${i}",${x}\n`).join("")}`)
    if (!submitted.includes(d.name)) continue
    values[d.name] = { gold: g, run: r }
    const order = ids.map((_, i) => i).reverse()
    fs.writeFileSync(path.join(runDir, d.run), `PairID,Pred_Score\n${order.map((i) => `${ids[i]},${r[i]}\n`).join("")}`)
  }
  return { gold, run: runDir, values }
}
