/**
 * `--ci` end to end, through the real executable, on small STS 2017 runs built here (7 tracks x 30
 * pairs): `rank --ci 95 --json` gives every run's official figure an interval and every entry of
 * the official ranking a rank interval, equal to a direct `Intervals.compute` call on the same
 * scores with the same seed; text, LaTeX and HTML show them; `watch --ci 95` publishes the same.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Registry } from "@stseval/formats"
import { Intervals } from "@stseval/significance"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { repoRoot, runCli } from "./support/cli.js"
import type { CliResult } from "./support/cli.js"

const sts2017 = Registry.get("sts2017")!
const tracks = sts2017.datasets.map((d) => d.name)
const PAIRS = 30

/** A linear congruential generator of the test's own; noise as the sum of three uniforms (about normal). */
let state = 2017
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
const normal = () => (rand() + rand() + rand() - 1.5) * 2

// folder name -> noise; Ace is far better than the rest; Cat_run2 is not primary (not ranked)
const RUNS: ReadonlyArray<readonly [string, string, number, boolean]> = [
  ["Ace_run1primary", "Ace/run1", 0.1, true],
  ["Bee_run1primary", "Bee/run1", 1.4, true],
  ["Cat_run1primary", "Cat/run1", 1.5, true],
  ["Cat_run2", "Cat/run2", 1.3, false],
  ["Dog_run1primary", "Dog/run1", 1.6, true]
]

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-intervals-"))
const goldDir = path.join(tmp, "gold")
const subs = path.join(tmp, "subs")
const gold: Record<string, Float64Array> = {}
const scores: Record<string, Record<string, Float64Array>> = {}
for (const [d, spec] of sts2017.datasets.entries()) {
  const g = Float64Array.from({ length: PAIRS }, () => Math.round(rand() * 500) / 100)
  gold[spec.name] = g
  fs.mkdirSync(goldDir, { recursive: true })
  fs.writeFileSync(path.join(goldDir, spec.gold), Array.from(g, (x) => `${x}\n`).join(""))
  for (const [folder, , sd] of RUNS) {
    // track 6's run file has 500 lines in the task; the first 250 (here: all) are scored
    const x = Float64Array.from(g, (v) => Math.round((v + sd * normal() + 0.01 * d) * 1000) / 1000)
    ;(scores[folder] ??= {})[spec.name] = x
    fs.mkdirSync(path.join(subs, folder), { recursive: true })
    fs.writeFileSync(path.join(subs, folder, spec.run), Array.from(x, (v) => `${v}\n`).join(""))
  }
}
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

const common = ["--task", "sts2017", "--gold", goldDir, subs]
let json: CliResult
let text: CliResult
let latex: CliResult
let html: CliResult
let watched: CliResult
const board = path.join(tmp, "board")
beforeAll(async () => {
  // one process each, side by side
  ;[json, text, latex, html, watched] = await Promise.all([
    runCli(["rank", ...common, "--ci", "95", "--json"]),
    runCli(["rank", ...common, "--ci", "95"]),
    runCli(["report", ...common, "--ci", "95", "--format", "latex"]),
    runCli(["report", ...common, "--ci", "0.95", "--format", "html"]),
    // primary runs only, as rank ranks them
    runCli(["watch", ...common, "--ci", "95", "--primary-only", "--once", "--out", board])
  ])
}, 60_000)

/** The same scores, straight into Intervals.compute: STS 2017's rule (mean; no figure without every track). */
const direct = () =>
  Intervals.compute(
    {
      datasets: tracks.map((name) => ({ name, metric: "pearson" as const, weight: PAIRS })),
      runs: RUNS.map(([folder, id, , primary]) => ({
        id,
        ranked: primary,
        scores: Object.fromEntries(tracks.map((t) => [t, { run: scores[folder][t], gold: gold[t] }]))
      })),
      official: "mean",
      missingDataset: "no-official-score",
      aggregates: ["wmean", "mean", "pooled"]
    },
    { level: 0.95, resamples: 1000, seed: 12345 }
  )

interface Entry {
  readonly rank: number | null
  readonly id: string
  readonly ci?: { readonly low: number; readonly high: number; readonly level: number }
  readonly rankInterval?: { readonly low: number; readonly high: number }
}
interface Doc {
  readonly intervals: { readonly level: number; readonly resamples: number; readonly seed: number; readonly signature: string }
  readonly runs: ReadonlyArray<{
    readonly run: { readonly id: string }
    readonly official: ReadonlyArray<{ readonly value: number; readonly ci?: { readonly low: number; readonly high: number; readonly level: number } }>
    readonly aggregates: Record<string, Record<string, { readonly value: number; readonly ci?: { readonly low: number; readonly high: number; readonly level: number } }>>
    readonly datasets: Record<string, { readonly figures: { readonly pearson: { readonly value: number; readonly ci: { readonly low: number; readonly high: number } } } }>
  }>
  readonly rankings: { readonly rankings: ReadonlyArray<{ readonly ranking: string; readonly bestGroup: ReadonlyArray<string>; readonly entries: ReadonlyArray<Entry> }> }
}

describe("stseval rank --ci 95 --json (STS 2017 runs built in the test)", () => {
  it("gives aggregate.official.ci for each run and rankInterval for each entry of the official ranking", () => {
    expect(json.code, json.stderr).toBe(0)
    const doc = JSON.parse(json.stdout) as Doc
    expect(doc.intervals).toMatchObject({ level: 0.95, resamples: 1000, seed: 12345 })
    expect(doc.runs).toHaveLength(RUNS.length)
    for (const run of doc.runs) {
      const official = run.official[0]
      expect(official.ci?.level).toBe(0.95)
      expect(official.ci!.low).toBeLessThanOrEqual(official.value)
      expect(official.ci!.high).toBeGreaterThanOrEqual(official.value)
    }
    const ranking = doc.rankings.rankings.find((r) => r.ranking === "official")!
    // the non-primary run is left out of the ranking (primary runs only, as the paper)
    expect(ranking.entries.map((e) => e.id).sort()).toEqual(["Ace/run1", "Bee/run1", "Cat/run1", "Dog/run1"])
    for (const e of ranking.entries) {
      expect(e.rank).not.toBeNull()
      expect(e.rankInterval!.low).toBeLessThanOrEqual(e.rank!)
      expect(e.rankInterval!.high).toBeGreaterThanOrEqual(e.rank!)
    }
    // a run much better than all the others
    expect(ranking.entries[0]).toMatchObject({ id: "Ace/run1", rank: 1, rankInterval: { low: 1, high: 1 } })
    expect(ranking.bestGroup).toEqual(["Ace/run1"])
  })

  it("the intervals equal a direct Intervals.compute call on the same scores with the same seed", () => {
    const doc = JSON.parse(json.stdout) as Doc
    const expected = direct()
    if (!("runs" in expected)) throw expected
    expect(doc.intervals.signature).toBe(expected.signatureText)
    for (const r of expected.runs) {
      const run = doc.runs.find((x) => x.run.id === r.id)!
      expect(run.official[0].ci).toEqual(r.official.ci)
      expect(run.aggregates.official.wmean.ci).toEqual(r.aggregates.wmean?.ci)
      // a track's 30 pairs are fewer than 100: its interval says how many; the official mean rests on 7 x 30 (issue 24)
      for (const d of r.datasets) expect(run.datasets[d.dataset].figures.pearson.ci).toEqual({ ...d.ci, fewPairs: PAIRS })
      expect(run.official[0].ci).not.toHaveProperty("fewPairs")
      const entry = doc.rankings.rankings[0].entries.find((e) => e.id === r.id)
      expect(entry?.rankInterval).toEqual(r.rankInterval)
    }
  })

  it("matches docs/schemas/scored-results.schema.json", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, "docs/schemas/scored-results.schema.json"), "utf8")) as object
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)
    expect(validate(JSON.parse(json.stdout)), JSON.stringify(validate.errors)).toBe(true)
  })
})

describe("intervals where people read them", () => {
  it("rank (text): the rank range and the interval beside each figure, no ≈ on the best itself, the signature", () => {
    expect(text.code, text.stderr).toBe(0)
    const row = text.stdout.split("\n").find((l) => l.includes("Ace/run1"))!
    // rank, range, run (the best: its interval overlaps only its own, no ≈: issue 32), Primary (r x 100), [low, high]
    expect(row).toMatch(/^\s+1\s+1\s+Ace\/run1\s+\d+\.\d\d\s+\[\d+\.\d\d, \d+\.\d\d\]/)
    expect(text.stdout).toMatch(/\n\s+\d\s+\d(-\d)?\s+Bee\/run1\s/)
    expect(text.stdout).toContain("method:percentile-bootstrap|resamples:1000|seed:12345|level:0.95")
  })

  it("report --format latex: a Rank range column, and no ≈ on the best run itself (issue 32)", () => {
    expect(latex.code, latex.stderr).toBe(0)
    expect(latex.stdout).toContain("& Primary & Rank & Rank range &")
    expect(latex.stdout).toMatch(/Ace\/run1 & [^&]+ & 1 & 1 & /)
    expect(latex.stdout).not.toContain("\\approx")
    expect(latex.stdout).toContain("1000 resamples, seed 12345")
  })

  it("report --format html: error bars on the figures and the rank range", () => {
    expect(html.code, html.stderr).toBe(0)
    // Primary and 7 tracks for each of the 5 runs (the table shows every run)
    expect(html.stdout.match(/<svg class="ci"/g)?.length).toBe(8 * RUNS.length)
    // Rank, then Rank range, after Primary
    expect(html.stdout).toMatch(/<tr data-run="Ace\/run1">.*<td class="r" data-value="1">1<\/td><td class="r" data-value="1"><bdi dir="auto">1<\/bdi><\/td>/)
    expect(html.stdout).not.toContain('title="its rank interval overlaps the best run&#39;s"')
  })
})

describe("stseval watch --ci 95 (the live leaderboard)", () => {
  interface Figure {
    readonly value: number | null
    readonly ci?: { readonly low: number; readonly high: number; readonly level: number } | null
  }
  interface Board {
    readonly intervals: { readonly signature: string }
    readonly rankings: ReadonlyArray<{ readonly ranking: string; readonly bestGroup: ReadonlyArray<string>; readonly entries: ReadonlyArray<Entry> }>
    readonly runs: ReadonlyArray<{ readonly id: string; readonly official: ReadonlyArray<Figure>; readonly datasets: ReadonlyArray<Figure & { readonly dataset: string }> }>
  }

  it("gives every figure and every ranked entry the interval rank --ci 95 --json gives it; the signature in the JSON and the page", () => {
    expect(watched.code, watched.stderr).toBe(0)
    const b = JSON.parse(fs.readFileSync(path.join(board, "leaderboard.json"), "utf8")) as Board
    const doc = JSON.parse(json.stdout) as Doc
    expect(b.intervals.signature).toBe(doc.intervals.signature)
    const ranked = doc.rankings.rankings[0]
    const official = b.rankings.find((r) => r.ranking === "official")!
    expect(official.bestGroup).toEqual(ranked.bestGroup)
    expect(official.entries.filter((e) => e.rank !== null).map((e) => [e.id, e.rank, e.ci, e.rankInterval])).toEqual(
      ranked.entries.map((e) => [e.id, e.rank, e.ci, e.rankInterval])
    )
    expect(b.runs).toHaveLength(RUNS.length)
    for (const run of b.runs) {
      const scored = doc.runs.find((r) => r.run.id === run.id)!
      expect(run.official[0].ci).toEqual(scored.official[0].ci)
      for (const d of run.datasets) expect(d.ci, `${run.id} ${d.dataset}`).toEqual(scored.datasets[d.dataset].figures.pearson.ci)
    }
    // the non-primary run: not ranked (as rank leaves it out), yet intervals on its figures
    expect(official.entries.find((e) => e.id === "Cat/run2")?.rank ?? null).toBeNull()
    expect(official.entries.find((e) => e.id === "Cat/run2")?.rankInterval).toBeUndefined()
    expect(b.runs.find((r) => r.id === "Cat/run2")!.official[0].ci?.level).toBe(0.95)
    expect(fs.readFileSync(path.join(board, "leaderboard.html"), "utf8")).toContain(doc.intervals.signature)
    expect(fs.readFileSync(path.join(board, "leaderboard.md"), "utf8")).toContain("Rank range")
  })

  it("leaderboard.json matches docs/schemas/leaderboard.schema.json", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, "docs/schemas/leaderboard.schema.json"), "utf8")) as object
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema)
    const b: unknown = JSON.parse(fs.readFileSync(path.join(board, "leaderboard.json"), "utf8"))
    expect(validate(b), JSON.stringify(validate.errors)).toBe(true)
  })

  it("a bad --ci is a usage error (exit 2), nothing written", async () => {
    const out = path.join(tmp, "bad-board")
    const r = await runCli(["watch", ...common, "--ci", "95", "--seed", "-3", "--once", "--out", out])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("seed")
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(fs.existsSync(path.join(out, "leaderboard.json"))).toBe(false)
  })
})
