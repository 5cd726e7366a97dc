/**
 * One rule for "tied with the best" (issue 35): a 52-run STS-B-like leaderboard ranked by Spearman
 * (a user edition: STS-B with `metric: spearman`, synthetic gold and runs made here), just past
 * the old cut-off: with the bootstrap's shift p-value at 1,000 resamples, floored at 1 / 1,001,
 * Holm over 51 comparisons (first threshold 0.05 / 51 = 0.00098) could reject nothing and every run
 * was bold. Each output that marks the bold (report, rank --marks, significance, the live
 * leaderboard) must bold exactly what an independent paired bootstrap with Holm bolds
 * (`boldByBootstrap` of @stseval/vitest-config/reference: its own generator, Spearman re-ranked on
 * every resample, p by the normal approximation), and say the rule.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { mulberry32 } from "@stseval/vitest-config/random"
import { boldByBootstrap } from "@stseval/vitest-config/reference"
import { beforeAll, describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, runCli } from "./support/cli.js"

const tmp = scratchDir("bold-rule")

const PAIRS = 150
const RUNS = 52
const next = mulberry32(35)
const gold = Array.from({ length: PAIRS }, () => Math.round(500 * next()) / 100)
const noisy = (sd: number) => gold.map((g) => g + sd * Math.sqrt(12) * (next() - 0.5))
const best = noisy(0.6)
// 11 runs with the best's ranks (positive monotone maps of it: the same Spearman on every resample),
// 10 of about the same quality, 31 far behind: decisions well away from the threshold (checked below)
const runs: Array<Array<number>> = [
  best,
  ...Array.from({ length: 10 }, (_, k) => best.map((x) => (k % 2 === 0 ? 0.5 + 0.1 * k : 0) + x * (1 + 0.05 * k) + (k % 2 === 1 ? 0.01 * x ** 3 : 0))),
  ...Array.from({ length: 10 }, () => noisy(0.62)),
  ...Array.from({ length: 31 }, (_, k) => noisy(2.5 + 0.1 * k))
]
const team = (k: number) => `T${String(k).padStart(2, "0")}`
const reference = boldByBootstrap(gold, runs, { metric: "spearman", resamples: 1000, seed: 7 })
const tiedIds = reference.tied.map((k) => `${team(k)}/run1`).sort()

const editionFile = path.join(tmp, "stsb-spearman.json")
const goldFile = path.join(tmp, "sts-test.csv")
const folder = path.join(tmp, "runs")

beforeAll(async () => {
  const tasks = await runCli(["tasks", "--json"])
  const stsb = (JSON.parse(tasks.stdout) as ReadonlyArray<Record<string, unknown> & { id: string; ranking: Array<Record<string, unknown>>; datasets: Array<Record<string, unknown>> }>).find((e) => e.id === "stsb")!
  const edition = {
    ...stsb,
    id: "stsb-spearman",
    title: "STS-B ranked by Spearman (synthetic)",
    datasets: stsb.datasets.map((d) => ({ ...d, pairs: PAIRS })),
    ranking: stsb.ranking.map((r) => ({ ...r, metric: "spearman", report: ["spearman"] })),
    published: { style: "r100" }
  }
  fs.writeFileSync(editionFile, JSON.stringify(edition, null, 2))
  fs.writeFileSync(goldFile, gold.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA sentence ${i}.\tAnother sentence ${i}.\n`).join(""))
  fs.mkdirSync(folder)
  runs.forEach((r, k) => fs.writeFileSync(path.join(folder, `${team(k)}_run1primary.txt`), r.map((x) => `${x.toFixed(6)}\n`).join("")))
  backdate(folder)
}, 60_000)

describe("one rule for the bold: 52 runs by Spearman, every output against an independent bootstrap with Holm", () => {
  it("the fixture: just past the old cut-off (the shift p at 1,000 resamples bolds all 52), decisions clear of the threshold", () => {
    expect(boldByBootstrap(gold, runs, { metric: "spearman", resamples: 1000, seed: 7, shift: true }).tied).toHaveLength(RUNS)
    // every comparison's Holm-adjusted p at least 4x away from alpha: another generator decides alike
    for (const a of reference.adjusted) expect(a < 0.05 / 4 || a > 0.05 * 4).toBe(true)
    expect(tiedIds.length).toBeGreaterThan(11)
    expect(tiedIds.length).toBeLessThan(RUNS - 31 + 1)
  })

  const common = ["--task", editionFile, "--gold", goldFile]

  it("report: the bold cells are the reference's, and the footnote says test, resamples, p and correction", { timeout: 120_000 }, async () => {
    const r = await runCli(["report", ...common, folder, "--format", "json"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as { tables: Array<{ footnotes: Array<string>; sections: Array<{ rows: Array<{ id: string; cells: Record<string, { marks: Array<string> }> }> }> }> }
    const rows = doc.tables[0].sections.flatMap((s) => s.rows)
    expect(rows).toHaveLength(RUNS)
    const bold = rows.filter((row) => Object.values(row.cells).some((c) => c.marks.includes("tied"))).map((row) => row.id).sort()
    expect(bold).toEqual(tiedIds)
    expect(doc.tables[0].footnotes).toContain(
      "Bold: not significantly different from the best ranked run (paired bootstrap, 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05)."
    )
  })

  it("rank --marks: the tied runs are the reference's (JSON and text)", { timeout: 120_000 }, async () => {
    const r = await runCli(["rank", ...common, folder, "--marks", "--json"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as { marks: Array<{ ranking: string; tied: Array<string>; rule: string; resamples: number }> }
    const m = doc.marks.find((f) => f.ranking === "official")!
    expect([...m.tied].sort()).toEqual(tiedIds)
    expect(m.resamples).toBe(1000)
    const text = await runCli(["rank", ...common, folder, "--marks"])
    expect(text.code, text.stderr).toBe(0)
    const yes = text.stdout.split("\n").filter((l) => /^\s+\d+\s+T\d\d\/run1\s+yes\s/.test(l)).map((l) => l.trim().split(/\s+/)[1]).sort()
    expect(yes).toEqual(tiedIds)
    expect(text.stdout).toContain("tied: not significantly different from the best ranked run (paired bootstrap, 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05)")
  })

  it("significance (its defaults): the bold runs are the reference's", { timeout: 120_000 }, async () => {
    const r = await runCli(["significance", ...common, folder, "--json"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as { correction: string; tests: Array<{ resamples: number; rule: string; runs: Array<{ run: string; bold: boolean }> }> }
    expect(doc.correction).toBe("holm")
    expect(doc.tests[0].resamples).toBe(1000)
    expect(doc.tests[0].runs.filter((x) => x.bold).map((x) => x.run).sort()).toEqual(tiedIds)
  })

  it("the live leaderboard (watch --once): the marks are the reference's", { timeout: 120_000 }, async () => {
    const out = path.join(tmp, "board")
    const r = await runCli(["watch", ...common, folder, "--out", out, "--once"])
    expect(r.code, r.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { marks: Array<{ ranking: string; dataset?: string; tied: Array<string> }> }
    const m = board.marks.find((f) => f.ranking === "official")!
    expect([...m.tied].sort()).toEqual(tiedIds)
    expect(fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")).toContain("1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted")
  })
})
